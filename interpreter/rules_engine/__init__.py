"""The rule engine: YAML tables validated at load, evaluated in order, every decision traced."""

from .evaluate import evaluate, evaluate_rule, evaluate_table
from .loader import CompiledRule, CompiledTable, RuleSet, default_rules_dir, load_rules
from .registry import Match, Miss, NoParams, context_model, predicate
from .trace import Decision, TraceEvent, coverage, render_text
from .yaml_source import RuleFileError

__all__ = [
    "CompiledRule", "CompiledTable", "Decision", "Match", "Miss", "NoParams", "RuleFileError", "RuleSet",
    "TraceEvent", "context_model", "coverage", "default_rules_dir", "evaluate", "evaluate_rule",
    "evaluate_table", "load_rules", "predicate", "render_text",
]
