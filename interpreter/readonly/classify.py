"""Decide which POST tools only read: the ways (first match), then the vetoes, to a fixed point.

A tool's calls are no writes while it is taken to be read-only, and that changes what the
rules see: way 1 needs "no write between" a GET and the call, and a veto needs "no other
write between" two reads. So the decision starts from every POST tool taken to be
read-only and drops tools until nothing changes:

1. each round judges every tool still in the set by ``readonly-ways``, with the calls of the
   tools in the set counted as no writes; tools no way matches are dropped;
2. when no tool lost its way, the round goes on to judge every tool by ``readonly-vetoes``
   with the same writes; every vetoed tool is dropped at once (nothing shows which of two
   tools between the same reads changed them);
3. the next round tries the ways again, since a dropped tool's calls now count as writes;
   it ends with a round that drops nothing.

Dropping a tool makes its calls writes, which can only take vetoes away from the others
(their read pairs gain a write between), never add one. So a drop cascades through way 1:
a tool whose answers matched the GET before it only while a dropped tool's calls were
discounted loses its way in the next ways round.
"""

from __future__ import annotations

from capenv.interpreter.evidence.records import Evidence
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

from .contexts import vetoes_context, ways_context
from .models import ReadOnlyResult, ReadOnlyRound, ReadOnlyVerdict
from .timeline import Timeline

WAYS_TABLE = "readonly-ways"
VETOES_TABLE = "readonly-vetoes"
SETTINGS = "readonly"
POST = "POST"


def classify_read_only_posts(evidence: Evidence, manifest: Manifest, ruleset: RuleSet) -> ReadOnlyResult:
    """Judge every POST tool of ``manifest``: does it only read, by which way, or which veto kept it a write."""
    timeline = Timeline(evidence, manifest, tuple(ruleset.setting(SETTINGS, "unchanged_write_status_range")))
    tools = [tool for tool in manifest.tools if tool.method == POST]
    by_name = {tool.name: tool for tool in tools}
    considered = frozenset(by_name)
    ways: dict[str, Decision] = {}
    first_ways: dict[str, Decision] = {}
    vetoes: dict[str, Decision] = {}
    dropped_in: dict[str, int] = {}
    rounds: list[ReadOnlyRound] = []
    while True:
        number = len(rounds) + 1
        writes = timeline.writes(considered)
        judged = {name: evaluate(ruleset, WAYS_TABLE, ways_context(by_name[name], timeline, writes), subject=name)
                  for name in sorted(considered)}
        ways.update(judged)
        for name, decision in judged.items():
            first_ways.setdefault(name, decision)
        no_way = sorted(name for name, decision in judged.items() if not decision.yields.get("read_only"))
        events = [event for decision in judged.values() for event in decision.events]
        vetoed: list[str] = []
        if not no_way:  # the ways have settled for this set: now the vetoes
            judged = {name: evaluate(ruleset, VETOES_TABLE, vetoes_context(by_name[name], timeline, writes),
                                     subject=name) for name in sorted(considered)}
            vetoes.update(judged)
            vetoed = sorted(name for name, decision in judged.items() if decision.matched)
            events += [event for decision in judged.values() for event in decision.events]
        rounds.append(ReadOnlyRound(round=number, considered=tuple(sorted(considered)), no_way=tuple(no_way),
                                    vetoed=tuple(vetoed), vetoes_tried=not no_way, events=tuple(events)))
        dropped = set(no_way) | set(vetoed)
        for name in dropped:
            dropped_in[name] = number
        if not dropped:
            break
        considered -= dropped
    final = len(rounds)
    verdicts = tuple(_verdict(tool, ways[tool.name], first_ways[tool.name], vetoes.get(tool.name),
                              tool.name in considered, dropped_in.get(tool.name, final)) for tool in tools)
    return ReadOnlyResult(evidence_id=evidence.evidence_id, rules_revision=ruleset.revision,
                          tools=verdicts, rounds=tuple(rounds))


def _verdict(tool: Tool, ways: Decision, first: Decision, vetoes: Decision | None, read_only: bool,
             round_: int) -> ReadOnlyVerdict:
    events = ways.events + (vetoes.events if vetoes else ())
    common = dict(tool=tool.name, template=tool.template, read_only=read_only, rule=ways.rule_id,
                  first_rule=first.rule_id if first.rule_id != ways.rule_id else None,
                  decided_in_round=round_, events=events)
    if read_only:
        return ReadOnlyVerdict(**common, reason=f"only reads by {ways.rule_id}", evidence=ways.evidence)
    if ways.rule_id is None:
        return ReadOnlyVerdict(**common, reason=_no_way(ways, first, round_))
    assert vetoes is not None and vetoes.matched, "a tool a way matched is dropped only by a veto"
    veto = vetoes.matched[0]
    evidence = next(e.evidence for e in vetoes.events if e.rule_id == veto and e.outcome == "match")
    return ReadOnlyVerdict(**common, veto=veto, vetoes=vetoes.matched, evidence=evidence,
                           reason=f"{ways.rule_id} matched, but {veto} kept it a write (round {round_})")


def _no_way(ways: Decision, first: Decision, round_: int) -> str:
    misses = "; ".join(f"{e.rule_id}: {e.reason}" for e in ways.events if e.outcome == "miss")
    lost = (f" ({first.rule_id} matched in round 1, before other tools were dropped and their calls became writes)"
            if first.rule_id else "")
    return f"no way shows it only reads in round {round_}{lost}: {misses}"
