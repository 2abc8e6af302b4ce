"""One source of truth for a tool's inputs (issue #13 item 2), as a property on every served tool of
every capture in captures/: any arguments a tool's published input schema accepts (drawn by
Hypothesis from that schema, path ids also as recorded, and integer ids as numbers) are served,
or refused only for a reason no schema could say, which the catalog names: an entity the state
does not hold or already holds, a field the held entity lacks, a read the capture recorded no
answer for (replay), a recording the served state has left behind, a learned query's value the state
cannot evaluate (a sort key naming no field), a projection naming what no recording proves. Never for a wrong type, a
missing or unknown member, a value the schema could have listed, or an id sent as a number. Every
answer served holds to the tool's output schema."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.catalog.argument_schema import SCHEMA_CANNOT_SAY, integer_like
from capenv.serving.catalog.tools import BINARY_NOTE
from capenv.serving.runtime import EnvironmentRuntime
from support.schema_values import values_of
from support.served import capture_names

EXAMPLES_PER_TOOL = 25

STATE_REASONS = {
    # what the state holds: named in every write tool's description (SCHEMA_CANNOT_SAY)
    "an entity the state does not hold": re.compile(
        r"^no \S+ entity .* is held|the state holds no |no document is held at |changes none of them"),
    "already holds": re.compile(r"entity .* is already held|entity with .* is held \("),
    # an update giving its entity the key another held entity holds (serving/writes/create_keys.refuse_key_clash)
    "a key another entity holds": re.compile(r"^another \S+ entity \(.*\) holds .*the application refuses a second"),
    # a create's key a held entity holds in another letter case (serving/writes/create_keys: no recorded
    # call shows whether the application compares keys ignoring case)
    "a key a held entity holds in another letter case": re.compile(
        r"^the \S+ entity .* holds .*, which the call sends in another letter case: "),
    # a value another held entity has, in a member whose recorded values were all distinct (plan.distinct_members)
    # a copy of the written entity nested in another held entity (serving/writes/nested_copies)
    "a change to an entity another held entity copies": re.compile(r" holds a copy of the .* entity .* showing "),
    # a member held entities copy under another name while they name the entity (plan.copied_by,
    # serving/writes/reference_copies.refuse_stale_copies)
    "a change to a member held entities copy": re.compile(
        r"^[0-9]+ held \S+ entit(y|ies) \(.*\) names? this \S+ entity by '[^']+' and holds? a copy of its "),
    # the written entity copied by another type's held entities under its id (plan.copy_holders,
    # serving/writes/held_copies): said in the write's description
    "a change to an entity another type's held entities copy": re.compile(
        r"^the \S+ entity .* is copied by held .* entities under its \S+ \("),
    # a slug the plan derives that another held entity has (serving/ops/call_values: a taken slug)
    "a taken slug": re.compile(r"^field '[^']+' would be .*, which another held entity has; "),
    "a repeated distinct value": re.compile(r"^member '[^']+' is .*, which the .* entity .* already holds( \(.*\))?: "),
    # a member stored otherwise than sent, served only on an entity holding what the recorded call found
    "an entity holding another value than the recorded call found": re.compile(
        r"^member '[^']+' is served only on an entity whose '[^']+' holds "),
    # an object member leaving out a key the held entity holds there (serving/writes/object_merges)
    "an object leaving out a held key": re.compile(r"^member '[^']+' leaves out .*, which the entity holds: "),
    # an object nesting an empty text or null below its own keys (the schema says its own keys' values)
    "a nested empty value": re.compile(r"^member '[^']+' sends \S+/[^/\s]+/\S+ as an empty text or null"),
    "an entity lacking a field": re.compile(r"^the answer would lack recorded field|entity lacks \"|"
                                            r"so the entity must hold it as an object$"),
    # an update sending only what the entity holds, where the plan would still move a clock (unchanged_updates)
    "an update changing nothing": re.compile(r"^this update sends only values the entity already holds "),
    # a held entity named by a key member reads take and no recorded call of the write did (writes/execute._by_path)
    "named by another key": re.compile(r"^this write names its \S+ entity by '[^']+' .*; name it by '[^']+' "),
    # an identity member the path names the entity by, sent with another value (MemberRule.path_id_only)
    "another identity than the path's": re.compile(r"^member '[^']+' is accepted only as the id the path names "),
    # a create under a parent in a state no successful recorded create found (serving/writes/parent_states)
    "a parent in an unrecorded state": re.compile(r"^a create under this \S+ is not served: "),
    # other held entities naming the one a delete names: said in that delete's description (plan.referrers)
    "held referrers": re.compile(r"^[0-9]+ held entit(y names|ies name) this "),
    # an absence answer naming a path value sent percent-escaped, where no recorded absence shows whether the
    # application writes it as sent or decoded (serving/reads/escaped_spellings): the schema cannot say it
    "an escaped value's unknown spelling": re.compile(r"^the absence answer for \S+ is not known: "),
    # what the capture recorded: named in every replayed read's description
    "replay": re.compile(r"^nothing was recorded for |is not modelled over the current state"),
    # a learned query's value the state cannot evaluate, or a learned projection's value no recording
    # proves: named in the read's description
    "unevaluated query": re.compile(r"^this \S+ (list|item) query is not answered: "),
    # a listing of nothing where no recorded empty answer shows how the application answers one
    # (ReadView.empty_answer): said in the list's description
    "empty listing": re.compile(r"^this \S+ list is not answered from the current state: the list would list nothing"),
    # a recording of bytes that are no text (reads/answers.from_recording): said in the replayed read's description
    "binary recording": re.compile(r"\) is binary, bytes that are no text, which this environment does not keep"),
    # a read whose answer reports the time of the read itself (view-live-reports): said in its description
    "live report": re.compile(r" is not answered: .*, so a recorded answer would give an old one$"),
}


def reason_of(message: str) -> str | None:
    return next((name for name, pattern in STATE_REASONS.items() if pattern.search(message)), None)


def arguments(entry) -> st.SearchStrategy[dict[str, Any]]:
    """Drawn from the published schema; half the time each path id is a recorded one (as text or,
    for an integer id, as a number) where the schema accepts it, so writes reach held entities."""
    schema = entry.spec().input_schema
    drawn = values_of(schema)
    names = dict(getattr(entry.inputs, "properties", ())) or {p: p for p in entry.tool.params}
    recorded: dict[str, st.SearchStrategy[Any]] = {}
    for param, name in names.items():
        samples = list(entry.inputs.path_samples.get(param, ()))
        values = samples + ([int(s) for s in samples if str(int(s)) == s] if integer_like(tuple(samples)) else [])
        accepted = [v for v in values if Draft202012Validator(schema["properties"][name]).is_valid(v)]
        if accepted:
            recorded[name] = st.sampled_from(accepted)
    if not recorded:
        return drawn
    # a recorded id may pick another branch of a oneOf than the drawn body (a write dispatching on
    # a collection segment): such a pair is not drawn
    held = st.tuples(drawn, st.fixed_dictionaries(recorded)).map(lambda pair: {**pair[0], **pair[1]}) \
        .filter(Draft202012Validator(schema).is_valid)
    return st.one_of(drawn, held)


@pytest.mark.parametrize("capture", capture_names())
def test_arguments_the_schema_accepts_are_never_refused_for_what_it_could_say(capture: str, bundle_dir) -> None:
    runtime = EnvironmentRuntime(read_bundle(bundle_dir(capture)))
    called: dict[str, int] = {}
    unnamed: list[tuple[str, Any, str]] = []
    try:
        for entry in runtime.catalog.entries.values():
            validator = Draft202012Validator(entry.spec().input_schema)
            answers = Draft202012Validator(entry.spec().output_schema)
            if entry.handler == "write":
                assert SCHEMA_CANNOT_SAY in entry.description, entry.name

            @settings(max_examples=EXAMPLES_PER_TOOL, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(arguments(entry))
            def call(args: dict[str, Any]) -> None:
                assert validator.is_valid(args), (entry.name, args)  # the generator keeps to the schema
                answer = runtime.call_tool(entry.name, args)
                called[entry.name] = called.get(entry.name, 0) + 1
                if not answer.is_error:  # every served answer holds to the tool's output schema
                    assert answers.is_valid(answer.structured), (entry.name, args, answer.structured)
                    return
                message = answer.structured["message"]
                if reason_of(message) is None:
                    unnamed.append((entry.name, args, message))
                if reason_of(message) in ("replay", "unevaluated query", "live report", "empty listing",
                                          "binary recording"):  # a read's description says what it refuses
                    assert entry.handler == "read" and "is refused" in entry.description, (entry.name, message)
                if reason_of(message) == "binary recording":
                    assert BINARY_NOTE in entry.description, (entry.name, message)

            call()
    finally:
        runtime.close()
    assert set(called) == set(runtime.catalog.entries)  # every served tool
    assert not unnamed, unnamed[:5]
