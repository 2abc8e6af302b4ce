"""The comparison as a text table or as JSON (``capenv compare [--json]``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import dumps

from .judge import DIFFERENT, REFUSED, SAME, capenv_refusal
from .jsondiff import ABSENT, Difference
from .explore import Skipped
from .call_records import CallResult

MAX_DIFFERENCES_JSON = 20
MAX_DIFFERENCES_TEXT = 4
VALUE_WIDTH = 60
CALL_WIDTH = 58


def summary(results: list[CallResult]) -> dict[str, Any]:
    counts = Counter(r.verdict for r in results)
    return {"calls": len(results), SAME: counts[SAME], DIFFERENT: counts[DIFFERENT], REFUSED: counts[REFUSED],
            "expectations_unmet": [r.index for r in results if r.expectation_met is False]}


def summary_line(results: list[CallResult]) -> str:
    s = summary(results)
    return f"{s['calls']} calls, {s[SAME]} same, {s[DIFFERENT]} different, {s[REFUSED]} refused"


def report_document(results: list[CallResult], live: str, model: str,
                    skipped: list[Skipped] | None = None) -> dict[str, Any]:
    """``skipped`` (``--explore``): the derived reads not sent, each with why; a key of its own, the
    ``summary`` counting them as ``skipped``."""
    document = {"live": live, "model": model, "calls": [call_document(r) for r in results], "summary": summary(results)}
    if skipped is not None:
        document["skipped"] = [{"name": s.probe.name, "method": s.probe.method, "path": s.probe.path,
                                "reason": s.reason} for s in skipped]
        document["summary"]["skipped"] = len(skipped)
    return document


def call_document(result: CallResult) -> dict[str, Any]:
    live, model = result.requests["live"], result.requests["model"]
    document: dict[str, Any] = {
        "index": result.index, "name": result.probe.name, "method": result.probe.method, "path": live.target,
    }
    if model.target != live.target:
        document["model_path"] = model.target
    document.update({
        "tool": result.tool.name, "served": result.tool.served, "verdict": result.verdict,
        "status": {"live": result.answers["live"].status, "model": result.answers["model"].status},
        "differences": [difference_document(d) for d in result.differences[:MAX_DIFFERENCES_JSON]],
    })
    if len(result.differences) > MAX_DIFFERENCES_JSON:
        document["more_differences"] = len(result.differences) - MAX_DIFFERENCES_JSON
    optional = {"note": result.judgement.note, "diverged_by": result.diverged_by, "borrowed": result.borrowed,
                "unresolved": result.unresolved, "unsaved": result.unsaved, "expect": result.probe.expect}
    document.update({key: value for key, value in optional.items() if value})
    if result.suspect:  # what no diverging write reached (``divergence``)
        document["unexplained"] = [difference_document(d) for d in result.unexplained[:MAX_DIFFERENCES_JSON]]
    if result.probe.expect is not None:
        document["expectation_met"] = result.expectation_met
    return document


def difference_document(difference: Difference) -> dict[str, Any]:
    """``{"pointer", "live", "model"}``; a side without the member has no key."""
    document: dict[str, Any] = {"pointer": difference.pointer}
    if difference.live is not ABSENT:
        document["live"] = difference.live
    if difference.model is not ABSENT:
        document["model"] = difference.model
    return document


def render_json(results: list[CallResult], live: str, model: str, skipped: list[Skipped] | None = None) -> str:
    return dumps(report_document(results, live, model, skipped), indent=True).decode()


def render_text(results: list[CallResult], live: str, model: str, skipped: list[Skipped] | None = None) -> str:
    lines = [f"live:  {live}", f"model: {model}", ""]
    rows = [("#", "verdict", "status", "call", "tool")]
    for r in results:
        status = f"{r.answers['live'].status}/{r.answers['model'].status}"
        tool = (r.tool.name or "-") + ("" if r.tool.served else " (not served)")
        rows.append((str(r.index), r.verdict, status, _clip(f"{r.probe.method} {r.requests['live'].target}",
                                                           CALL_WIDTH), tool))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for number, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
        if number:
            lines += _detail_lines(results[number - 1])
    if skipped:
        lines += ["", f"skipped {len(skipped)} derived read{'s' if len(skipped) > 1 else ''}:"]
        for item in skipped:
            lines.append(f"      {item.probe.method} {item.probe.path} ({item.probe.label()}): {item.reason}")
    lines += ["", summary_line(results) + (f", {len(skipped)} skipped" if skipped else "")]
    return "\n".join(lines)


def _detail_lines(result: CallResult) -> list[str]:
    indent = "      "
    if result.verdict == SAME:
        return []
    lines = [f"{indent}({result.probe.name})"] if result.probe.name else []
    if result.judgement.note:
        lines.append(f"{indent}{_clip(result.judgement.note, 110)}")
    shown = result.differences
    if refused_by_capenv(result):  # its error body against the application's says nothing more
        shown = [d for d in shown if d.pointer in ("status", "content-type")]
    for difference in shown[:MAX_DIFFERENCES_TEXT]:
        lines.append(f"{indent}{difference.pointer or '/'}: live {_show(difference.live)} | "
                     f"model {_show(difference.model)}")
    if len(shown) > MAX_DIFFERENCES_TEXT:
        more = len(shown) - MAX_DIFFERENCES_TEXT
        lines.append(f"{indent}… and {more} more difference{'s' if more > 1 else ''}")
    for side, names in result.borrowed.items():
        other = "live" if side == "model" else "model"
        lines.append(f"{indent}{side} had no {', '.join('{' + n + '}' for n in names)}: sent the {other} value")
    if result.diverged_by:
        lines.append(f"{indent}after diverging write(s) #{', #'.join(map(str, result.diverged_by))}")
    if result.suspect and not refused_by_capenv(result):
        first = result.unexplained[0]
        lines.append(f"{indent}suspect: {len(result.unexplained)} no diverging write reached, first "
                     f"{first.pointer or '/'}: live {_show(first.live)} | model {_show(first.model)}")
    if result.expectation_met is False:
        lines.append(f"{indent}expected {result.probe.expect}")
    return lines


def refused_by_capenv(result: CallResult) -> bool:
    return result.verdict == REFUSED and capenv_refusal(result.answers["model"]) is not None


def _show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    return _clip(dumps(value).decode(), VALUE_WIDTH)


def _clip(text: str, width: int) -> str:
    return excerpt(text, width)
