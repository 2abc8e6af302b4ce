"""How the model's answers are held to an application's (issue 16's acceptance): a difference is
allowed only when the model refused (capenv's own refusal body) or it follows an earlier write the
two sides did not make alike; anything else is a wrong answer."""

from __future__ import annotations

from capenv.serving.compare import REFUSED, SAME, CallResult
from capenv.serving.compare.judge import capenv_refusal


def refusal(result: CallResult) -> str | None:
    """Why the model declined the call (capenv's own refusal body), or None."""
    if result.verdict != REFUSED:
        return None
    return capenv_refusal(result.answers["model"])


def wrong_answers(results: list[CallResult]) -> list[str]:
    """Every call whose model answer differs without being a refusal or following one."""
    problems = []
    for r in results:
        if r.verdict == SAME or refusal(r) is not None or r.diverged_by:
            continue
        live, model = r.answers["live"], r.answers["model"]
        first = "; ".join(f"{d.pointer}: live {d.live!r} model {d.model!r}" for d in r.differences[:3])
        kind = "served" if r.tool.served else "unserved"
        problems.append(f"#{r.index} {r.probe.label()} [{kind} tool {r.tool.name}]: live {live.status}, "
                        f"model {model.status}: {first}")
    return problems


def served_refusals(results: list[CallResult]) -> list[str]:
    return [f"#{r.index} {r.probe.label()} [{r.tool.name}]: {refusal(r)}"
            for r in results if r.tool.served and refusal(r) is not None]


def application_failure(result: CallResult) -> bool:
    """The application failed the call (a 5xx: an internal error) where the model declined it with a 4xx:
    neither side says the call did anything, and no capture shows an application's crash (Mailman answers
    500 to a PATCH of a domain that never existed, where its DELETE and its other PATCHes answer 404, as
    the model does, write-effects "Refusals")."""
    return result.answers["live"].status >= 500 and 400 <= result.answers["model"].status < 500


def application_failures(results: list[CallResult]) -> list[str]:
    return [f"#{r.index} {r.probe.label()} [{r.tool.name}]: live {r.answers['live'].status}, model "
            f"{r.answers['model'].status}" for r in results if r.verdict != SAME and application_failure(r)]


def suspected(results: list[CallResult]) -> list[CallResult]:
    """The calls with a difference ``diverged_by`` excuses that none of those writes reached
    (``CallResult.unexplained``, ``serving/compare/divergence``): a wrong answer may hide behind the earlier
    divergence. An application's failure where the model declined (``application_failure``) is none."""
    return [r for r in results if r.suspect and refusal(r) is None and not application_failure(r)]


def suspects(results: list[CallResult]) -> list[str]:
    """``suspected``, each a line saying what none of the diverging writes reached."""
    lines = []
    for r in suspected(results):
        first = "; ".join(f"{d.pointer}: live {d.live!r} model {d.model!r}" for d in r.unexplained[:3])
        kind = "served" if r.tool.served else "unserved"
        lines.append(f"#{r.index} {r.probe.label()} [{kind} tool {r.tool.name}] after #{r.diverged_by}: "
                     f"{len(r.unexplained)} unexplained: {first}")
    return lines
