"""A generated identity whose recorded values are hexadecimal digits only (a MongoDB ObjectId, a
digest) is generated as hexadecimal digits: a random token of letters and digits keeps to a-f for
24 characters only by a vanishing chance, and an application that generates ObjectIds refuses
any other spelling of an id (``field.identity``, ``hex_min_chars``). Synthetic captures only."""

from __future__ import annotations

import string

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def notes_app(ids: list[str], made: str) -> HarBuilder:
    held = [{"id": i, "text": f"note {n}"} for n, i in enumerate(ids)]
    new = {"id": made, "text": "fresh"}
    builder = HarBuilder().call("GET", "/notes", response=held)
    for entity in held:
        builder = builder.call("GET", f"/notes/{entity['id']}", response=entity)
    return (builder
            .call("POST", "/notes", body={"text": "fresh"}, status=201, response=new)
            .call("GET", f"/notes/{made}", response=new)
            .call("GET", "/notes", response=[*held, new]))


def identity_rule(bundle):
    create = next(p for p in bundle.view.writes if p.method == "POST")
    assert create.served, create.reason
    return next(f for f in create.fields if f.field == "id")


def created_ids(bundle, count: int) -> list[str]:
    runtime = EnvironmentRuntime(bundle)
    made = []
    for n in range(count):
        answer = runtime.http(HttpRequest("POST", "/notes", (), (("content-type", "application/json"),),
                                          dumps({"text": f"n{n}"})))
        assert answer.status == 201, answer.body
        made.append(loads(answer.body)["id"])
    return made


@pytest.mark.parametrize("ids, made, digits", [
    (["64f0a1b2c3d4e5f60718293a", "64f0a1b2c3d4e5f60718293b"], "64f0a1b2c3d4e5f60718293c", "0123456789abcdef"),
    (["9F86D081884C7D659A2FEAA0C55AD015", "5E884898DA28047151D0E56F8DC62927"], "2C26B46B68FFC68FF99B453C1D304134",
     "0123456789ABCDEF"),
])
def test_hexadecimal_identities_are_generated_as_hexadecimal(ids, made, digits):
    bundle = build_from(notes_app(ids, made))
    assert identity_rule(bundle).params["classes"] in ("x", "X")
    made_ids = created_ids(bundle, 20)
    for value in made_ids:
        assert len(value) == len(made) and set(value) <= set(digits), value
    if made > max(ids):  # made after the held ones and above them (an ObjectId): each new one above those before
        assert all(later > max(ids + made_ids[:n]) for n, later in enumerate(made_ids)), made_ids


def test_identities_with_letters_past_f_keep_letters_and_digits():
    bundle = build_from(notes_app(["k3jd9s0aq1zz7mw2p4e8r6tu", "b7xw2m9q0p4r8s6t1u3v5y7z"], "q9w8e7r6t5y4u3i2o1p0a9s8"))
    assert identity_rule(bundle).params["classes"] == "a9"
    made = created_ids(bundle, 20)
    assert all(set(v) <= set(string.ascii_lowercase + string.digits) for v in made)
    assert any(set(v) - set("0123456789abcdef") for v in made)
