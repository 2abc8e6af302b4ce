"""``capenv report BUNDLE --html FILE``: the report as one self-contained HTML page.

One page a maintainer can open anywhere (no script, no stylesheet or font fetched, no link
leaving the page): every tool, served or why not; each write's verdict with its evidence
records linked to the recorded calls and to the tool's explanation trace; the initial
state's types and counts; and the rules that decided, with where each is defined. The
same bundle gives the same bytes.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any, Iterable

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.trace_event import TraceEvent

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1d1d1f}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-bottom:.3em}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #ddd;padding:.25em .5em;
text-align:left;vertical-align:top}th{background:#f3f3f3}code{font-size:.95em}
.served,.state,.match{color:#116329}.not-served,.miss{color:#a40e26}.replay,.default{color:#7d4e00}
.summary span{display:inline-block;margin-right:1.5em}details{margin:.3em 0}
"""


def render_report_html(bundle: Bundle, source: str) -> str:
    report = bundle.report
    plans = {p.tool: p for p in bundle.view.writes}
    recorded = {call.ordinal: (tool, call) for tool, calls in bundle.replay.tools.items() for call in calls}
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<title>capenv report: {escape(source)}</title><style>{STYLE}</style></head><body>",
             f"<h1>capenv report: <code>{escape(source)}</code></h1>", _summary(bundle)]
    parts += _tools_section(report, plans)
    parts += _state_section(bundle)
    parts += _writes_section(bundle.view.writes, recorded)
    parts += _rules_section(bundle)
    parts += _records_section(recorded)
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _summary(bundle: Bundle) -> str:
    report = bundle.report
    served = sum(1 for w in report["writes"] if w["served"])
    backed = sum(1 for r in report["reads"] if r["state_backed"])
    items = [("records", report["records"]), ("tools", len(report["tools"])),
             ("reads from the state", f"{backed}/{len(report['reads'])}"),
             ("write tools served", f"{served}/{len(report['writes'])}"),
             ("evidence", bundle.info.evidence_id), ("rules", bundle.info.rules_revision)]
    spans = "".join(f"<span><b>{escape(str(value))}</b> {escape(label)}</span>" for label, value in items)
    note = "" if report.get("state_available", True) else "<p class=\"not-served\">The state is unavailable " \
                                                          "(a budget was hit): every tool replays.</p>"
    return f"<p class=\"summary\">{spans}</p>{note}"


def _tools_section(report: dict[str, Any], plans: dict[str, WritePlan]) -> list[str]:
    reads = {r["tool"]: r for r in report["reads"]}
    posts = {p["tool"]: p["rule"] for p in report["read_only_posts"]}
    rows = []
    for tool in report["tools"]:
        name = tool["name"]
        if name in plans:
            plan = plans[name]
            outcome = ("served", "served") if plan.served else ("not-served", f"not served: {plan.reason}")
            kind = plan.effect
            link = f"<a href=\"#write-{_anchor(name)}\">{escape(name)}</a>"
        elif name in posts:
            outcome, kind, link = ("replay", f"replayed (a POST that only reads, rule {posts[name]})"), "read", \
                escape(name)
        else:
            read = reads.get(name, {})
            backed = read.get("state_backed")
            outcome = ("state", "from the state") if backed else ("replay", f"replayed: {read.get('reason') or '-'}")
            kind, link = read.get("view") or "read", escape(name)
        rows.append([link, escape(tool["method"]), f"<code>{escape(tool.get('path', tool['template']))}</code>", escape(kind),
                     f"<span class=\"{outcome[0]}\">{escape(outcome[1])}</span>"])
    return ["<h2 id=\"tools\">Tools</h2>", _table(["tool", "method", "path", "kind", "served"], rows)]


def _state_section(bundle: Bundle) -> list[str]:
    state = bundle.view.state
    entities: Counter[str] = Counter()
    collections: Counter[str] = Counter()
    for collection in state.collections:
        entities[collection.type] += len(collection.entities)
        collections[collection.type] += 1
    rows = [[escape(t.name), f"<code>{escape(t.collection_template)}</code>", escape(t.id_field),
             str(collections[t.name]), str(entities[t.name])] for t in bundle.view.types]
    parts = ["<h2 id=\"state\">Initial state</h2>",
             _table(["type", "collection", "id field", "collections", "entities"], rows)]
    if state.documents:
        parts.append(f"<p>{len(state.documents)} document(s): "
                     + ", ".join(f"<code>{escape(d.path)}</code>" for d in state.documents) + "</p>")
    return parts


def _writes_section(plans: Iterable[WritePlan], recorded: dict[int, tuple[str, Any]]) -> list[str]:
    parts = ["<h2 id=\"writes\">Write tools</h2>"]
    for plan in plans:
        anchor = _anchor(plan.tool)
        verdict = "served" if plan.served else f"not served: {plan.reason}"
        parts.append(f"<h3 id=\"write-{anchor}\"><code>{escape(plan.tool)}</code> "
                     f"<span class=\"{'served' if plan.served else 'not-served'}\">{escape(verdict)}</span></h3>")
        facts = [f"effect <b>{escape(plan.effect)}</b>", f"type <b>{escape(plan.type or '-')}</b>"]
        if plan.exemplar is not None:
            facts.append(f"exemplar {_record_link(plan.exemplar, recorded)}")
        if plan.checked_record_ordinals:
            facts.append("checked by " + ", ".join(_record_link(o, recorded) for o in plan.checked_record_ordinals))
        if plan.contradicted_by:
            facts.append(f"contradicted by {escape(str(plan.contradicted_by))}")
        parts.append("<p>" + "; ".join(facts) + f"; <a href=\"#trace-{anchor}\">trace</a></p>")
        for reference in plan.references:
            outcome = "refused" if reference.checked else "stored as sent"
            parts.append(f"<p>reference <code>{escape(reference.member)}</code>: an id of "
                         f"<b>{escape(reference.type)}</b> (<code>{escape(reference.collection_template)}</code>); a "
                         f"value naming none is {outcome} ({escape(reference.dangling)}"
                         + (f", {_record_link(reference.record, recorded)}" if reference.record is not None else "")
                         + ")</p>")
        parts.append(f"<details id=\"trace-{anchor}\"><summary>explanation trace ({len(plan.traces)} decisions)"
                     f"</summary>{_trace_table(plan.traces)}</details>")
    if len(parts) == 1:
        parts.append("<p>No write plans.</p>")
    return parts


def _rules_section(bundle: Bundle) -> list[str]:
    events = [*bundle.manifest.traces, *bundle.view.traces, *(e for p in bundle.view.writes for e in p.traces)]
    decided: Counter[tuple[str, str, str]] = Counter(
        (e.rule_id, e.table, e.location) for e in events if e.outcome == "match" and e.rule_id)
    rows = [[f"<code>{escape(rule)}</code>", escape(table), f"<code>{escape(location)}</code>", str(count)]
            for (rule, table, location), count in sorted(decided.items())]
    return ["<h2 id=\"rules\">Rules that decided</h2>", _table(["rule", "table", "defined at", "decisions"], rows)]


def _records_section(recorded: dict[int, tuple[str, Any]]) -> list[str]:
    rows = []
    for ordinal in sorted(recorded):
        tool, call = recorded[ordinal]
        query = "&".join(f"{n}={v}" for n, v in call.query)
        rows.append([f"<span id=\"record-{ordinal}\">{ordinal}</span>", escape(call.method),
                     f"<code>{escape(call.path + ('?' + query if query else ''))}</code>",
                     str(call.response.status), escape(tool)])
    return ["<h2 id=\"records\">Recorded calls</h2>", _table(["record", "method", "path", "status", "tool"], rows)]


def _trace_table(events: Iterable[TraceEvent]) -> str:
    rows = [[escape(e.subject), f"<span class=\"{e.outcome}\">{escape(e.outcome)}</span>",
             f"<code>{escape(e.rule_id or '(default)')}</code>", f"<code>{escape(e.location)}</code>",
             escape(e.reason or "")] for e in events]
    return _table(["subject", "outcome", "rule", "defined at", "reason"], rows)


def _record_link(ordinal: int, recorded: dict[int, tuple[str, Any]]) -> str:
    return f"<a href=\"#record-{ordinal}\">#{ordinal}</a>" if ordinal in recorded else f"#{ordinal}"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _anchor(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
