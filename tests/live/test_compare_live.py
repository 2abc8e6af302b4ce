"""The model beside the real application: build the environment from the capture, send the
capture's probe file to both, and hold the model to issue 16's acceptance: **0 wrong answers**.

A call passes when the model answered as the application did, or when the model *refused* it:
a tool error or a 4xx that says why, in capenv's own refusal body (``judge.capenv_refusal``:
an unserved write, arguments a plan does not accept, a read nothing recorded answers), or when
the difference *follows* an earlier write the two sides did not make alike (``diverged_by``:
the states are apart under that write's scope, and the first disagreement is judged on its
own). Anything else is a wrong answer, on a served tool and on a replayed (unserved) read alike:
a replayed recording of another entity, a stale list, an absence answer where the entity
exists, a served write answering other than the application.

A difference excused as following a diverging write is a *suspect* when none of the diverging writes
reached where it lies (``serving/compare/divergence``: not the write's own path, an entity it addressed,
made or named, their collection's membership and count, nor an entity it links to): it fails, unless
judged by hand a consequence no general rule describes yet (``KNOWN_SUSPECTS``, each with its judgement).
An application's failure (a 5xx) where the model declined the call (a 4xx) is no suspect: printed apart
(``support.judging.application_failure``; Mailman's 500 for a PATCH of a domain that never existed, where
its DELETE and other PATCHes answer the 404 the spec's "Refusals" prescribe, as the model does).

Refusals on served tools are counted and printed (a served tool that declines a call a user
made is a gap worth seeing), never excused silently.

Each capture's probe file is checked against a fresh, seeded application started from the
capture's own start.sh (tests/live/apps.py). Before it, on the same start, the reads of the seed state
``capenv compare --explore`` derives from the bundle (``serving/compare/explore``), judged alike: a
derived read the model answers wrongly fails; one skipped (a value drawn anew at the start that no read
paired) is printed with why; a difference the application itself makes, not the model, is listed in
``KNOWN_DIFFERENT``.
"""

from __future__ import annotations

from pathlib import Path

import re
import time

import jsonpointer
import orjson
import pytest

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import (
    REFUSED, SAME, CallResult, Exploration, ProbeFile, SideUnreachable, compare, compare_explored, load_probes,
    render_text,
)

from support.judging import application_failures, served_refusals, suspected, suspects, wrong_answers
from .apps import APPS, start_app

CAPTURES = Path(__file__).resolve().parents[2] / "captures"

MIN_AGREEING = {"json-server": 5, "kinto": 5, "prefect": 5, "shaarli": 0}
"""Calls on served tools that must agree, per application whose model serves enough for the check
to say something; an application absent here needs at least one call that agrees. Shaarli needs
none: every call sends a token the client signs anew, and its capture records a token of that very
shape refused (expired, another secret), so the model refuses over HTTP every token no recorded
successful call sent (``credential-value.signed-refused-alike``)."""


def run_probes(app: str, url: str, bundle: Bundle | None = None) -> list[CallResult]:
    bundle = bundle or build_bundle(CAPTURES / app / "capture.har")
    # an https application on loopback serves its own self-signed certificate: not checked
    results = compare(bundle, load_probes(CAPTURES / app / "probes.yaml"), url, verify_tls=False)
    print(render_text(results, url, f"{app} capture.har (in process)"))  # shown with -s or on failure
    return results


def explore_seed(app: str, url: str, bundle: Bundle) -> Exploration:
    """The derived reads of the seed state (``compare --explore``), with the probe file's headers and
    minted values (its credentials) and none of its calls: sent before them, to the fresh start."""
    own = load_probes(CAPTURES / app / "probes.yaml")
    lent = ProbeFile(headers=own.headers, minted=own.minted, probes=())
    started = time.monotonic()
    explored = compare_explored(bundle, url, probe_file=lent, verify_tls=False)
    print(render_text(explored.results, url, f"{app} capture.har (in process), explored"))
    print(f"{app}: explored {len(explored.results)} reads, {len(explored.skipped)} skipped, "
          f"in {time.monotonic() - started:.1f}s")
    for skipped in explored.skipped:
        print(f"skipped {skipped.probe.label()} ({skipped.probe.path}): {skipped.reason}")
    return explored


KNOWN_DIFFERENT: dict[str, tuple[tuple[str, tuple[str, ...], str], ...]] = {
    "aim": (("^/api/projects/?$", ("/path",), "the repository's directory, made anew at each start"),),
    "aodh": (("^/v2/alarms$", ("/error_message/faultstring",),
              "the error lists the accepted fields as a Python set, in the order of the process's hash seed"),),
    "changedetection": (("^/api/v1/systeminfo$", ("/uptime",), "the seconds since the process started"),),
    "datasette": (("^/-/versions\\.json$", ("/uvicorn",),
                   "the uvicorn installed beside the application (0.55.0) is not the capture's (0.54.0)"),),
    "gns3": (("^/v2/computes(/[^/]+)?$", ("/cpu_usage_percent", "/memory_usage_percent", "/port"),
              "the host's processor and memory in use, and the port the local compute was started on"),
             ("^/v2/templates/[^/]+$", (),
              "a built-in template the list shows (frame_relay_switch, atm_switch) that the application's own "
              "item read refuses to render (400, its template_type is not in its schema's enum)")),
    "homeassistant": (("^/api/events$", ("/listener_count",),
                       "how many listeners each event has at the moment of the read: the application's own internals"),),
    "ihatemoney": (("^/api/projects/[^/]+/token$", ("/token",),
                    "a token signed with the project's password hash, which the seed's project create salts anew "
                    "at each start"),),
    "isso": (("^/feed$", (), "the Atom feed's <updated> times are the seed's comments' creation times, the clock at "
              "each start"),),
    "pdns": (("/metadata/SOA-EDIT-API$", (),
              "the zone's metadata list shows SOA-EDIT-API, and its item read refuses that kind (422)"),),
    "podman": (("/version$", ("/KernelVersion",), "the kernel of the machine the test runs on"),),
    "roundup": (("^/demo/rest/data/msg(/[^/]+)?$", ("/messageid",),
                 "the seed's messages take a Message-ID from the clock and a random token at each start"),),
    "synapse": (("^/_matrix/client/v3/account/whoami$", ("/device_id",),
                 "the seed logs in anew at each start: a device id of ten capitals, drawn anew, of no generated "
                 "shape (values.drawn_format) to pair it by"),),
    "syncthing": (("^/rest/system/status$", (),
                   "the process's own status: the addresses it listens on (ports chosen at the start), its memory"),
                  ("^/rest/config/gui$", ("/address",), "the address the application listens on, chosen at the start")),
}
"""Per application, differences of explored reads the application makes itself, not the model: (a
regular expression of the live path, the pointers every difference is at or under (none: any), why)."""

KNOWN_UNORDERED: dict[str, tuple[tuple[str, str, str], ...]] = {
    "etcd": (("^/v2/keys/", "/node/nodes",
              "a directory read without ?sorted=true lists the nodes from a random place of the store's map (Go map "
              "order): one start answers the same read rotated, 6 times in 40 (/v2/keys/queue/jobs)"),),
}
"""Per application, explored reads whose list the application orders anew at each answer: (a regular
expression of the live path, the list's pointer, why). Such a read is the application's own difference only
when the two answers hold the same members and agree everywhere else: any other difference is judged."""

OPEN_WRONG: dict[str, tuple[tuple[str, tuple[str, ...], str], ...]] = {
}
"""Wrong answers of the model to explored reads still open, in KNOWN_DIFFERENT's form: each must still
occur (strict, so its fix is noticed); the application's test passes otherwise."""


def explored_wrong_answers(app: str, explored: Exploration) -> list[str]:
    known, still_open = KNOWN_DIFFERENT.get(app, ()), OPEN_WRONG.get(app, ())
    problems, seen_open = [], set()
    for result, problem in zip(*_wrong_with_results(explored.results)):
        path = result.requests["live"].path
        if any(re.search(pattern, path) and all(_under(d.pointer, pointers) for d in result.differences)
               for pattern, pointers, _ in known):
            print(f"{app}: known difference: {problem}")
            continue
        if any(re.search(pattern, path) and _same_but_order(result, pointer)
               for pattern, pointer, _ in KNOWN_UNORDERED.get(app, ())):
            print(f"{app}: the application's own order: {problem}")
            continue
        opened = [i for i, (pattern, pointers, _) in enumerate(still_open) if re.search(pattern, path)
                  and all(_under(d.pointer, pointers) for d in result.differences)]
        if opened:
            seen_open.update(opened)
            print(f"{app}: open wrong answer (OPEN_WRONG): {problem}")
            continue
        problems.append(problem)
    problems += [f"OPEN_WRONG[{app!r}] {pattern!r} no longer occurs: fixed? remove it ({why})"
                 for i, (pattern, _, why) in enumerate(still_open) if i not in seen_open]
    return problems


def _same_but_order(result: CallResult, pointer: str) -> bool:
    """Whether the two sides' answers are equal once the list at ``pointer`` is taken as a set of members."""
    try:
        bodies = [orjson.loads(result.answers[side].body) for side in ("live", "model")]
        lists = [jsonpointer.resolve_pointer(body, pointer) for body in bodies]
    except (KeyError, orjson.JSONDecodeError, jsonpointer.JsonPointerException):
        return False
    if not all(isinstance(members, list) for members in lists):
        return False
    ordered = [sorted(orjson.dumps(m, option=orjson.OPT_SORT_KEYS) for m in members) for members in lists]
    for body in bodies:
        jsonpointer.set_pointer(body, pointer, None)
    return ordered[0] == ordered[1] and bodies[0] == bodies[1]


def _under(pointer: str, pointers: tuple[str, ...]) -> bool:
    """Whether a difference's pointer is one of ``pointers`` or inside one, at any depth of the body
    (``/0/port`` for ``/port``); no pointers: any difference."""
    return not pointers or any(pointer == p or pointer.endswith(p) or p + "/" in pointer for p in pointers)


def _wrong_with_results(results: list[CallResult]) -> tuple[list[CallResult], list[str]]:
    wrong = [r for r in results if wrong_answers([r])]
    return wrong, [wrong_answers([r])[0] for r in wrong]


def unmet_expectations(results: list[CallResult]) -> list[str]:
    """Probes whose ``expect`` the model missed by refusing: gaps, printed; a missed expectation
    that is no refusal is already a wrong answer."""
    return [f"#{r.index} {r.probe.label()}: {r.verdict}, the probe file expects {r.probe.expect}"
            for r in results if r.expectation_met is False]


def check(app: str, results: list[CallResult]) -> None:
    refused = served_refusals(results)
    print(f"{app}: {len(refused)} refusals on served tools" + "".join(f"\n  {line}" for line in refused))
    unmet = unmet_expectations(results)
    print(f"{app}: {len(unmet)} expectations unmet" + "".join(f"\n  {line}" for line in unmet))
    failed = application_failures(results)
    print(f"{app}: {len(failed)} application failures (5xx) the model declined (4xx)"
          + "".join(f"\n  {line}" for line in failed))
    found = suspects(results)
    print(f"{app}: {len(found)} suspects after a diverging write" + "".join(f"\n  {line}" for line in found))
    problems = wrong_answers(results)
    assert not problems, f"{app}: {len(problems)} wrong answers:\n" + "\n".join(problems)
    known = KNOWN_SUSPECTS.get(app, {})
    unjudged = [line for r, line in zip(suspected(results), found) if r.probe.label() not in known]
    assert not unjudged, (f"{app}: {len(unjudged)} differences after a diverging write that reached none of them "
                          f"(a wrong answer may hide there; judge each: a consequence divergence.py should "
                          f"describe, or a wrong answer to fix):\n" + "\n".join(unjudged))
    agreeing = sum(1 for r in results if r.verdict == SAME and (r.tool.served or app not in MIN_AGREEING))
    assert agreeing >= MIN_AGREEING.get(app, 1), f"{app}: only {agreeing} calls agree"


KNOWN_SUSPECTS: dict[str, dict[str, str]] = {
    "aim": {
        "read tuning after the refused archive": "Aim refuses the archive of an experiment holding runs (400) after "
                                                 "writing the description the same call sent (#28): the model "
                                                 "refused the whole call, so only the live side's description moved",
        "read baseline after the refused archive": "the same: a refused archive that still wrote the description",
        "experiment baseline after the run delete": "the same description, written by the refused archive",
        "the dashboards": "the dashboard create #65 (refused by the model) named the app the seeded Params dashboard "
                          "showed: Aim moved the app to the new dashboard, so Params shows no app on the live side "
                          "alone and is set aside only on the model's, which still names the app",
    },
}
"""Per application, the probes (by label) whose suspects were judged consequences of the divergence that no
general rule of ``serving/compare/divergence`` describes yet, each with the judgement. Not strict: one that
no longer occurs (a rule now describes it, the session diverged otherwise) passes."""


KNOWN_WRONG: dict[str, str] = {
}
"""Applications with a wrong answer still open, each a strict xfail naming it (so its fix is noticed)."""


@pytest.mark.parametrize("live_app", [
    pytest.param(name, id=name.replace("-", "_"),
                 marks=[pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[name])] if name in KNOWN_WRONG else [])
    for name in APPS], indirect=True)
def test_model_beside_the_application(live_app, tmp_path):
    bundle = build_bundle(CAPTURES / live_app.name / "capture.har")
    try:
        explored = explore_seed(live_app.name, live_app.url, bundle)
        results = run_probes(live_app.name, live_app.url, bundle)
    except SideUnreachable as exc:
        # The application itself went away mid-session (Icinga 2 stopped answering twice in full CI runs,
        # never alone): the model cannot be judged against it, so once more on a fresh start, with what
        # its logs said shown; a second loss fails the test with both.
        first = f"{exc}\n{_log_tails(live_app.log.parent)}"
        print(f"{live_app.name}: the application stopped answering; started again once:\n{first}")
        live_app.stop()
        again = start_app(live_app.name, tmp_path / f"{live_app.name}-again")
        try:
            try:
                explored = explore_seed(again.name, again.url, bundle)
                results = run_probes(again.name, again.url, bundle)
            except SideUnreachable as second:
                pytest.fail(f"{live_app.name} stopped answering twice:\n{first}\n{second}\n"
                            f"{_log_tails(again.log.parent)}", pytrace=False)
        finally:
            again.stop()
    problems = explored_wrong_answers(live_app.name, explored)
    check(live_app.name, results)
    assert not problems, f"{live_app.name}: {len(problems)} wrong answers to reads of the seed:\n" + "\n".join(problems)


def _log_tails(directory: Path, lines: int = 15) -> str:
    """The last lines of every log an application's start wrote under ``directory``."""
    tails = []
    for log in sorted(directory.rglob("*.log"))[:8]:
        text = log.read_text(errors="replace").splitlines()[-lines:]
        tails.append(f"--- {log.relative_to(directory)}\n" + "\n".join(text))
    return "\n".join(tails) or "(no logs)"


def test_a_replayed_difference_that_is_no_refusal_is_a_wrong_answer():
    """The rule itself, on made-up results: an unserved replay that differs is counted."""
    from capenv.serving.compare.judge import DIFFERENT, Judgement
    from capenv.serving.compare.jsondiff import Difference
    from capenv.serving.compare.probes import parse_probes
    from capenv.serving.compare.sides import Observed, Outgoing
    from capenv.serving.compare.tool_index import CallTool

    probe = parse_probes("- {method: GET, path: /things/9}").probes[0]
    json = (("content-type", "application/json"),)
    request = Outgoing("GET", "/things/9", (), (), None)

    def result(model: Observed, verdict: str, diverged: list[int]) -> CallResult:
        judgement = Judgement(verdict, [Difference("status", 404, model.status)])
        return CallResult(1, probe, {"live": request, "model": request},
                          {"live": Observed(404, json, b'{"detail":"not found"}'), "model": model},
                          judgement, CallTool("get_things", False, False), diverged)

    replayed = Observed(200, json, b'{"id":3,"name":"another"}')
    refused = Observed(404, json, b'{"error":"not_found","message":"nothing was recorded for /things/9"}')
    assert len(wrong_answers([result(replayed, DIFFERENT, [])])) == 1
    assert wrong_answers([result(replayed, DIFFERENT, [1])]) == []  # follows an earlier disagreeing write
    assert wrong_answers([result(refused, REFUSED, [])]) == []


def test_an_application_failure_the_model_declined_is_no_suspect():
    """A 5xx the application answered where the model answered a 4xx, after a diverging write that did
    not reach it, is printed as the application's failure, not a suspect; a model success there is one."""
    from capenv.serving.compare.judge import DIFFERENT, Judgement
    from capenv.serving.compare.jsondiff import Difference
    from capenv.serving.compare.probes import parse_probes
    from capenv.serving.compare.sides import Observed, Outgoing
    from capenv.serving.compare.tool_index import CallTool

    from support.judging import application_failures

    probe = parse_probes("- {method: PATCH, path: /domains/example.museum, body: {description: x}}").probes[0]
    json = (("content-type", "application/json"),)
    request = Outgoing("PATCH", "/domains/example.museum", (), (), b'{"description":"x"}')
    crashed = Observed(500, json, b'{"title":"500 Internal Server Error"}')

    def result(model: Observed) -> CallResult:
        difference = Difference("status", 500, model.status)
        outcome = CallResult(7, probe, {"live": request, "model": request}, {"live": crashed, "model": model},
                             Judgement(DIFFERENT, [difference]), CallTool("patch_domains", True, True), [3])
        outcome.unexplained = [difference]
        return outcome

    declined = result(Observed(404, json, b'{"title":"404 Not Found"}'))
    assert suspects([declined]) == [] and len(application_failures([declined])) == 1
    succeeded = result(Observed(204, (), b""))
    assert len(suspects([succeeded])) == 1 and application_failures([succeeded]) == []


def test_a_suspect_fails_the_check_unless_judged(monkeypatch):
    """A difference no diverging write reached fails the application's check; one judged a consequence (by its
    probe's label, in ``KNOWN_SUSPECTS``) is printed and passes."""
    from capenv.serving.compare.judge import DIFFERENT, Judgement
    from capenv.serving.compare.jsondiff import Difference
    from capenv.serving.compare.probes import parse_probes
    from capenv.serving.compare.sides import Observed, Outgoing
    from capenv.serving.compare.tool_index import CallTool

    probes = parse_probes("- {name: notes after the edit, method: GET, path: /notes}\n"
                          "- {name: the notes, method: GET, path: /notes}").probes
    json = (("content-type", "application/json"),)
    request = Outgoing("GET", "/notes", (), (), None)
    tool = CallTool("get_notes", True, False)
    agreeing = CallResult(1, probes[1], {"live": request, "model": request},
                          {"live": Observed(200, json, b"[]"), "model": Observed(200, json, b"[]")},
                          Judgement(SAME, []), tool, [])
    difference = Difference("/0/title", "live", "stale")
    suspect = CallResult(2, probes[0], {"live": request, "model": request},
                         {"live": Observed(200, json, b'[{"title": "live"}]'),
                          "model": Observed(200, json, b'[{"title": "stale"}]')},
                         Judgement(DIFFERENT, [difference]), tool, [1])
    suspect.unexplained = [difference]
    with pytest.raises(AssertionError, match="reached none of them"):
        check("notes-app", [agreeing, suspect])
    monkeypatch.setitem(KNOWN_SUSPECTS, "notes-app", {"notes after the edit": "judged: a consequence"})
    check("notes-app", [agreeing, suspect])
