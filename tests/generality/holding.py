"""Record a convention's session, build the model and hold it to the application on the probes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import REFUSED, SAME, compare, render_text

from support.judging import refusal, served_refusals, wrong_answers
from .convention_app import ConventionApp, Conventions
from .scenario import AFTER_THE_NEWEST_DELETED, probes, record


def hold(conventions: Conventions, tmp_path: Path, servable: tuple[str, ...],
         unservable: dict[str, str] | None = None, served: tuple[str, ...] | None = None) -> tuple[Any, list[Any]]:
    """The bundle and the probes' results; fails on any wrong answer, on a ``servable`` probe the
    model did not serve, or answered otherwise than the application, on a write tool of
    ``unservable`` (tool: reason) that is served or left unserved for another reason, and, when
    ``served`` is given, unless exactly those write tools are served."""
    har = record(conventions).write(tmp_path / "capture.har")
    bundle = build_bundle(har)
    results = compare(bundle, probes(conventions), ConventionApp(conventions))
    print(render_text(results, "convention app", conventions.name))
    writes = {r.tool.name: r.tool.served for r in results if r.probe.method != "GET"}
    print(f"{conventions.name}: write tools served {sorted(name for name, served in writes.items() if served)}; "
          f"refusals on served tools: {served_refusals(results)}")
    problems = wrong_answers(results)
    assert not problems, f"{conventions.name}: {len(problems)} wrong answers:\n" + "\n".join(problems)
    unserved = [f"{r.probe.name} ({r.tool.name})" for r in results
                if r.probe.name in servable and (not r.tool.served or r.verdict != SAME)]
    assert not unserved, f"{conventions.name}: servable writes not served alike: {unserved}"
    deleted = any(r.probe.name == "delete the new tag" and r.tool.served and r.verdict == SAME for r in results)
    if deleted and conventions.ids in ("sequence", "text-sequence"):  # no recorded create after such a delete
        again = [r for r in results if r.probe.name == AFTER_THE_NEWEST_DELETED and r.tool.served]
        assert all(r.verdict == REFUSED and "sequence-reuse" in (refusal(r) or "") for r in again), \
            f"{conventions.name}: {[(r.verdict, refusal(r)) for r in again]}"
    reasons = {plan.tool: (plan.served, plan.reason) for plan in bundle.view.writes}
    for tool, reason in (unservable or {}).items():
        assert reasons.get(tool) == (False, reason), f"{conventions.name}: {tool}: {reasons.get(tool)}, not {reason}"
    if served is not None:
        found = sorted(plan.tool for plan in bundle.view.writes if plan.served)
        assert found == sorted(served), f"{conventions.name}: write tools served {found}, not {sorted(served)}"
    return bundle, results
