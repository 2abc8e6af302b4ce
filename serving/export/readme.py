"""The ``README.md`` of an exported environment (``directory.py``): what it is, its tools as the
catalog lists them (served write tools counted), the writes it does not serve and why, and how
to serve, grade and reset it."""

from __future__ import annotations

from pathlib import Path

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.path_actions import glued
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.manifest.models import Tool
from capenv.serving.catalog.tools import CatalogEntry

EXAMPLE_HTTP = "127.0.0.1:8765"
EXAMPLE_DATA = "127.0.0.1:8766"
"""The grader's own listener in the examples: the agent's (EXAMPLE_HTTP) never serves the data plane."""

REASONS = {
    "body-unusable": "the recorded request body cannot enter the state (not a JSON object, inexact numbers, "
                     "__proto__, or a response serving cannot answer with)",
    "no-observation": "no recorded response or later read shows the entity the call wrote",
    "unexplained-change": "a field changed in a way no rule explains, so serving could not reproduce it",
    "contradicted": "a later recorded read shows something other than the modelled effect",
    "side-effect": "a read of something the write did not change differed after it (an unmodelled side effect)",
    "unconfirmed": "no later recorded read confirms the modelled effect",
    "incomplete-entities": "its answer shows fields no initial entity holds, so it could answer only for "
                           "entities the environment created",
    "no-effect": "the capture shows no entity or document it writes",
    "get-or-create": "a recorded call answered an entity the state already held (a get-or-create or an upsert "
                     "by a key): served as a plain create, the same call would make a duplicate",
    "conditional-delete": "the application refused a recorded delete while the entity was held (a condition such "
                          "as other entities referencing it), which serving would not check",
    "conditional-create": "the application refused a recorded create whose body another call created with "
                          "elsewhere (a value already taken in that collection), which serving would not check",
    "conditional-update": "the application refused a create of the type for values of several of the update's "
                          "members together (overlapping or reversed ranges), a check serving would not make",
    "precondition-query": "a recorded call sent in its query a value the entity held (its revision), which the "
                          "application checks and serving could not",
    "held-beneath": "the state holds documents or lists below the deleted entity's path, which the application "
                    "may delete with it while serving would remove the entity alone",
    "constant-holds-generated": "a create answers an object whose text holds the new id (a self link), which no "
                                "rule rebuilds, so every create would answer the recorded entity's",
    "ids-per-collection": "a create numbers ids per parent's collection, while the item path names an entity by "
                          "its id alone across them, so a create under another parent would repeat an id",
    "transformed-input": "the application stores a member otherwise than sent (an id stored as a stub), an input "
                         "transformation the environment does not model",
    "state unavailable": "the state is unavailable, so every tool replays",
}


def unserved_writes(bundle: Bundle, served: set[str]) -> list[WritePlan]:
    return [plan for plan in bundle.view.writes if plan.tool not in served]


def readme_text(bundle: Bundle, entries: list[CatalogEntry], directory: Path) -> str:
    info, view = bundle.info, bundle.view
    reads = [e for e in entries if e.handler == "read"]
    writes = [e for e in entries if e.handler == "write"]
    unserved = unserved_writes(bundle, {e.name for e in writes})
    where = str(directory)
    url = f"http://{EXAMPLE_DATA}"  # what the grader's commands name
    lines = [
        f"# capenv environment: {info.source}",
        "",
        f"A stateful environment served over MCP, built by capenv from the recorded HTTP capture `{info.source}` "
        f"({info.records} records of {info.primary_origin or 'its primary origin'}). Reads answer from a state "
        "extracted from the capture (or replay it); write tools change that state the way the capture shows "
        "the application did. This directory is self-contained: serving it needs no capture.",
        "",
        f"- evidence id: `{info.evidence_id}`",
        f"- rules revision: `{info.rules_revision}`",
        f"- bundle format: `{info.format}`",
        "",
        "## Tools",
        "",
        f"{len(entries)} tools: {len(reads)} read tools ({sum(1 for e in reads if e.from_state)} answer from the "
        f"served state, the others replay the capture) and {len(writes)} write tools that change the served state.",
        "",
    ]
    if not view.state_available:
        lines += ["The state is unavailable (a budget was hit): every read replays the capture and no write tool "
                  "is served.", ""]
    lines += [f"### Read tools ({len(reads)})", ""] + [f"- {_read_line(e)}" for e in reads] + [""]
    lines += [f"### Write tools ({len(writes)})", ""]
    lines += [f"- {_write_line(e)}" for e in writes] if writes else ["None."]
    lines += ["", f"### Writes not served ({len(unserved)})", ""]
    if unserved:
        lines += ["These write tools of the capture are not listed and nothing answers them; each with its "
                  "reason:", ""]
        tools = {t.name: t for t in bundle.manifest.tools}
        lines += [f"- {_unserved_line(plan, tools.get(plan.tool), view.state_available)}" for plan in unserved]
    else:
        lines.append("None: every write tool of the capture is served.")
    lines += ["", "## Serve it", "", "```sh",
              f"capenv serve {where} --stdio                # MCP over stdin/stdout",
              f"capenv serve {where} --http {EXAMPLE_HTTP} --data {EXAMPLE_DATA}  # agent: MCP at "
              f"http://{EXAMPLE_HTTP}/mcp; grader: {url}/_capenv/data/…",
              "```", "",
              "The agent under test gets only the `--http` address; the grader's data plane answers on `--data`, "
              "which the agent must not be able to reach (or, without `--data`, on the agent's port only with the "
              "bearer token `capenv serve` prints: `capenv data … --token TOKEN`).", "",
              "With `--http` the application's own paths answer at the root as well (the application's own clients "
              "and `curl` work against the model). `--store sqlite:state.db` keeps the state in a file shared by "
              "several processes; `--replay-only` answers every read by replay and serves no write tool.", "",
              "In the AgentEnv framework (its card at `/.well-known/agent-env.json`, the data plane as JSON-RPC "
              "at `/agentenv`, MCP at `/mcp`):", "", "```sh",
              f"python -m capenv.serving.transport.agentenv {where} --http {EXAMPLE_HTTP} --data {EXAMPLE_DATA}",
              "```", ""]
    lines += ["As a container: the `Dockerfile` here builds on capenv's own image (`docker build -t capenv:VERSION .` "
              "in a capenv checkout) and serves this directory with the agent on port 8000 and the grader's data "
              "plane on its own listener, port 8001 (its comments say how to run it). Set `CAPENV_DATA_TOKEN` in the "
              "container's environment (`docker run -e CAPENV_DATA_TOKEN …`): port 8001 then answers only that "
              "bearer token; without it any container on the same network reaches the data plane.", ""]
    lines += _grading_lines(bundle, url)
    lines += ["## Reset", "", "```sh",
              f"capenv data reset --url {url}           # back to the initial state, byte for byte",
              f"capenv data add state.json --url {url}  # install a state document data/get wrote",
              "```", "",
              "A reset (or add) also restarts the served clock, the write counter and the sequences, so the same "
              "calls after a reset give the same state. Without a server: "
              f"`capenv data get|reset|add --bundle {where} --store sqlite:state.db`.", ""]
    return "\n".join(lines)


def _read_line(entry: CatalogEntry) -> str:
    head = f"`{entry.name}` ({entry.tool.method} {entry.tool.spelled_template}): "
    view = entry.view
    if not entry.from_state or view is None:
        return head + f"replays the capture; {entry.reason or 'no state view'}"
    what = {"item": f'reads one "{view.type}" entity', "list": f'lists "{view.type}" entities',
            "document": "reads a document"}.get(view.kind, "reads")
    return head + f"{what} from the served state"


def _write_line(entry: CatalogEntry) -> str:
    plan = entry.plan
    if plan is None:  # a catalog invariant: every write entry carries its plan
        raise ValueError(f"{entry.name}: a write tool without a plan")
    what = {"create": f'creates a "{plan.type}" entity', "update": f'updates a "{plan.type}" entity',
            "delete": f'deletes a "{plan.type}" entity', "document": f"writes the document at {plan.document_path}",
            "action": f'applies "{plan.address.segment if plan.address else ""}" to a "{plan.type}" entity',
            "bulk": f'writes several "{plan.type}" entities'}.get(plan.effect, "writes")
    members = [m for m in plan.members if m.admission != "not-accepted"]
    required = [m.member for m in members if m.required]
    optional = [m.member for m in members if not m.required]
    body = []
    if required:
        body.append("requires " + ", ".join(f'"{m}"' for m in required))
    if optional:
        body.append("accepts " + ", ".join(f'"{m}"' for m in optional))
    return f"`{entry.name}` ({entry.tool.method} {entry.tool.spelled_template}): {what}" + (
        f"; body {'; '.join(body)}" if body else "")


def _unserved_line(plan: WritePlan, tool: Tool | None, state_available: bool) -> str:
    # A plan the gate served is left out only when the state is unavailable (no write is served then).
    reason = plan.reason or plan.build_reason or ("not served" if state_available else "state unavailable")
    why = REASONS.get(reason, "")
    by = f" (first contradicted by record {plan.contradicted_by})" if plan.contradicted_by is not None else ""
    effect = "no modelled effect" if plan.effect == "none" else plan.effect
    what = f"{effect} of \"{plan.type}\"" if plan.type else effect
    path = tool.spelled_template if tool is not None else glued(plan.template)
    return f"`{plan.tool}` ({plan.method} {path}, {what}): {reason}{by}" + (f" — {why}" if why else "")


def _grading_lines(bundle: Bundle, url: str) -> list[str]:
    types = bundle.view.types
    lines = ["## Grade from data/get", "", "```sh",
             f"capenv data get --url {url} before.json",
             "# … the agent works through the MCP tools …",
             f"capenv data get --url {url} after.json",
             "```", "",
             "data/get writes the whole state as one JSON object (members in this order):", "", "```json",
             '{"evidence_id": "…",',
             ' "types": [{"name", "collection_template", "item_template", "id_field"}, …],',
             ' "collections": [{"path", "type", "args", "entities": [{"id", "value", "records"}, …]}, …],',
             ' "documents": [{"path", "value", "records"}, …]}',
             "```", "",
             "An entity's `value` is the entity as reads render it; `records` cites the capture records that showed "
             "it, and is empty for an entity a write created or changed. A grader compares the documents before and "
             "after: entities by collection `path` and `id`, documents by `path`. The same document loads back "
             "through `data/add` unchanged.", ""]
    if types:
        lines += ["Types of this environment:", ""]
        lines += [f'- "{t.name}": collections at `{t.collection_template}`, identity field `{t.id_field}`'
                  for t in types]
        lines.append("")
    return lines
