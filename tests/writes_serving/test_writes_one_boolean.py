"""A boolean every recorded call sent with one value (``sent-values.one-boolean``): a product
create always sent ``physical: true`` and the application answered ``shipping: true`` each time,
a member no call sent (a constant of the plan). Whether ``shipping`` is a constant or follows
``physical`` the capture cannot tell, so a create sending ``physical: false`` is refused with the
state unchanged, saying the value accepted; ``physical: true`` is served. Where the plan answers
no constant (every member echoed or generated), or a held product with ``physical: false`` shows
``shipping: true`` as the plan answers it, the other boolean is served as sent.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client


def capture(constant: bool, shown_alike: bool = False) -> HarBuilder:
    """Products made by POST /products with ``physical: true``; with ``constant`` the answer also
    holds ``shipping: true``, which no call sent; with ``shown_alike`` a held product is not
    physical and ships all the same."""
    har = HarBuilder()
    held: list[dict[str, object]] = [{"id": 1, "name": "mug", "physical": True}
                                     | ({"shipping": True} if constant else {})]
    if shown_alike:
        held.append({"id": 9, "name": "voucher", "physical": False, "shipping": True})
    har.call("GET", "/products", response=list(held))
    for entity in held:
        har.call("GET", f"/products/{entity['id']}", response=entity)
    for index, name in enumerate(("lamp", "desk")):
        entity = {"id": 2 + index, "name": name, "physical": True} | ({"shipping": True} if constant else {})
        held.append(entity)
        har.call("POST", "/products", body={"name": name, "physical": True}, status=201, response=entity)
        har.call("GET", f"/products/{entity['id']}", response=entity)
        har.call("GET", "/products", response=list(held))
    return har


@pytest.fixture(scope="module", params=["constant", "echoes-only", "shown-alike"])
def built(request, tmp_path_factory):
    case = request.param
    return case, build_from(capture(case != "echoes-only", case == "shown-alike"),
                            tmp_path_factory.mktemp("b") / "capture.har")


def test_the_other_boolean_is_refused_only_beside_an_unproven_constant(built) -> None:
    case, bundle = built
    constant = case == "constant"
    create = plan(bundle, "POST", "/products")
    assert create.served, create.reason
    one = [(u.member, u.schema_keywords) for u in create.unproven_values if u.rule_id == "sent-values.one-boolean"]
    assert one == ([("physical", {"const": True})] if constant else [])
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send_json(serving, "/products", {"name": "ebook", "physical": False})
            if constant:
                assert status == 400 and "'physical'" in answer["message"] and "true" in answer["message"]
                assert "shipping" in answer["message"]  # the constant that may follow it
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            else:
                assert status == 201 and answer["physical"] is False
                assert answer.get("shipping", True) is True
            status, answer = send_json(serving, "/products", {"name": "chair", "physical": True})
            assert status == 201 and answer["physical"] is True and answer.get("shipping", True) is True
    finally:
        runtime.close()
