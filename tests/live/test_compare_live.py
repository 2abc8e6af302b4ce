"""The model beside the real application: build the environment from the capture, send the
capture's probe file to both, and check the split the issue asks for.

* Every call on a *served* tool (a read answered from the state, a write whose plan is served:
  ``bundle.report``) agrees with the live application, or the model declines its arguments
  by design: a write body with members the capture never showed is refused with a message
  naming the members accepted (member admission, seeds/write-effects.txt). A served tool
  answering differently, or answering "not served", fails.
* Every other disagreement is on a tool the model does not serve, follows a write the model
  did not make as the application did (``diverged_by``: the two states are apart under that
  write's scope), or is a documented "not modelled" case below.

The assertion reads the report, not today's list of served tools, so it stays true (and
gets stricter) as more writes are served.
"""

from __future__ import annotations

from pathlib import Path

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import REFUSED, SAME, CallResult, compare, load_probes, render_text
from capenv.serving.compare.judge import parsed_body

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
MIN_SERVED_AGREEING = 5
"""Fewer served calls agreeing than this would make the check say nothing."""

NOT_MODELLED = {
    "json-server": {},
    "kinto": {
        "a missing article": "a record the state does not hold answers the recorded 404, whose "
                             "details.id names the recorded record, not the one asked for",
    },
    "prefect": {},
}
"""Per application: probe name -> why the model cannot agree there (yet)."""


def run_probes(app: str, url: str) -> list[CallResult]:
    bundle = build_bundle(CAPTURES / app / "capture.har")
    results = compare(bundle, load_probes(CAPTURES / app / "probes.yaml"), url)
    print(render_text(results, url, f"{app} capture.har (in process)"))  # shown with -s or on failure
    return results


def declined_arguments(result: CallResult) -> bool:
    """The model refused the call's arguments (400, capenv's ``refused``): a modelled refusal."""
    model = result.answers["model"]
    is_json, body = parsed_body(model)
    return (result.verdict == REFUSED and model.status == 400 and is_json and isinstance(body, dict)
            and body.get("error") == "refused")


def unexplained_disagreements(app: str, results: list[CallResult]) -> list[str]:
    documented = NOT_MODELLED[app]
    problems = []
    for r in results:
        if r.probe.name in documented:
            continue
        if r.expectation_met is False:
            problems.append(f"#{r.index} {r.probe.label()}: {r.verdict}, the probe file expects {r.probe.expect}")
        elif r.verdict != SAME and r.tool.served and not r.diverged_by and not declined_arguments(r):
            first = "; ".join(f"{d.pointer}: live {d.live!r} model {d.model!r}" for d in r.differences[:3])
            why = f" ({r.judgement.note})" if r.judgement.note else ""
            problems.append(f"#{r.index} {r.probe.label()}: {r.verdict} on served tool {r.tool.name}{why}: {first}")
    return problems


def check_split(app: str, results: list[CallResult]) -> None:
    problems = unexplained_disagreements(app, results)
    assert not problems, f"{app}: disagreements on served tools:\n" + "\n".join(problems)
    agreeing = sum(1 for r in results if r.verdict == SAME and r.tool.served)
    assert agreeing >= MIN_SERVED_AGREEING, f"{app}: only {agreeing} served calls agree"
    stale = [name for name in NOT_MODELLED[app] if all(r.verdict == SAME for r in results if r.probe.name == name)]
    if stale:  # a documented case that now agrees: say so, it should leave the table
        print(f"{app}: documented as not modelled but now the same: {', '.join(stale)}")


def test_json_server(live_json_server):
    check_split("json-server", run_probes("json-server", live_json_server.url))


def test_kinto(live_kinto):
    check_split("kinto", run_probes("kinto", live_kinto.url))


def test_prefect(live_prefect):
    check_split("prefect", run_probes("prefect", live_prefect.url))
