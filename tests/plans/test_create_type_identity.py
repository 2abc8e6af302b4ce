"""A create at its type's collection path whose answer names the new entity under the type's
identity field, whatever that field is called (write-effects, "A POST … is a create into the type
its returned id is read under: its exemplar's response names an id (an identity member …)"): the
type's own identity field is an identity member of its answer, so entries addressed by their
``kind`` link to their item read as entities addressed by ``id`` do. Synthetic captures only."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.plans.link import identity_of, names_collection_below, names_collection_of, returned_ids

OWNER = {"kind": "OWNER", "values": ["ops"], "type": "Setting"}
NOTE = {"kind": "NOTE", "values": ["made by a test"], "type": "Setting"}


def _settings_app() -> HarBuilder:
    """A host's settings, addressed by their ``kind`` (records 1-2), then a create (3) and its reads."""
    return (HarBuilder()
            .call("GET", "/hosts/h1/settings", response=[OWNER])                                      # 1
            .call("GET", "/hosts/h1/settings/OWNER", response=OWNER)                                  # 2
            .call("POST", "/hosts/h1/settings", body={"kind": "NOTE", "values": ["made by a test"]},
                  status=201, response=NOTE)                                                          # 3
            .call("GET", "/hosts/h1/settings/NOTE", response=NOTE)                                    # 4
            .call("GET", "/hosts/h1/settings", response=[OWNER, NOTE]))                               # 5


def test_a_create_answering_its_entity_under_the_types_own_identity_field_is_served():
    bundle = build_from(_settings_app())
    create = plan(bundle, "post_settings")
    assert create.effect == "create" and create.type is not None, summary(bundle)
    assert create.served, summary(bundle)
    assert {4, 5} & set(create.checked_record_ordinals), summary(bundle)


def test_the_types_identity_field_counts_only_at_its_collection_path():
    setting = EntityType(name="settings", collection_template="/hosts/{host_id}/settings",
                         item_template="/hosts/{host_id}/settings/{setting_id}", id_field="kind")
    named = lambda name: name in ("id", "name")  # noqa: E731 - the identity member names of the table
    assert names_collection_of("/hosts/h1/settings", setting)
    assert not names_collection_of("/hosts/h1/settings/NOTE", setting)   # an item path: another create
    assert not names_collection_of("/hosts", setting)
    assert returned_ids(NOTE, identity_of(named, setting), 4) == [("NOTE", "/kind")]
    assert returned_ids(NOTE, identity_of(named, None), 4) == []


def test_a_create_in_a_collection_the_window_never_listed_takes_the_order_its_types_lists_show():
    """The create's own collection (host h3's settings) was not listed before the writes; the
    other hosts' settings lists, sorted by kind, show how the application orders the type
    (write-effects, "List position": the rule consistent with the initial whole listings)."""
    a, c = {"kind": "A-ONE", "values": ["1"], "type": "Setting"}, {"kind": "C-ONE", "values": ["3"], "type": "Setting"}
    b, d = {"kind": "B-TWO", "values": ["2"], "type": "Setting"}, {"kind": "D-TWO", "values": ["4"], "type": "Setting"}
    note = {"kind": "NOTE", "values": ["n"], "type": "Setting"}
    bundle = build_from(HarBuilder()
                        .call("GET", "/hosts", response=[{"id": "h1"}, {"id": "h2"}, {"id": "h3"}])
                        .call("GET", "/hosts/h1/settings", response=[a, c])
                        .call("GET", "/hosts/h1/settings/A-ONE", response=a)
                        .call("GET", "/hosts/h1/settings/C-ONE", response=c)
                        .call("GET", "/hosts/h2/settings", response=[b, d])
                        .call("GET", "/hosts/h2/settings/B-TWO", response=b)
                        .call("POST", "/hosts/h3/settings", body={"kind": "NOTE", "values": ["n"]},
                              status=201, response=note)
                        .call("GET", "/hosts/h3/settings/NOTE", response=note))
    create = plan(bundle, "POST", "/hosts/{host_id}/settings")
    assert create.insert is not None and (create.insert.kind, create.insert.field) == ("sorted", "kind"), \
        (create.insert, summary(bundle))


def test_a_create_posted_below_its_collection_names_the_types_identity_too():
    """``POST /settings/new`` (Synapse's ``/registration_tokens/new``): the collection path plus one
    literal segment names the type, so its answer's ``kind`` is the new entity's id."""
    bundle = build_from(HarBuilder()
                        .call("GET", "/settings", response=[OWNER])
                        .call("GET", "/settings/OWNER", response=OWNER)
                        .call("POST", "/settings/new", body={"kind": "NOTE", "values": ["made by a test"]},
                              response=NOTE)
                        .call("GET", "/settings/NOTE", response=NOTE)
                        .call("GET", "/settings", response=[OWNER, NOTE]))
    create = plan(bundle, "POST", "/settings/new")
    assert create.effect == "create" and create.served, summary(bundle)
    setting = next(t for t in bundle.view.types if t.name == create.type)
    assert names_collection_below("/settings/new", setting) and not names_collection_below("/settings", setting)
