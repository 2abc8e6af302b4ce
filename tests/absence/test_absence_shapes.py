"""The learned absence answers ids shaped like those it was recorded for, when the application
answered an id of another shape otherwise (Alertmanager: an empty 404 for a UUID it does not
hold, a 422 for any other text): another shape's answer is not known, so it is refused. Ids here
are tokens, of no integer or UUID shape, which ``refuse_unshaped_id`` covers without evidence."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

HELD = "t6cu5l28akg4mky"  # 15 random lower-case letters and digits (ids of no integer or UUID shape)
NEVER = "k3j4h5g6f7d8s9a"
MALFORMED = {"code": 601, "message": 'id in path must be 15 letters and digits: "nope"'}


def things(refuses_other_shapes: bool) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/things", response=[{"id": HELD, "name": "a"}])
           .call("GET", f"/things/{HELD}", response={"id": HELD, "name": "a"})
           .call("GET", f"/things/{NEVER}", status=404, response={"message": "thing not found"}))
    if refuses_other_shapes:
        har = har.call("GET", "/things/nope", status=422, response=MALFORMED)
    return har


def get(runtime: EnvironmentRuntime, path: str, headers: tuple[tuple[str, str], ...] = ()):
    return runtime.http(HttpRequest("GET", path, (), headers, b""))


def test_an_id_of_the_absences_shape_answers_the_learned_absence():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))),
                 "/things/q1w2e3r4t5y6u7i")
    assert answer.status == 404 and b"thing not found" in answer.body


def test_an_id_of_another_shape_is_refused_where_the_application_answered_that_shape_otherwise():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))), "/things/db2-thing")
    assert answer.status == 404 and b'"error":"not_found"' in answer.body
    assert b"422" in answer.body and b"thing not found" not in answer.body


def test_with_no_other_answer_recorded_the_absence_answers_any_id():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=False))), "/things/db2-thing")
    assert answer.status == 404 and b"thing not found" in answer.body


MISSING_ACCOUNT = {"error": "No such account"}
REMOTE_ACCOUNT = {"error": "Only local accounts"}


def accounts(remote_last: bool) -> HarBuilder:
    """Ids framed ``@…:north.test``; a 404 for one of that frame, a 400 for one of another server
    whose shape (length and characters) the held ids share (Synapse's remote user). The learned
    absence is the latest of the two."""
    ann, bo = {"id": "@ann:north.test", "name": "Ann"}, {"id": "@bobby:north.test", "name": "Bo"}
    har = (HarBuilder()
           .call("GET", "/accounts", response=[ann, bo])
           .call("GET", "/accounts/@ann:north.test", response=ann)
           .call("GET", "/accounts/@bobby:north.test", response=bo))
    missing = ("/accounts/@nobody:north.test", 404, MISSING_ACCOUNT)
    remote = ("/accounts/@ann:south.test", 400, REMOTE_ACCOUNT)
    for path, status, body in ((missing, remote) if remote_last else (remote, missing)):
        har = har.call("GET", path, status=status, response=body)
    return har


def test_an_id_outside_the_frame_of_the_absences_is_refused_where_another_4xx_answered_one():
    runtime = EnvironmentRuntime(build_from(accounts(remote_last=False)))
    inside = get(runtime, "/accounts/@zoe:north.test")
    assert inside.status == 404 and b"No such account" in inside.body
    outside = get(runtime, "/accounts/@bobby:south.test")  # the shape of a held id, another server
    assert outside.status == 404 and b"No such account" not in outside.body and b"400" in outside.body


def test_a_refusal_learned_last_is_not_given_to_an_id_inside_the_frame():
    runtime = EnvironmentRuntime(build_from(accounts(remote_last=True)))
    inside = get(runtime, "/accounts/@zoe:north.test")  # Synapse would answer 404 "No such account"
    assert inside.status == 404 and b"Only local accounts" not in inside.body and b'"error":"not_found"' in inside.body
BAD_CHECK = "k3j4h5g6f7d8s9b"  # NEVER's shape, refused by a check the shape does not show
CHECKSUM = {"message": 'id "k3j4h5g6f7d8s9b": check digit incorrect'}


def checked_things() -> HarBuilder:
    """404 for an id the application does not hold, 400 for one of the very same shape whose
    check character is wrong (Syncthing's device ids), and 400 for a word."""
    return (things(refuses_other_shapes=False)
            .call("GET", f"/things/{BAD_CHECK}", status=400, response=CHECKSUM)
            .call("GET", "/things/nope", status=400, response={"message": 'id "nope": incorrect length'}))


def test_a_refusal_of_an_id_of_the_absences_own_shape_leaves_no_unrecorded_id_answered():
    runtime = EnvironmentRuntime(build_from(checked_things()))
    for other in ("q1w2e3r4t5y6u7i", "music"):
        answer = get(runtime, f"/things/{other}")
        assert answer.status == 404 and b'"error":"not_found"' in answer.body, (other, answer.body)
        assert b"thing not found" not in answer.body and b"check digit" not in answer.body
    assert b"thing not found" in get(runtime, f"/things/{NEVER}").body      # its own recording
    assert b"check digit incorrect" in get(runtime, f"/things/{BAD_CHECK}").body


USUAL_CREDENTIALS = (("Authorization", "Basic dXNlcjpzZWNyZXQ="),)
"""What every successful call sent (write-credentials: a call over HTTP must send it too)."""


def refused_credentials(status: int, with_authorization: bool) -> HarBuilder:
    """Every call sends an Authorization header but the last; the last (a wrong password, or
    none) reads a held id and is refused with ``status``."""
    auth = USUAL_CREDENTIALS
    har = (HarBuilder()
           .call("GET", "/things", response=[{"id": HELD, "name": "a"}], headers=auth)
           .call("GET", f"/things/{HELD}", response={"id": HELD, "name": "a"}, headers=auth)
           .call("GET", f"/things/{NEVER}", status=404, response={"message": "thing not found"}, headers=auth))
    refused = (("Authorization", "Basic dXNlcjp3cm9uZw=="),) if with_authorization else ()
    return har.call("GET", f"/things/{HELD}", status=status, response={"message": "check your credentials"},
                    headers=refused)


def as_sent(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Header names in lower case, as an ASGI server delivers them."""
    return tuple((name.lower(), value) for name, value in headers)


def test_a_read_refused_for_its_credentials_says_nothing_of_the_ids():
    """A 401 (a wrong password, no credentials) to an id the absence's shape covers is about the
    credentials, not the id (authorization is not modelled): unrecorded ids still get the absence."""
    for with_authorization in (True, False):
        runtime = EnvironmentRuntime(build_from(refused_credentials(401, with_authorization)))
        answer = get(runtime, "/things/q1w2e3r4t5y6u7i", as_sent(USUAL_CREDENTIALS))
        assert answer.status == 404 and b"thing not found" in answer.body, answer.body


def test_a_403_sent_with_the_usual_credentials_still_tells_ids_apart():
    """A 403 sent with every header the successful calls carried may be about the entity (pretix
    answers 403 for an event it does not hold): the unrecorded id is refused, as before."""
    har = refused_credentials(403, with_authorization=True)
    answer = get(EnvironmentRuntime(build_from(har)), "/things/q1w2e3r4t5y6u7i", as_sent(USUAL_CREDENTIALS))
    assert answer.status == 404 and b'"error":"not_found"' in answer.body and b"thing not found" not in answer.body
