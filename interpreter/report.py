"""The report of a bundle, in the shape DESIGN.md §10 fixes for ``capenv report --json``."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.header_fields import unsendable_header
from capenv.interpreter.bundle.models import ReplayTable, ViewResult
from capenv.interpreter.manifest.models import Manifest


def unsendable_headers(replay: ReplayTable) -> list[dict[str, Any]]:
    """Recorded response headers the HTTP surface drops because no HTTP/1.1 server can send them."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for tool, calls in sorted(replay.tools.items()):
        for call in calls:
            for name, value in call.response.headers:
                reason = unsendable_header(name, value)
                if reason is not None:
                    note = found.setdefault((tool, name), {"tool": tool, "header": name, "reason": reason,
                                                           "record_ordinals": []})
                    note["record_ordinals"].append(call.ordinal)
    return list(found.values())


def report_document(manifest: Manifest, view: ViewResult, records: int,
                    replay: ReplayTable | None = None) -> dict[str, Any]:
    writes = []
    for plan in view.writes:
        data = plan if isinstance(plan, dict) else plan.model_dump(mode="python")
        writes.append({"tool": data.get("tool"), "effect": data.get("effect", "none"), "type": data.get("type"),
                       "served": bool(data.get("served")), "reason": data.get("reason"),
                       "contradicted_by": data.get("contradicted_by"),
                       "checked_record_ordinals": list(data.get("checked_record_ordinals") or []),
                       **({"references": [_reference(r) for r in data["references"]]} if data.get("references")
                          else {}),
                       **({"validated_values": [_validated(r) for r in data["validated_values"]]}
                          if data.get("validated_values") else {}),
                       **({"per_value": [{"values": dict(v["dispatch_args"]), "served": bool(v["served"]),
                                          "reason": v["reason"], "contradicted_by": v["contradicted_by"]}
                                         for v in data["variants"]]} if data.get("variants") else {})})
    dropped = unsendable_headers(replay) if replay is not None else []
    return {
        "evidence_id": view.evidence_id,
        "records": records,
        "tools": [{"name": t.name, "method": t.method, "template": t.template, "path": t.spelled_template,
                   "changes_state": t.changes_state}
                  for t in manifest.tools],
        "reads": [{"tool": v.tool, "view": v.kind if v.kind != "none" else None, "state_backed": v.state_backed,
                   "reason": v.reason, **_projections(v)}
                  for v in view.views if not _is_post(manifest, v.tool)],
        "writes": writes,
        "read_only_posts": [{"tool": p.tool, "rule": p.rule} for p in view.read_only_posts],
        "state_available": view.state_available,
        "budget_hits": [h.model_dump() for h in view.budget_hits],
        **({"unsendable_headers": dropped} if dropped else {}),
    }


def _projections(view: Any) -> dict[str, Any]:
    """A read's learned projection queries (``view-projection-queries``), when it has any."""
    if not view.projections:
        return {}
    return {"projections": [{"param": p.param, "form": p.form, "separator": p.separator, "kept": list(p.kept),
                             "wildcards": list(p.wildcards), "rule": p.rule_id, "record_ordinals": list(p.record_ordinals)}
                            for p in view.projections]}


def _reference(rule: dict[str, Any]) -> dict[str, Any]:
    """A body member naming another type's entity, and whether serving refuses a value naming none."""
    return {"member": rule["member"], "type": rule["type"], "collection": rule["collection_template"],
            "checked": rule["dangling"] != "accepted", "dangling": rule["dangling"], "record": rule.get("record")}


_DANGLING = {"refused": "the application refused one", "unrecorded": "no recorded call shows one accepted",
             "accepted": "the application accepted one",
             "materialized": "the application made the entity one named (the write stays unserved)"}


def _reference_text(reference: dict[str, Any]) -> str:
    outcome = "refused" if reference["checked"] else "stored as sent"
    record = f", record {reference['record']}" if reference.get("record") is not None else ""
    return (f"{reference['member']} names a {reference['type']} entity ({reference['collection']}): a value naming "
            f"none is {outcome} ({_DANGLING[reference['dangling']]}{record})")


def _validated(rule: dict[str, Any]) -> dict[str, Any]:
    """A body member whose values the application validates: serving accepts only the recorded successful ones."""
    return {"member": rule["member"], "accepted": list(rule.get("accepted") or ()), "record": rule.get("record"),
            "status": rule.get("status"), **({"layout": rule["layout"]} if rule.get("layout") else {}),
            **({"max_length": rule["max_length"]} if rule.get("max_length") is not None else {})}


def _validated_text(validated: dict[str, Any]) -> str:
    if validated.get("max_length") is not None:
        return (f"{validated['member']} is validated (record {validated['record']} refused {validated['status']} "
                f"a longer text): only text of {validated['max_length']} characters or fewer accepted")
    if validated.get("layout"):
        return (f"{validated['member']} is validated (record {validated['record']} refused {validated['status']} "
                f"another layout): only text matching {validated['layout']} accepted")
    accepted = ", ".join(map(repr, validated["accepted"])) or "no value"
    return (f"{validated['member']} is validated (record {validated['record']} refused {validated['status']} "
            f"another value): only {accepted} accepted")


def _is_post(manifest: Manifest, tool: str) -> bool:
    try:
        return manifest.tool(tool).method != "GET"
    except KeyError:
        return False


def render_report_text(report: dict[str, Any], source: str) -> str:
    lines = [f"{source}: {report['records']} records, {len(report['tools'])} tools, evidence {report['evidence_id']}"]
    if not report.get("state_available", True):
        lines.append("  state unavailable (a budget was hit): every tool replays")
    for hit in report.get("budget_hits", []):
        lines.append(f"  budget {hit['budget']}: {hit['reached']} past {hit['limit']} ({hit['effect']})")
    for note in report.get("unsendable_headers", []):
        lines.append(f"  note: {note['tool']}'s recorded header {note['header']!r} is dropped when served over HTTP: "
                     f"{note['reason']} (records {', '.join(map(str, note['record_ordinals']))})")
    lines.append("")
    lines.append("reads:")
    width = max([len(r["tool"]) for r in report["reads"]] + [4])
    for read in report["reads"]:
        status = "state" if read["state_backed"] else "replay"
        detail = f"  ({read['reason']})" if read["reason"] else ""
        for p in read.get("projections", []):
            kept = f", keeps {', '.join(p['kept'])}" if p["kept"] else ""
            detail += (f"  [projection {p['param']}{'[i]' if p['form'] == 'indexed' else ''}=…{kept}; "
                       f"{p['rule']}, records {', '.join(map(str, p['record_ordinals']))}]")
        lines.append(f"  {read['tool'].ljust(width)}  {str(read['view'] or '-').ljust(8)}  {status}{detail}")
    if report["read_only_posts"]:
        lines.append("")
        lines.append("read-only POSTs (replayed):")
        for post in report["read_only_posts"]:
            lines.append(f"  {post['tool']}  by {post['rule']}")
    lines.append("")
    lines.append("writes:")
    if not report["writes"]:
        lines.append("  (no write plans)")
    width = max([len(w["tool"]) for w in report["writes"]] + [4])
    for write in report["writes"]:
        status = "served" if write["served"] else f"not served: {write['reason']}"
        lines.append(f"  {write['tool'].ljust(width)}  {str(write['effect']).ljust(8)}  {write['type'] or '-'}  {status}")
        for reference in write.get("references", ()):
            lines.append(f"  {''.ljust(width)}  reference {_reference_text(reference)}")
        for validated in write.get("validated_values", ()):
            lines.append(f"  {''.ljust(width)}  {_validated_text(validated)}")
    return "\n".join(lines)
