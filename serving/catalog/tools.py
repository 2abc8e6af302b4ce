"""The catalog: one MCP tool per manifest read tool, with its input schema and a description
that fits the discovery budget (DESIGN.md §5 budgets, §7; write-effects "Catalog").

Read tools are the GET (HEAD, OPTIONS) tools and the POST tools the view lists as read-only.
Each entry names the handler that answers it (``"read"`` here) and carries its ``inputs``
(``schema()``, ``parse(arguments)``, ``from_http(request, path_args)``). A served write plan
becomes one more entry with its own handler and inputs, its draft goes through the same
``fit_budget``, and the runtime dispatches on ``handler``.

Every description goes through ``budget.fit_budget``; ``Catalog.report`` lists every
description it sampled down or cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import ReadView, Recording, WritePlan
from capenv.interpreter.manifest.models import Tool
from capenv.serving.reads.replay import Replayer
from capenv.serving.runtime_api import ToolSpec

from .budget import fit_budget
from .descriptions import Draft, fields_sample, path_sample, query_sample
from .read_inputs import ToolInputs
from .tool_meta import output_schema, tool_annotations, tool_title

READ_METHODS = ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True)
class CatalogEntry:
    tool: Tool
    handler: str
    inputs: ToolInputs
    view: ReadView | None
    from_state: bool
    reason: str | None
    """Why the tool replays (None when it answers from the state)."""
    description: str = ""
    plan: WritePlan | None = None
    """For a served write tool: the plan its handler executes."""

    @property
    def name(self) -> str:
        return self.tool.name

    def spec(self) -> ToolSpec:
        title = tool_title(self.tool.method, self.tool.spelled_template, self.view, self.plan)
        return ToolSpec(self.tool.name, self.description, self.inputs.schema(), title=title,
                        annotations=tool_annotations(self.tool.method, self.plan, title),
                        output_schema=output_schema(self.view))


class Catalog:
    def __init__(self, entries: list[CatalogEntry], report: dict[str, Any], paths_named: int) -> None:
        """``paths_named``: the served paths an answer for a path no tool answers names at most."""
        self.entries = {entry.name: entry for entry in entries}
        self.report = report
        self.paths_named = paths_named

    def get(self, name: str) -> CatalogEntry | None:
        return self.entries.get(name)

    def specs(self) -> list[ToolSpec]:
        return [entry.spec() for entry in self.entries.values()]


def build_catalog(bundle: Bundle, replayer: Replayer, *, replay_only: bool) -> Catalog:
    view_result = bundle.view
    read_only = {p.tool: p.rule for p in view_result.read_only_posts}
    unavailable = unavailable_reason(bundle)
    entries, drafts = [], []
    for tool in bundle.manifest.tools:
        if tool.method not in READ_METHODS and tool.name not in read_only:
            continue
        view = view_result.view(tool.name)
        projected = projection_names(view) if view else ()
        learned = ({s.param for s in view.learned_queries} | set(projected)) if view else set()
        inputs = ToolInputs.of(tool, replayer.calls(tool.name), learned, tool.method not in READ_METHODS,
                               view_result.budgets, accepted=projected, credentials=bundle.replay.credential_headers.get(tool.name, ()),
                               pinned=tuple(bundle.replay.pinned_headers.get(tool.name, {}).items()),
                               static_credentials=tuple(bundle.replay.static_credentials.items()),
                               guarded=tuple(bundle.replay.guarded_headers.get(tool.name, {}).items()))
        from_state, reason = _source(view, replay_only, unavailable, read_only.get(tool.name))
        entry = CatalogEntry(tool, "read", inputs, view, from_state, reason)
        entries.append(entry)
        drafts.append(_draft(entry, bundle, replayer))
    if not replay_only and not unavailable:
        for entry, draft in write_entries(bundle, replayer):
            entries.append(entry)
            drafts.append(draft)
    texts, hits = fit_budget(drafts, view_result.budgets.tool_description_characters,
                             view_result.budgets.discovery_characters)
    entries = [_with_description(entry, text) for entry, text in zip(entries, texts)]
    report = {
        "tools": len(entries),
        "from_state": sum(1 for e in entries if e.from_state),
        "characters": sum(len(t) for t in texts),
        "budgets": {"discovery_characters": view_result.budgets.discovery_characters,
                    "tool_description_characters": view_result.budgets.tool_description_characters},
        "hits": hits,
        "state_available": view_result.state_available and not unavailable,
        "reads": [{"tool": e.name, "source": "state" if e.from_state else "replay", "reason": e.reason}
                  for e in entries if e.handler == "read"],
        "writes": [e.name for e in entries if e.handler == "write"],
    }
    return Catalog(entries, report, view_result.budgets.paths_named)


def _with_description(entry: CatalogEntry, text: str) -> CatalogEntry:
    return CatalogEntry(entry.tool, entry.handler, entry.inputs, entry.view, entry.from_state, entry.reason, text,
                        entry.plan)


NOT_MODELLED = {
    "delete": "Not modelled: a delete removes this entity alone (dependents the application deletes with it, "
              "or its refusal to delete a referenced entity, are not reproduced).",
    "update": "Not modelled: an update does not reorder lists.",
    "*": "Not modelled: side effects on counters, relations and copies of entities elsewhere; authorization.",
}


MOVED = {
    "moved-last": "An update lists the entity it changes last in its collection's lists, as the capture showed "
                  "the application doing.",
    "moved-first": "An update lists the entity it changes first in its collection's lists (the most recently "
                   "written first), as the capture showed the application doing.",
}
"""The label of an update whose plan reorders lists (``list_place``), in place of "does not reorder"."""


def _notes(plan: WritePlan) -> list[str]:
    label = _labelled_as(plan)
    if label == "update" and plan.list_place in MOVED:
        return [MOVED[plan.list_place], NOT_MODELLED["*"]]
    return [NOT_MODELLED[k] for k in (label, "*") if k in NOT_MODELLED]


def _labelled_as(plan: WritePlan) -> str:
    """An item action is an update of the entity its path names, and a bulk write updates or deletes
    each entity it names, so each carries that effect's label."""
    if plan.effect == "action":
        return "update"
    if plan.effect == "bulk":
        return plan.bulk_effect or "update"
    return plan.effect


def write_entries(bundle: Bundle, replayer: Replayer) -> list[tuple[CatalogEntry, Draft]]:
    """One entry per served write plan (state mode only), with its description draft."""
    from .write_inputs import WriteInputs, describe_write

    found = []
    tools = {t.name: t for t in bundle.manifest.tools}
    for plan in bundle.view.writes:
        if not plan.served or plan.tool not in tools:
            continue
        tool = tools[plan.tool]
        samples: dict[str, list[str]] = {p: [] for p in tool.params}
        for call in replayer.calls(tool.name):
            for name, value in (tool.match(call.path) or {}).items():
                if value not in samples[name]:
                    samples[name].append(value)
        inputs = WriteInputs(tool, plan, {k: tuple(v) for k, v in samples.items()}, bundle.view.budgets,
                             tuple(bundle.replay.pinned_headers.get(tool.name, {}).items()),
                             tuple(bundle.replay.static_credentials.items()),
                             tuple(bundle.replay.guarded_headers.get(tool.name, {}).items()))
        notes = _notes(plan)
        entry = CatalogEntry(tool, "write", inputs, None, True, None, plan=plan)
        found.append((entry, Draft(tool.name, tuple(describe_write(plan, inputs, notes, bundle.view.budgets)))))
    return found


def unavailable_reason(bundle: Bundle) -> str | None:
    if bundle.view.state_available:
        return None
    hits = [f"{h.budget} {h.reached:g} > {h.limit:g}" for h in bundle.view.budget_hits]
    return "the state is unavailable" + (f" ({'; '.join(hits)})" if hits else "")


def _source(view: ReadView | None, replay_only: bool, unavailable: str | None,
            read_only_rule: str | None) -> tuple[bool, str | None]:
    if replay_only:
        return False, "--replay-only"
    if unavailable:
        return False, unavailable
    if read_only_rule is not None:
        return False, f"a POST that only reads (rule {read_only_rule})"
    if view is None or view.kind == "none":
        return False, view.reason if view and view.reason else "no state view"
    backed = view.state_backed or any(l.state_backed for l in view.lines) or any(
        d.state_backed for d in view.documents)
    return (True, None) if backed else (False, view.reason or "not proven against the state")


# --- descriptions -------------------------------------------------------------------------


def _draft(entry: CatalogEntry, bundle: Bundle, replayer: Replayer) -> Draft:
    tool, view = entry.tool, entry.view
    kind = view.kind if view is not None else "none"
    where = f"{tool.method} {tool.spelled_template}"
    either = next((t.either_key for t in bundle.view.types if view is not None and t.name == view.type
                   and t.either_key is not None and view.key_field == t.id_field), None)
    key = f'"{view.key_field}" or its "{either.member}"' if either is not None and view is not None \
        else f'"{view.key_field}"' if view is not None else ""
    what = {"item": f'Reads one "{view.type}" entity by its {key}' if view else "",
            "list": f'Lists "{view.type}" entities' if view else "",
            "document": "Reads a document"}.get(kind, "Reads")
    parts: list[Any] = []
    live = bundle.replay.live_reports.get(tool.name)
    if live is not None:
        parts.append(f"Every call is refused: {live}, so a recorded answer would give an old one.")
    if entry.from_state:
        parts.append(f"{what} from the served state ({where}).")
        parts += _state_notes(view, replayer.calls(tool.name))
        if kind in ("list", "document") and tool.params:
            held = "collections the capture listed" if kind == "list" else "documents the capture read"
            parts.append(f"Only {held} are answered (the recorded path values below); another is refused.")
        if any(not q.learned for q in entry.inputs.query):
            parts.append(UNEVALUATED_QUERY_NOTE)
    else:
        parts.append(f"{what} by replaying the capture ({where}; {entry.reason}): the recording with the same "
                     "arguments, else one with the same path values whose query differs only where the capture "
                     "shows it changes nothing (replay.exact_match false); nothing else is answered, and a "
                     "recording the served state has left behind is refused.")
    if any(call.response.binary for call in replayer.calls(tool.name)):
        parts.append(BINARY_NOTE)
    budgets = bundle.view.budgets
    shown, longest = budgets.described_values, budgets.quoted_value_characters
    parts.append(path_sample([(name, entry.inputs.path_samples[param]) for param, name in entry.inputs.properties],
                             shown, longest))
    parts.append(query_sample([(q.name, [v for v in q.shown_values if v], _query_note(q))
                               for q in entry.inputs.query], shown, longest))
    if entry.inputs.body is not None:
        kinds = "/".join(entry.inputs.body.kinds) or "JSON"
        parts.append(f'"body": the JSON request body ({kinds}{", required" if entry.inputs.body.required else ""}).')
    fields, shape = _response_fields(view, replayer.calls(tool.name))
    parts.append(fields_sample(fields, shape, longest))
    return Draft(tool.name, tuple(p for p in parts if p))


BINARY_NOTE = ("A recording of bytes that are no text (a binary download) is refused: this environment does not keep "
               "them, so it cannot answer what the application sent.")
"""What replay does with a binary recording (``reads/answers.from_recording``): the refusal its schema cannot
say, named in its description."""

UNEVALUATED_QUERY_NOTE = ("A query not evaluated over the state replays its recording while the state holds what "
                          "it showed; one no recording sent, or one the state has left behind, is refused.")
"""What a state-backed read does with a query no learned query evaluates (``reads/replay``,
``reads/unrecorded``): the refusal its schema cannot say, named in its description."""


def _state_notes(view: ReadView | None, calls: Any = ()) -> list[str]:
    notes = []
    if view is not None and view.kind == "item":
        if view.absence is not None:
            status = view.absence.recording.status
            notes.append(f"An entity the state does not hold answers the recorded {status}, "
                         'as the application answers ids it does not hold (state.view "missing").')
            if any(not text.proven for text in view.absence.path_texts):
                notes.append(f"The recorded {status} names the id it was sent for, and no other absence shows how it "
                             "reads for another: an id other than the recorded one is refused.")
            notes.append("An id of a shape none of the ids the recorded absences answered has, where the capture "
                         "shows the application refusing some shapes before looking them up, is refused.")
            if any(400 <= c.response.status < 500 and c.response.status != status for c in calls):
                notes.append(f"An id shaped or framed otherwise than those answered {status}, where the capture "
                             "shows the application answering such ids otherwise, is refused; where it answered an "
                             "id shaped and framed alike otherwise, so is every id no recording names.")
        elif view.missing is not None:
            notes.append(f"An entity the state does not hold answers the recorded {view.missing.status} "
                         '(state.view "missing").')
        else:
            notes.append("An entity the state does not hold is a tool error.")
        if view.malformed_id_records:
            notes.append("An id shaped unlike every held id and every id a recorded absence answered is refused: "
                         "the application refused ids of some shapes before looking them up (view-malformed-ids).")
    if view is not None and view.kind == "list":
        notes.append("With no query it lists the whole collection.")
        if view.learned_queries:
            names = ", ".join(f'"{s.param}"' for s in view.learned_queries)
            notes.append(f"Queries on {names} are evaluated over the state; a value the state cannot evaluate "
                         "(a sort key naming no field, a page without its size) is refused, naming what is accepted.")
        if any(not line.state_backed for line in view.lines):
            notes.append("Other recorded queries replay their recording.")
        if view.empty_answer is None:
            notes.append("A listing of nothing (the collection emptied, a query selecting nothing) is refused: the "
                         "capture never showed how the application answers an empty one.")
    if view is not None and view.kind in ("item", "list"):
        notes += [projection_note(p) for p in view.projections]
    return notes


def projection_names(view: ReadView) -> tuple[str, ...]:
    """The query names a view's learned projections are sent as (an indexed one, one per member it may name)."""
    names: list[str] = []
    for projection in view.projections:
        if projection.form == "indexed":
            names += [f"{projection.root}[{i}]" for i in range(max(len(view.shown_fields), 1))]
        else:
            names.append(projection.param)
    return tuple(dict.fromkeys(names))


def projection_note(projection: Any) -> str:
    kept = f", with {', '.join(repr(k) for k in projection.kept)} always" if projection.kept else ""
    how = (f'"{projection.root}[0]", "{projection.root}[1]"… one member each' if projection.form == "indexed" else
           f'"{projection.param}"' + (f" (members joined by {projection.separator!r})" if projection.separator else
                                      " (one member per value)"))
    return (f"{how} answers each entity with only the members named{kept}; a path into a member or a member no read"
            " shows is refused.")


def _query_note(param: Any) -> str:
    notes = []
    if param.default is not None:
        notes.append(f'defaults to "{param.shown_values[0]}"' if param.shown_values[0] else "defaults to empty")
    elif "" in param.shown_values:
        notes.append("may be empty")
    return ", ".join(notes)


def _response_fields(view: ReadView | None, calls: tuple) -> tuple[list[str], str]:
    member = ".".join((*view.locator.within, view.locator.member or "")) \
        if view is not None and view.locator is not None and view.locator.member else None
    under = f' under "{member}"' if member else ""
    if view is not None and view.kind in ("item", "list") and view.shown_fields:
        shape = "an array of objects" if view.kind == "list" else "an object"
        return list(view.shown_fields), f"{shape}{under}"
    recording = _latest_success(calls)
    if recording is None:
        return [], "as recorded"
    if not recording.is_json:
        return [], f"non-JSON ({recording.content_type or 'no content type'})"
    body = recording.body
    if isinstance(body, dict):
        return list(body), "an object"
    if isinstance(body, list):
        names = list(dict.fromkeys(k for item in body if isinstance(item, dict) for k in item))
        return names, "an array of objects" if names else "an array"
    return [], "a JSON value" if body is not None else "JSON null"


def _latest_success(calls: tuple) -> Recording | None:
    ok = [c.response for c in calls if 200 <= c.response.status < 300]
    return (ok or [c.response for c in calls] or [None])[-1]
