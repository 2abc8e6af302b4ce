"""Evaluation: order decides, vetoes veto, all-of records every match, defaults apply, and
every consumer (text, coverage) reads the same trace events (STYLE.md habits 5-7, 11)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.rules_copy import line_of

from capenv.interpreter.predicates.names import MemberNameContext, ParamNamingContext
from capenv.interpreter.predicates.text_shapes import SegmentContext
from capenv.interpreter.rules_engine import (
    Match, Miss, coverage, evaluate, evaluate_rule, load_rules, render_text,
)

REAL_RULES = Path(__file__).resolve().parents[2] / "rules"
SEGMENTS = "manifest-segments"
NAMING = "manifest-param-naming"


@pytest.fixture(scope="module")
def real():
    return load_rules()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def move_rule(path: Path, rule_id: str, *, before: str) -> None:
    """Cut the block of ``rule_id`` out of a table file and paste it before ``before``'s block."""
    text = path.read_text(encoding="utf-8")
    head, _, body = text.partition("rules:\n")
    blocks = re.split(r"(?m)^(?=  - id: )", body)
    blocks = [b for b in blocks if b]
    moving = next(b for b in blocks if b.startswith(f"  - id: {rule_id}\n"))
    blocks.remove(moving)
    index = next(i for i, b in enumerate(blocks) if b.startswith(f"  - id: {before}\n"))
    blocks.insert(index, moving)
    path.write_text(head + "rules:\n" + "".join(blocks), encoding="utf-8")


def segment(ruleset, value: str, **extra):
    return evaluate(ruleset, SEGMENTS, SegmentContext(value=value, **extra), subject=f"segment {value!r}")


# --- first-match order --------------------------------------------------------------------

def test_first_match_stops_at_the_first_rule_that_holds(real):
    decision = segment(real, "12345678")  # digits, but also an 8-character hex and base62 token
    assert decision.matched == ("segment.integer",)
    assert decision.yields == {"shape": "integer"}
    assert [e.outcome for e in decision.events] == ["match"]


def test_reordering_two_rules_changes_the_decision_and_the_trace(rules_dir, real):
    path = rules_dir / f"{SEGMENTS}.yaml"
    move_rule(path, "segment.integer", before="segment.base62-token")
    moved = load_rules(rules_dir)
    assert segment(real, "12345678").rule_id == "segment.integer"
    decision = segment(moved, "12345678")
    assert decision.rule_id == "segment.hex-token"
    assert decision.yields == {"shape": "hex-token", "token_model": True}
    order = [r.id for r in moved.table(SEGMENTS).rules]
    tried = order[: order.index("segment.hex-token")]
    assert [e.rule_id for e in decision.events] == tried + ["segment.hex-token"]
    for event in decision.events[:-1]:
        assert event.outcome == "miss" and event.reason, event
        assert event.location == f"rules/{SEGMENTS}.yaml:{line_of(path, f'id: {event.rule_id}')}"
    assert decision.events[-1].outcome == "match"
    assert decision.events[-1].location == f"rules/{SEGMENTS}.yaml:{line_of(path, 'id: segment.hex-token')}"
    assert moved.revision != real.revision


def test_miss_reasons_say_why(real):
    decision = segment(real, "deadbeefcafe")  # hex letters only: no digit, and no letters+digits
    reasons = {e.rule_id: e.reason for e in decision.events if e.outcome == "miss"}
    assert "does not match" in reasons["segment.integer"]
    assert reasons["segment.hex-token"] == "segment_has_classes: holds no digit"
    assert reasons["segment.returned-identity"] == "never returned as an identity"


def test_a_rule_with_several_calls_needs_them_all(real):
    rule = real.rule("segment.hex-token")
    assert isinstance(evaluate_rule(rule, SegmentContext(value="a1b2c3d4")), Match)
    outcome = evaluate_rule(rule, SegmentContext(value="a1b2"))
    assert isinstance(outcome, Miss) and outcome.reason.startswith("segment_matches: ")


# --- unless ------------------------------------------------------------------------------

def test_unless_vetoes_a_rule_that_would_match(real, rules_dir):
    decision = evaluate(real, NAMING, ParamNamingContext(previous="status"), subject="status")
    plural_s = next(e for e in decision.events if e.rule_id == "param-name.plural-s")
    assert plural_s.outcome == "miss"
    assert plural_s.reason.startswith("vetoed by previous_segment_ends_with") and "us" in plural_s.reason
    assert decision.rule_id is None
    path = rules_dir / f"{NAMING}.yaml"
    edit(path, "    unless: [{predicate: previous_segment_ends_with, params: {suffixes: [ss, us, is]}}]\n", "")
    without_veto = evaluate(load_rules(rules_dir), NAMING, ParamNamingContext(previous="status"), subject="status")
    assert without_veto.rule_id == "param-name.plural-s"


def test_unless_lets_a_rule_through_when_the_veto_misses(real):
    decision = evaluate(real, NAMING, ParamNamingContext(previous="posts"), subject="posts")
    assert decision.rule_id == "param-name.plural-s"
    assert decision.yields["strip"] == 1


# --- defaults ----------------------------------------------------------------------------

def test_table_default_when_nothing_matches(real):
    decision = segment(real, "comments")
    table = real.table(SEGMENTS)
    assert decision.matched == () and decision.rule_id is None and not decision.ok
    assert decision.yields == table.default == {"shape": "literal"}
    assert [e.rule_id for e in decision.events] == [r.id for r in table.rules] + [None]
    assert all(e.outcome == "miss" for e in decision.events[:-1])
    last = decision.events[-1]
    assert last.outcome == "default" and last.evidence == {"shape": "literal"}
    assert last.location.startswith(f"rules/{SEGMENTS}.yaml")


def test_a_table_without_default_yields_nothing(rules_dir):
    edit(rules_dir / f"{SEGMENTS}.yaml", "default: {shape: literal}\n", "")
    decision = segment(load_rules(rules_dir), "comments")
    assert decision.yields == {}
    assert all(e.outcome == "miss" for e in decision.events)


def test_default_yields_are_a_copy(real):
    decision = segment(real, "comments")
    decision.yields["shape"] = "tampered"
    assert real.table(SEGMENTS).default == {"shape": "literal"}


# --- all-of ------------------------------------------------------------------------------

ALL_OF = """\
table: zz-member-flags
summary: Every flag a member name raises.
context: member-name
evaluation: all-of
default: {flag: none}
rules:
  - id: flag.reference
    summary: Ends in _id.
    when: member_name_ends_with
    params: {suffixes: [_id]}
    yields: {flag: reference}
  - id: flag.never
    summary: A word no test uses.
    when: member_name_in
    params: {words: [zzz]}
    yields: {flag: never}
  - id: flag.tag-id
    summary: Exactly tag_id.
    when: member_name_in
    params: {words: [tag_id]}
    yields: {flag: tag}
"""


def test_all_of_records_every_match_and_every_miss(rules_dir):
    (rules_dir / "zz-member-flags.yaml").write_text(ALL_OF, encoding="utf-8")
    ruleset = load_rules(rules_dir)
    decision = evaluate(ruleset, "zz-member-flags", MemberNameContext(name="tag_id"), subject="tag_id")
    assert decision.matched == ("flag.reference", "flag.tag-id")
    assert decision.yields == {"flag": "reference"}  # the first match's yields
    assert [(e.rule_id, e.outcome) for e in decision.events] == [
        ("flag.reference", "match"), ("flag.never", "miss"), ("flag.tag-id", "match")]
    assert decision.events[1].reason
    assert decision.events[2].location == f"rules/zz-member-flags.yaml:{line_of(rules_dir / 'zz-member-flags.yaml', 'id: flag.tag-id')}"


def test_all_of_without_a_match_takes_the_default(rules_dir):
    (rules_dir / "zz-member-flags.yaml").write_text(ALL_OF, encoding="utf-8")
    decision = evaluate(load_rules(rules_dir), "zz-member-flags", MemberNameContext(name="title"), subject="title")
    assert decision.matched == () and decision.yields == {"flag": "none"}
    assert [e.outcome for e in decision.events] == ["miss", "miss", "miss", "default"]


def test_the_same_table_as_first_match_stops_early(rules_dir):
    (rules_dir / "zz-member-flags.yaml").write_text(ALL_OF.replace("all-of", "first-match"), encoding="utf-8")
    decision = evaluate(load_rules(rules_dir), "zz-member-flags", MemberNameContext(name="tag_id"), subject="t")
    assert decision.matched == ("flag.reference",)
    assert len(decision.events) == 1


def test_only_restricts_the_rules_tried(real):
    decision = evaluate(real, SEGMENTS, SegmentContext(value="12345678"), subject="s",
                        only={"segment.hex-token", "segment.base62-token"})
    assert decision.rule_id == "segment.hex-token"
    assert {e.rule_id for e in decision.events} == {"segment.hex-token"}


# --- revision ----------------------------------------------------------------------------

def test_rules_revision_follows_the_content_of_the_tables(rules_dir, real):
    copy = load_rules(rules_dir)
    assert copy.revision == real.revision  # same bytes, same revision, wherever the directory is
    assert re.fullmatch(r"rules-[0-9a-f]{16}", copy.revision)
    assert segment(copy, "42").rules_revision == copy.revision
    edit(rules_dir / f"{SEGMENTS}.yaml", 'max_length: 20}', 'max_length: 21}')
    changed = load_rules(rules_dir)
    assert changed.revision != real.revision
    assert segment(changed, "42").rules_revision == changed.revision
    edit(rules_dir / f"{SEGMENTS}.yaml", 'max_length: 21}', 'max_length: 20}')
    assert load_rules(rules_dir).revision == real.revision


def test_unknown_table_is_a_key_error(real):
    with pytest.raises(KeyError, match="no rule table"):
        evaluate(real, "no-such-table", SegmentContext(value="1"), subject="x")


# --- consumers of the one trace-event type -------------------------------------------------

def _events(ruleset):
    events = []
    for value in ("42", "6f1c3a52-1d1a-4a57-9d7b-000000000001", "comments", "deadbeefcafe", "a1b2c3d4e5"):
        events.extend(segment(ruleset, value).events)
    for previous in ("posts", "status", None):
        events.extend(evaluate(ruleset, NAMING, ParamNamingContext(previous=previous), subject=f"p {previous}").events)
    return events


def test_render_text_and_coverage_read_the_same_events(real):
    events = _events(real)
    text = render_text(events)
    lines = text.splitlines()
    assert len(lines) == len(events)
    for line, event in zip(lines, events):
        assert event.subject in line and event.outcome in line and event.location in line
        assert (event.rule_id or "(default)") in line
        if event.outcome == "miss":
            assert event.reason in line
    counts = coverage(events)
    assert sum(sum(c.values()) for c in counts.values()) == sum(1 for e in events if e.rule_id)
    for rule_id, counter in counts.items():
        for outcome in ("match", "miss"):
            assert counter[outcome] == sum(1 for e in events if e.rule_id == rule_id and e.outcome == outcome)
        rendered = [l for l in lines if f" {rule_id} " in l]
        assert len(rendered) == sum(counter.values())
    assert counts["segment.integer"]["match"] == 1
    assert counts["segment.uuid"] == {"miss": 3, "match": 1}  # "42" stops before it
    assert set(counts) <= {r.id for r in real.all_rules()}


def test_render_text_filters_without_losing_rows(real):
    events = _events(real)
    misses = render_text(events, show="misses").splitlines()
    matches = render_text(events, show="matches").splitlines()
    assert len(misses) == sum(1 for e in events if e.outcome == "miss")
    assert len(matches) == sum(1 for e in events if e.outcome != "miss")
    assert len(misses) + len(matches) == len(render_text(events).splitlines())
    assert all(" miss " in line for line in misses)
    assert not any(" miss " in line for line in matches)
    assert render_text([]) == ""


# --- redirects ---------------------------------------------------------------------------

def test_redirect_from_resolves_an_old_id(rules_dir):
    path = rules_dir / f"{SEGMENTS}.yaml"
    edit(path, "    yields: {shape: integer}\n", "    yields: {shape: integer}\n    redirect_from: [segment.digits]\n")
    ruleset = load_rules(rules_dir)
    assert ruleset.redirects["segment.digits"] == "segment.integer"
    assert ruleset.rule("segment.digits") is ruleset.rule("segment.integer")
    assert ruleset.rule("segment.digits").location == f"rules/{SEGMENTS}.yaml:{line_of(path, 'id: segment.integer')}"
    with pytest.raises(KeyError):
        ruleset.rule("segment.digitz")
    with pytest.raises(KeyError):
        load_rules().rule("segment.digits")  # the real tables have no such redirect
