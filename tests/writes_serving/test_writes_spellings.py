"""Collections held under more than one spelling (write-effects "Serving" → "Refusals"):

"A create in a collection held under more than one spelling (acme1 and %61cme1) goes to the one
the call spells verbatim …; a collection keeps its spelling after its last entity is deleted. A
reset or load knows the spellings of the Evidence's state, of the state it installs and of the
type's checked list lines …, never those of a state it replaced. When two spellings fit a call
equally, the one holding entities wins, the earlier first entity in state order among held ones
and the earlier known among emptied ones."

The capture's application names one org both ``acme1`` and ``%61cme1``: it lists items under the
first and lists the second empty, then creates an item (tied to ``/orgs/acme1/items``). A call
spelled ``%61cm%651`` fits both spellings once decoded and neither verbatim: a tie.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted, document

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import CollectionState, Entity, StateSnapshot
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.index import KnownSpellings, StateIndex
from capenv.serving.store import MemoryStore
from capenv.serving.writes.generator_state import WriteState

PLAIN, ENCODED, TIED = "acme1", "%61cme1", "%61cm%651"
OTHER = "acm%651"  # a third spelling of the same org, known to no capture line


def _path(org: str) -> str:
    return f"/orgs/{org}/items"


def _capture(*later: tuple[str, str, dict[str, Any]]) -> HarBuilder:
    builder = HarBuilder()
    builder.call("GET", "/orgs", response=[{"id": PLAIN}, {"id": ENCODED}, {"id": "beta2"}])
    builder.call("GET", _path(PLAIN), response=[{"id": 1, "title": "a"}])
    builder.call("GET", _path(ENCODED), response=[])  # listed empty: this spelling is known
    builder.call("GET", _path("beta2"), response=[{"id": 5, "title": "e"}])
    builder.call("GET", f"{_path(PLAIN)}/1", response={"id": 1, "title": "a"})
    builder.call("GET", f"{_path('beta2')}/5", response={"id": 5, "title": "e"})
    builder.call("POST", _path(PLAIN), body={"title": "b"}, status=201, response={"id": 2, "title": "b"})
    builder.call("GET", f"{_path(PLAIN)}/2", response={"id": 2, "title": "b"})
    builder.call("DELETE", f"{_path('beta2')}/5", status=204)
    builder.call("GET", f"{_path('beta2')}/5", status=404, response={"error": "not found"})
    # a create after the newest item's delete takes a fresh id: the items' sequence is proved not to
    # reuse a deleted one (sequence-reuse), so a create after such a delete is served
    builder.call("POST", _path("beta2"), body={"title": "f"}, status=201, response={"id": 6, "title": "f"})
    builder.call("GET", f"{_path('beta2')}/6", response={"id": 6, "title": "f"})
    for method, path, options in later:
        builder.call(method, path, **options)
    return builder


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return build_from(_capture())


@pytest.fixture()
def runtime(bundle: Bundle) -> EnvironmentRuntime:
    return EnvironmentRuntime(bundle)


def _create(runtime: EnvironmentRuntime, org: str) -> str:
    """The collection a served create names its entity in."""
    return accepted(runtime, "post_orgs_items", {"org_id": org, "body": {"title": "n"}})["state"]["collection"]


def _listed(runtime: EnvironmentRuntime, org: str) -> list[Any]:
    return [e["id"] for e in accepted(runtime, "get_orgs_items", {"org_id": org})["body"]]


def _load(runtime: EnvironmentRuntime, *held: tuple[str, tuple[int, ...]]) -> None:
    """data/add a state holding these items collections (spelled by org), in this order."""
    runtime.data_add(json.dumps({"collections": [
        {"path": _path(org), "type": "items", "args": {"org_id": org},
         "entities": [{"id": i, "value": {"id": i, "title": f"t{i}"}} for i in ids]} for org, ids in held],
        "documents": []}).encode())


def _installed(bundle: Bundle, *held: tuple[str, tuple[int, ...]]) -> StateIndex:
    """A state holding these items collections as a reset or load installs it."""
    state = StateIndex.from_snapshot(StateSnapshot(evidence_id="e", collections=tuple(
        CollectionState(path=_path(org), type="items", args={"org_id": org},
                        entities=tuple(Entity(id=i, value={"id": i}) for i in ids)) for org, ids in held)))
    WriteState(bundle).fresh(state)
    return state


def _paths(runtime: EnvironmentRuntime) -> dict[str, list[Any]]:
    return {c["path"]: [e["id"] for e in c["entities"]] for c in document(runtime)["collections"]
            if c["type"] == "items"}


# --- after a reset: the Evidence's spellings -------------------------------------------------


@pytest.mark.parametrize("org", [PLAIN, ENCODED])
def test_a_create_goes_to_the_spelling_the_call_names_verbatim(runtime, org: str) -> None:
    assert _create(runtime, org) == _path(org)
    runtime.data_reset()
    assert _create(runtime, org) == _path(org)


def test_a_tie_goes_to_the_spelling_holding_entities(runtime) -> None:
    assert _create(runtime, TIED) == _path(PLAIN)  # the capture listed %61cme1 empty


def test_a_tie_goes_to_the_held_one_even_when_the_other_was_known_first(runtime, bundle: Bundle) -> None:
    known_first = next(c.path for c in bundle.view.state.collections if c.path in (_path(PLAIN), _path(ENCODED)))
    emptied_first = ENCODED if known_first == _path(ENCODED) else PLAIN
    held_second = PLAIN if emptied_first == ENCODED else ENCODED
    _load(runtime, (emptied_first, ()), (held_second, (7,)))
    assert _create(runtime, TIED) == _path(held_second)


@pytest.mark.parametrize("first", [PLAIN, ENCODED])
def test_among_held_spellings_the_earlier_first_entity_in_state_order_wins(runtime, first: str) -> None:
    second = ENCODED if first == PLAIN else PLAIN
    _load(runtime, (first, (7,)), (second, (8,)))
    assert _create(runtime, TIED) == _path(first)


@pytest.mark.parametrize("installed_first", [PLAIN, ENCODED])
def test_among_emptied_spellings_the_earlier_known_wins(runtime, bundle: Bundle, installed_first: str) -> None:
    """Both spellings come from the Evidence's state, which a load knows before the state it
    installs: its order decides, whatever order the loaded document lists them in."""
    known_first = next(c.path for c in bundle.view.state.collections if c.path in (_path(PLAIN), _path(ENCODED)))
    other = ENCODED if installed_first == PLAIN else PLAIN
    _load(runtime, (installed_first, ()), (other, ()))
    assert _create(runtime, TIED) == known_first


@pytest.mark.parametrize("first", ["gamm%613", "g%61mma3"])
def test_among_emptied_spellings_only_a_load_knows_the_installed_order_decides(bundle: Bundle, first: str) -> None:
    """Spellings no capture line or Evidence state has are known in the loaded state's order."""
    second = "g%61mma3" if first == "gamm%613" else "gamm%613"
    state = _installed(bundle, (PLAIN, (1,)), (first, ()), (second, ()))
    assert state.spelling_of(_path("%67amma3"), "items") == _path(first)


# --- a load knows the Evidence's spellings and the capture's list lines ----------------------


def test_a_load_knows_an_evidence_spelling_it_does_not_install(runtime) -> None:
    _load(runtime, (PLAIN, (1,)))
    assert _listed(runtime, ENCODED) == []  # the list line's own spelling, empty: not acme1's items
    assert _create(runtime, ENCODED) == _path(ENCODED)
    paths = _paths(runtime)
    assert paths[_path(PLAIN)] == [1] and len(paths[_path(ENCODED)]) == 1
    assert _listed(runtime, ENCODED) == paths[_path(ENCODED)] and _listed(runtime, PLAIN) == [1]


def test_a_plain_call_still_reaches_a_collection_held_only_under_an_encoded_spelling(runtime) -> None:
    """The rule must not apply where one spelling alone fits: a call naming neither known spelling
    verbatim goes to the one held."""
    _load(runtime, (OTHER, (4,)))
    assert _create(runtime, "acm%65%31") == _path(OTHER)


def test_a_load_knows_the_spellings_of_the_state_it_installs(runtime) -> None:
    _load(runtime, (PLAIN, (1,)), (OTHER, ()))
    assert _create(runtime, OTHER) == _path(OTHER)  # emptied, but the call spells it verbatim


def test_a_load_forgets_the_spellings_of_the_state_it_replaced(runtime) -> None:
    _load(runtime, (PLAIN, (1,)), (OTHER, ()))
    _load(runtime, (PLAIN, (1,)))
    assert _create(runtime, OTHER) == _path(PLAIN)  # a tie between the Evidence's spellings: held wins
    _load(runtime, (PLAIN, (1,)), (OTHER, ()))
    runtime.data_reset()
    assert _create(runtime, OTHER) == _path(PLAIN)
    assert _path(OTHER) not in _paths(runtime)


def test_a_collection_keeps_its_spelling_after_its_last_entity_is_deleted(runtime) -> None:
    _load(runtime, (PLAIN, (1,)), (OTHER, (4,)))
    accepted(runtime, "delete_orgs_items_by_item_id", {"org_id": OTHER, "item_id": "4"})
    assert _paths(runtime)[_path(OTHER)] == []
    assert _create(runtime, OTHER) == _path(OTHER)


def test_every_runtime_sharing_a_store_knows_what_the_load_knew(bundle: Bundle) -> None:
    store = MemoryStore()
    first = EnvironmentRuntime(bundle, store=store)
    _load(first, (PLAIN, (1,)))
    second = EnvironmentRuntime(bundle, store=store)  # reads the state (and what it knows) from the store
    assert _listed(second, ENCODED) == []
    assert _create(second, ENCODED) == _path(ENCODED)
    assert _create(first, TIED) == _path(PLAIN)


def test_a_create_whose_path_is_not_its_collection_takes_the_spelling_of_its_argument() -> None:
    """A linked create at /orgs/{org_id}/new-item spells the tied collection's org as its call does."""
    builder = _capture(("POST", f"/orgs/{PLAIN}/new-item", {"body": {"title": "c"}, "status": 201,
                                                             "response": {"id": 3, "title": "c"}}),
                       ("GET", f"{_path(PLAIN)}/3", {"response": {"id": 3, "title": "c"}}))
    runtime = EnvironmentRuntime(build_from(builder))
    for org in (ENCODED, PLAIN):
        answer = accepted(runtime, "post_orgs_new_item", {"org_id": org, "body": {"title": "n"}})
        assert answer["state"]["collection"] == _path(org)


def test_what_a_reset_knows_includes_every_checked_list_line(bundle: Bundle) -> None:
    known = _installed(bundle, (PLAIN, (1,))).known
    lines = [(v.type, line.collection) for v in bundle.view.views if v.kind == "list" for line in v.lines
             if line.state_backed]
    assert lines and all(line in known.listed for line in lines)
    assert known.evidence == tuple((c.type, c.path) for c in bundle.view.state.collections)
    assert known.installed == 1


def test_a_list_line_spelling_no_state_holds_is_known_after_the_installed_ones() -> None:
    state = StateIndex.from_snapshot(StateSnapshot(evidence_id="e", collections=(
        CollectionState(path=_path(OTHER), type="items", args={"org_id": OTHER}),)))
    state.known = KnownSpellings(evidence=(), installed=1, listed=(("items", _path(ENCODED)),))
    assert state.spelling_of(_path(TIED), "items") == _path(OTHER)  # both empty: installed known first
    assert state.spelling_of(_path(ENCODED), "items") == _path(ENCODED)  # verbatim, though no state holds it
    assert state.find_collection(_path(ENCODED), "items") is None  # ... it holds nothing
    assert state.spelling_of(_path(ENCODED), "other") is None  # another type's spellings never fit


# --- the gate places recorded creates as serving does ----------------------------------------


def _recorded_create_at(org: str, *, listed_under: str) -> Bundle:
    """A later create spelled ``org`` whose item then shows in ``listed_under``'s list only."""
    created = {"id": 3, "title": "c"}
    elsewhere = ENCODED if listed_under == PLAIN else PLAIN
    shown = {PLAIN: [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}], ENCODED: []}
    shown[listed_under] = shown[listed_under] + [created]
    return build_from(_capture(
        ("POST", _path(org), {"body": {"title": "c"}, "status": 201, "response": created}),
        ("GET", f"{_path(org)}/3", {"response": created}),
        ("GET", _path(listed_under), {"response": shown[listed_under]}),
        ("GET", _path(elsewhere), {"response": shown[elsewhere]})))


@pytest.mark.parametrize("org", [ENCODED, PLAIN])
def test_the_gate_confirms_a_create_listed_under_the_spelling_it_named(org: str) -> None:
    bundle = _recorded_create_at(org, listed_under=org)
    create = next(p for p in bundle.view.writes if p.tool == "post_orgs_items")
    assert create.served and create.contradicted_by is None, create.reason
    runtime = EnvironmentRuntime(bundle)
    assert _create(runtime, org) == _path(org)


def test_the_gate_refuses_a_create_listed_under_the_other_spelling() -> None:
    bundle = _recorded_create_at(ENCODED, listed_under=PLAIN)
    create = next(p for p in bundle.view.writes if p.tool == "post_orgs_items")
    assert not create.served and create.contradicted_by is not None
