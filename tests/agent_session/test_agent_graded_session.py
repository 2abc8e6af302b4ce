"""An agent's graded session (issue 6 item 4; write-effects "Acceptance › Real captures").

An environment is exported from a capture chosen at random among those serving a create, an
update and a delete of one type (the seed is printed; ``CAPENV_AGENT_SEED=N`` repeats a run),
and served over streamable HTTP as ``capenv serve DIR --http``. A scripted MCP client plays the
agent: it lists the tools and, from their input schemas alone, creates an entity, updates one
the environment held, and deletes another. The grader reads data/get before and after and
checks exactly those changes and nothing else; data/reset then gives the initial state back
byte for byte."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from grader import ExpectedChange, grade
from support.entity_refusals import refused_for_the_entity
from support.served import (
    CALL_TIMEOUT_SECONDS, built_capture, capenv, capture_names, capture_path, data_get_url, data_reset_url, serving_http,
)
from valid_arguments import amended, deletable, no_accepted_reference_held, path_value, write_arguments

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.runtime import EnvironmentRuntime

SEED_VARIABLE = "CAPENV_AGENT_SEED"


@dataclass(frozen=True)
class Choice:
    capture: str
    type: str
    create: WritePlan
    update: WritePlan
    delete: WritePlan

    def __str__(self) -> str:
        return (f"{self.capture}, type {self.type!r}: {self.create.tool}, {self.update.tool}, "
                f"{self.delete.tool}")


def session_seed() -> int:
    given = os.environ.get(SEED_VARIABLE)
    return int(given) if given else random.SystemRandom().randrange(2**32)


def candidates(capture: str) -> list[Choice]:
    """Every type of the capture with a served create (into a collection its path does not
    name), update and delete, each way of picking the three tools."""
    served = [p for p in built_capture(capture).view.writes if p.served and p.type]
    found = []
    for type_name in sorted({p.type for p in served}):
        of_type = [p for p in served if p.type == type_name]
        # a create taking in a reference member only ids no held entity has (wger's day), or only an entity no
        # other held one names where every one is named (aim's dashboard, an app each): refused every call
        creates = [p for p in of_type if p.effect == "create" and "{" not in p.template
                   and not (((p.validated_values and p.references) or any(d.names for d in p.distinct_members))
                            and no_accepted_reference_held(EnvironmentRuntime(built_capture(capture)), p))]
        # the session names an entity by its identity: a write naming it by a key member (a name) is left out
        by_id = [p for p in of_type if p.address is None or not p.address.member]
        updates = [p for p in by_id if p.effect == "update"]
        deletes = [p for p in by_id if p.effect == "delete"]
        found += [Choice(capture, type_name, c, u, d) for c in creates for u in updates for d in deletes]
    return found


def choose(rng: random.Random) -> Choice:
    by_capture = {name: candidates(name) for name in capture_names()}
    eligible = sorted(name for name, found in by_capture.items() if found)
    assert eligible, "no capture serves a create, an update and a delete of one type"
    capture = rng.choice(eligible)
    types = sorted({c.type for c in by_capture[capture]})
    type_name = rng.choice(types)
    return rng.choice([c for c in by_capture[capture] if c.type == type_name])


def echoed(plan: WritePlan, body: dict[str, Any]) -> dict[str, Any]:
    """The sent members the plan stores under their own name, unchanged (its echo rules)."""
    envelope = plan.body_envelope
    if envelope:
        body = body[envelope][0] if plan.body_envelope_kind == "array" else body[envelope]
    stored = {rule.field: rule.params.get("letter_case", "as-sent") for rule in plan.fields if rule.op == "echo"}
    return {name: _in_case(value, stored[name]) for name, value in body.items() if name in stored}


def _in_case(value: Any, letter_case: str) -> Any:
    """``value`` as an echo stores it: a text (or each text of a list) case-folded where the rule says so
    (``field.case-folded-echo``)."""
    if letter_case == "as-sent":
        return value
    fold = str.lower if letter_case == "lower" else str.upper
    return [fold(v) if isinstance(v, str) else v for v in value] if isinstance(value, list) \
        else fold(value) if isinstance(value, str) else value


def expected_changes(choice: Choice, create: tuple[str, Any, dict[str, Any]], update: tuple[str, Any, dict[str, Any]],
                     delete: tuple[str, Any]) -> list[ExpectedChange]:
    """The changes the grader must find: (collection, id, body sent) of the create and the update,
    (collection, id) of the delete. When the type held only the entity the session deletes, the
    update wrote the new entity: it is then one create holding what both calls wrote."""
    made = ExpectedChange("create", create[0], create[1], echoed(choice.create, create[2]))
    if update[1] == create[1]:
        made = ExpectedChange("create", create[0], create[1],
                              {**echoed(choice.create, create[2]), **echoed(choice.update, update[2])})
        return [made, ExpectedChange("delete", *delete)]
    return [made, ExpectedChange("update", update[0], update[1], echoed(choice.update, update[2]),
                                 stamped(choice.update, update[2])),
            ExpectedChange("delete", *delete)]


def stamped(plan: WritePlan, body: dict[str, Any]) -> frozenset[str]:
    """Fields the update writes by a rule of its own (a clock, a version), not from the call."""
    return frozenset(rule.field for rule in plan.fields if rule.op != "echo") - set(body)


def refused_for_this_entity(is_error: bool, answer: dict[str, Any]) -> bool:
    """Whether a write was refused for the entity it names (``ENTITY_REFUSALS``), not for the call:
    the agent then updates another entity."""
    return is_error and refused_for_the_entity(answer.get("message", ""))


RETRIES = 6
"""Calls an agent amends after a refusal that says what to send instead (one value taken at a time)."""


class Agent:
    """The scripted agent: it knows the tools by their listing and the state by data/get (``state``:
    the ids a member naming a held entity takes)."""

    def __init__(self, client: Client, rng: random.Random, templates: dict[str, str], state: bytes) -> None:
        self.client, self.rng, self.templates, self.state = client, rng, templates, state
        self.schemas: dict[str, dict[str, Any]] = {}

    async def look(self) -> list[str]:
        listing = (await self.client.list_tools()).tools
        self.schemas = {tool.name: tool.input_schema for tool in listing}
        return list(self.schemas)

    async def call(self, tool: str, collection: str, entity_id: Any, protected_too: bool = True
                   ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """Call a write tool; after a refusal naming recorded fields the entity lacks, send them too.
        None when ``protected_too`` is false and the write was refused for that entity (``ENTITY_REFUSALS``)."""
        schema = self.schemas[tool]
        arguments = write_arguments(schema, self.templates[tool], collection, entity_id, self.rng, "agent",
                                    self.state)
        result = await self.client.call_tool(tool, arguments)
        for _ in range(RETRIES):  # as an agent does, told what the call lacks or what is taken
            retry = amended(arguments, schema, result.structured_content.get("message", ""), self.rng, "agent") \
                if result.is_error else None
            if retry is None:
                break
            arguments, result = retry, await self.client.call_tool(tool, retry)
        if not protected_too and refused_for_this_entity(result.is_error, result.structured_content):
            return None
        assert result.is_error is False, (tool, arguments, result.structured_content)
        return arguments, result.structured_content


def initial_entities(document: bytes, type_name: str) -> tuple[str, list[Any]]:
    """The first collection of the type holding entities: its path and its entity ids."""
    for collection in json.loads(document)["collections"]:
        if collection["type"] == type_name and collection["entities"]:
            return collection["path"], [e["id"] for e in collection["entities"]]
    raise AssertionError(f"the state holds no {type_name} entity to update or delete")


def removable_entities(document: bytes, choice: Choice, path: str) -> list[Any]:
    """The ids of the collection at ``path`` the choice's delete may remove: serving refuses to
    delete an entity other held entities name (``WritePlan.referrers``; ``deletable``)."""
    state = json.loads(document)
    collection = next(c for c in state["collections"] if c["path"] == path)
    return [e["id"] for e in deletable(choice.delete, state, collection)]


def announce(request, note: str) -> None:
    """On the terminal even when output is captured (the seed must be seen to repeat a run)."""
    print(note)
    request.node.user_properties.append(("agent_session", note))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\n{note}")


def export_a_random_choice(tmp_path: Path, request, label: str
                           ) -> tuple[random.Random, Choice, str, Path, dict[str, str]]:
    """Choose the environment at random (the seed announced) and export it with ``capenv export``:
    the random source, the choice, the note announced, the directory and the tools' templates."""
    seed = session_seed()
    rng = random.Random(seed)
    choice = choose(rng)
    note = f"{label} seed {seed} ({SEED_VARIABLE}={seed} repeats it): {choice}"
    announce(request, note)
    directory = tmp_path / "environment"
    exported = capenv("export", str(capture_path(choice.capture)), "-o", str(directory))
    assert exported.returncode == 0, exported.stderr
    templates = {t.name: t.template for t in read_bundle(directory).manifest.tools}
    return rng, choice, note, directory, templates


async def create_update_delete(agent, choice: Choice, collection: str, updated: list[Any], deleted: Any,
                               note: str, bundle: Any) -> list[ExpectedChange]:
    """The session itself, for any agent with ``look()`` and ``call(tool, collection, path value, protected_too)``:
    it checks the three tools are listed, creates, updates (the first of ``updated`` the application lets
    be edited and the session does not delete, else the new one) and deletes; the changes the grader
    must find, nothing else. An entity is named in a path as ``bundle``'s view says (the last segment of an
    id that is its own address, as an agent reads it from the entity's own link)."""
    def named(entity_id: Any) -> Any:
        return path_value(bundle, choice.type, collection, entity_id)

    listed = await agent.look()
    for plan in (choice.create, choice.update, choice.delete):
        assert plan.tool in listed, (note, plan.tool)
    sent, created = await agent.call(choice.create.tool, collection, None)
    assert created["state"]["view"] == "create", (note, created)
    new_id = created["state"]["id"]
    targets = [held for held in updated if held != deleted] + [new_id]
    for target in targets:  # an entity the application keeps as it is (update-protected): the next
        updated_call = await agent.call(choice.update.tool, collection, named(target),
                                        protected_too=target == targets[-1])
        if updated_call is not None:
            break
    update_sent, update = updated_call
    assert update["state"]["view"] == "update", (note, update)
    _, gone = await agent.call(choice.delete.tool, collection, named(deleted))
    assert gone["state"]["view"] == "delete", (note, gone)
    return expected_changes(choice, (created["state"]["collection"], new_id, sent["body"]),
                            (update["state"]["collection"], target, update_sent["body"]),
                            (gone["state"]["collection"], deleted))


def test_an_agents_create_update_and_delete_are_graded_from_data_get(tmp_path: Path, request) -> None:
    rng, choice, note, directory, templates = export_a_random_choice(tmp_path, request, "agent session")

    with serving_http(directory) as url:
        before = data_get_url(url)
        collection, held = initial_entities(before, choice.type)
        removable = removable_entities(before, choice, collection)
        if not removable:
            pytest.skip(f"{note}: other held entities name every {choice.type} entity, so the delete refuses each")
        updated = rng.sample(held, len(held))
        deleted = rng.choice([i for i in removable if i != updated[0]] or removable)

        async def play() -> list[ExpectedChange]:
            with anyio.fail_after(3 * CALL_TIMEOUT_SECONDS):
                async with Client(url + "/mcp") as client:
                    return await create_update_delete(Agent(client, rng, templates, before), choice, collection,
                                                      updated, deleted, note, read_bundle(directory))

        expected = anyio.run(play)
        after = data_get_url(url)
        problems = grade(before, after, expected)
        assert problems == [], f"{note}: " + "; ".join(problems)

        data_reset_url(url)
        assert data_get_url(url) == before, f"{note}: data/reset did not restore the initial state byte for byte"


def test_every_candidate_session_grades_clean_in_process() -> None:
    """The same session, in-process, for every capture, type and choice of tools a run may pick
    (so no seed can find a failure the others miss)."""
    played, unplayable = 0, []
    for capture in capture_names():
        bundle = built_capture(capture)
        templates = {t.name: t.template for t in bundle.manifest.tools}
        for choice in candidates(capture):
            runtime = EnvironmentRuntime(bundle)
            schemas = {spec.name: spec.input_schema for spec in runtime.tools()}
            rng = random.Random(0)
            before = runtime.data_get()
            collection, held = initial_entities(before, choice.type)
            removable = removable_entities(before, choice, collection)
            if not removable:  # other held entities name each: the delete refuses them all
                unplayable.append(str(choice))
                continue
            deleted = removable[-1]

            def call(plan: WritePlan, entity_id: Any, protected_too: bool = True
                     ) -> tuple[dict[str, Any], dict[str, Any]] | None:
                schema = schemas[plan.tool]
                # an id that is its own address (a pulp_href) is named in the path by its last segment
                named = path_value(runtime.bundle, plan.type, collection, entity_id) if entity_id is not None else None
                arguments = write_arguments(schema, templates[plan.tool], collection, named, rng, "agent",
                                            before)
                answer = runtime.call_tool(plan.tool, arguments)
                retry = amended(arguments, schema, answer.structured.get("message", ""), rng, "agent") \
                    if answer.is_error else None
                if retry is not None:
                    arguments, answer = retry, runtime.call_tool(plan.tool, retry)
                if not protected_too and refused_for_this_entity(answer.is_error, answer.structured):
                    return None  # an entity the application keeps as it is (update-protected): another is updated
                assert answer.is_error is False, (str(choice), answer.structured)
                return arguments, answer.structured

            sent, created = call(choice.create, None)
            targets = [h for h in held if h != deleted] + [created["state"]["id"]]
            for target in targets:
                updated_call = call(choice.update, target, protected_too=target == targets[-1])
                if updated_call is not None:
                    break
            update_sent, _ = updated_call
            if call(choice.delete, deleted, protected_too=False) is None:
                # every held entity another holds a copy of (Payload's tags inside posts): the delete
                # refuses it for that entity, as it says, and the session has nothing it may delete
                unplayable.append(str(choice))
                continue
            expected = expected_changes(choice, (created["state"]["collection"], created["state"]["id"], sent["body"]),
                                        (collection, target, update_sent["body"]), (collection, deleted))
            assert grade(before, runtime.data_get(), expected) == [], str(choice)
            runtime.data_reset()
            assert runtime.data_get() == before, str(choice)
            played += 1
    assert played > len(unplayable), f"sessions played: {played}; unplayable: {unplayable}"
