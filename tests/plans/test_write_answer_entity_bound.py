"""A write answering, as recorded, a value the capture shows bound to the entity it wrote: served,
another entity's call would be answered the first one's value (a wrong answer). Serving answers
every write kind with its exemplar's body, the entity rendered from the state where it carries
one, so the check holds for every kind: an update answering the rule's database id its create
answered (another rule's create answering another), an update whose calls on two rules answered
two values, a create whose answer's envelope beside the entity holds a value each create answered
otherwise, an item action whose answer's envelope does. Each is body-unusable, traced; where every
recorded answer gave one value there (a status), the write stays served, and a value two entities
shared, or one answered for an entity no read showed (its absence), binds none. A recorded header
naming the entity is left out of the answer."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def _rules(har: HarBuilder, created: dict[str, object]) -> list[dict]:
    """Two rules made by ``POST /rules/{name}``, each answering ``created[name]`` as its value."""
    rules = [{"name": "base", "active": True}]
    har.call("GET", "/rules", response={"value": rules})
    har.call("GET", "/rules/base", response={"value": [rules[0]]})
    for name, answered in created.items():
        rule = {"name": name, "active": True}
        rules.append(rule)
        har.call("POST", f"/rules/{name}", body={"active": True}, response={"value": {f"made {name}": answered}})
        har.call("GET", f"/rules/{name}", response={"value": [rule]})
        har.call("GET", "/rules", response={"value": rules})
    return rules


def _update(har: HarBuilder, rules: list[dict], name: str, answered: object) -> None:
    rule = next(r for r in rules if r["name"] == name)
    rule["active"] = False
    har.call("PATCH", f"/rules/{name}", body={"active": False}, response={"result": {"status": True, "value": answered}})
    har.call("GET", f"/rules/{name}", response={"value": [rule]})
    har.call("GET", "/rules", response={"value": rules})


def made_then_updated(bound: bool) -> HarBuilder:
    """An update answering the value the rule's own create answered (4), another rule's create 5."""
    har = HarBuilder()
    rules = _rules(har, {"lockout": 4 if bound else 1, "spare": 5 if bound else 1})
    _update(har, rules, "lockout", 4 if bound else 1)
    return har


def updated_twice(bound: bool) -> HarBuilder:
    """An update whose two calls, on two rules, answered 4 and 5 (or 1 both times)."""
    har = HarBuilder()
    rules = _rules(har, {"lockout": 1, "spare": 1})
    _update(har, rules, "lockout", 4 if bound else 1)
    _update(har, rules, "spare", 5 if bound else 1)
    return har


def created_in_an_envelope(bound: bool) -> HarBuilder:
    """A create answering the entity beside a sequence number, 7 then 8 (or 1 both times)."""
    har = HarBuilder()
    notes = [{"id": "n-0001", "text": "first"}]
    har.call("GET", "/notes", response=notes)
    har.call("GET", "/notes/n-0001", response=notes[0])
    for number, (note_id, text) in enumerate((("n-0002", "second"), ("n-0003", "third"))):
        note = {"id": note_id, "text": text}
        notes.append(note)
        har.call("POST", "/notes", body={"text": text}, status=201,
                 response={"note": note, "sequence": 7 + number if bound else 1})
        har.call("GET", f"/notes/{note_id}", response=note)
        har.call("GET", "/notes", response=notes)
    return har


def acted_on_twice(bound: bool) -> HarBuilder:
    """An item action answering the entity beside a number of its own, 4 for one rule (twice:
    enabling it again finds it enabled) and 5 for another (or 1 every time)."""
    har = HarBuilder()
    rules = [{"id": "r-lockout", "active": False}, {"id": "r-spare", "active": False}]
    har.call("GET", "/rules", response=rules)
    for rule in rules:
        har.call("GET", f"/rules/{rule['id']}", response=rule)
    for number, rule in zip((4, 5, 4), (*rules, rules[0])):
        rule["active"] = True
        har.call("POST", f"/rules/{rule['id']}/enable", response={"rule": rule, "number": number if bound else 1})
        har.call("GET", f"/rules/{rule['id']}", response=rule)
        har.call("GET", "/rules", response=rules)
    return har


CASES = {
    "update-answering-its-creates-value": (made_then_updated, "PATCH", "/rules/{rule_id}", "answered 4 at /result/value"),
    "update-answering-per-entity": (updated_twice, "PATCH", "/rules/{rule_id}", "answered 4 at /result/value"),
    "create-envelope-per-entity": (created_in_an_envelope, "POST", "/notes", "answered 7 at /sequence"),
    "action-envelope-per-entity": (acted_on_twice, "POST", "/rules/{rule_id}/enable", "answered 4 at /number"),
}


@pytest.mark.parametrize("bound", [True, False], ids=["entity-bound", "one-value"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_write_answering_its_entitys_own_value_is_not_served(case, bound, tmp_path) -> None:
    capture, method, template, said = CASES[case]
    bundle = build_from(capture(bound), tmp_path / "capture.har")
    write = plan(bundle, method, template)
    notes = [e.reason for e in write.traces if e.table == "plans" and "a value of the entity" in (e.reason or "")]
    if bound:
        assert not write.served and write.reason == "body-unusable", write.reason
        assert notes and said in notes[0], notes
        assert "another entity's value" in notes[0] and "served once" in notes[0], notes[0]
    else:
        assert not notes, notes
        assert write.served, write.reason


def statuses_repeat() -> HarBuilder:
    """An update answering a code: 200 on two rules, 500 on a third (a failure inside a success,
    which the plan does not model): a status repeats across entities, so it is no entity's own."""
    har = HarBuilder()
    rules = _rules(har, {"lockout": 1, "spare": 1, "extra": 1})
    for name, code in (("lockout", 200), ("spare", 200), ("extra", 500)):
        _update(har, rules, name, code)
    return har


def deleted_twice() -> HarBuilder:
    """A delete answering how many it removed: 1, then 0 for a rule no read ever showed (its
    absence, not another entity's value)."""
    har = HarBuilder()
    rules = [{"id": "r-0001", "name": "base"}, {"id": "r-0002", "name": "spare"}]
    har.call("GET", "/rules", response=rules)
    for rule in rules:
        har.call("GET", f"/rules/{rule['id']}", response=rule)
    har.call("DELETE", "/rules/r-0002", response={"data": 1})
    har.call("GET", "/rules/r-0002", status=404, response={"error": "no such rule"})
    har.call("GET", "/rules", response=rules[:1])
    har.call("DELETE", "/rules/r-0009", response={"data": 0})
    har.call("GET", "/rules", response=rules[:1])
    return har


@pytest.mark.parametrize("capture, method, template", [
    (statuses_repeat, "PATCH", "/rules/{rule_id}"), (deleted_twice, "DELETE", "/rules/{rule_id}")],
    ids=["a-status-repeating-across-entities", "a-call-on-an-entity-not-held"])
def test_a_value_answered_apart_for_no_entity_of_its_own_is_not_judged_bound(capture, method, template,
                                                                             tmp_path) -> None:
    write = plan(build_from(capture(), tmp_path / "capture.har"), method, template)
    notes = [e.reason for e in write.traces if e.table == "plans" and "a value of the entity" in (e.reason or "")]
    assert not notes, notes


def headed(key_length_named: bool) -> HarBuilder:
    """Updates answering the entity and a header naming it (``X-Rule: r-lockout``, or the short
    ``X-Rule: 7`` and ``X-Rule: 8`` on two rules), beside a header naming none (``X-Served-By``)."""
    har = HarBuilder()
    ids = ("r-lockout", "r-spare") if key_length_named else ("7", "8")
    rules = [{"id": rule_id, "active": True} for rule_id in ids]
    har.call("GET", "/rules", response=rules)
    for rule in rules:
        har.call("GET", f"/rules/{rule['id']}", response=rule)
    for rule in rules:
        rule["active"] = False
        har.call("PATCH", f"/rules/{rule['id']}", body={"active": False}, response=rule,
                 response_headers=[("X-Rule", f"{rule['id']}"), ("X-Served-By", "node-1")])
        har.call("GET", f"/rules/{rule['id']}", response=rule)
    return har


@pytest.mark.parametrize("key_length_named", [True, False], ids=["long-key", "short-keys-two-calls"])
def test_a_header_naming_the_exemplars_entity_is_left_out_of_the_answer(key_length_named, tmp_path) -> None:
    from capenv.serving.writes.answers import answer_headers

    write = plan(build_from(headed(key_length_named), tmp_path / "capture.har"), "PATCH", "/rules/{rule_id}")
    assert write.served, write.reason
    assert write.response.entity_headers == ("x-rule",)
    kept = {name.lower() for name, _ in answer_headers(write.response)}
    assert "x-rule" not in kept and "x-served-by" in kept, kept
