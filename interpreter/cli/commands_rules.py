"""``capenv rules check|doc|show``: validate tables, generate their reference, show one rule."""

from __future__ import annotations

import argparse
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.rules_engine.docgen import render_rules_doc
from capenv.interpreter.rules_engine.fixture_run import fixture_failures
from capenv.interpreter.rules_engine.loader import fixture_problems, load_rules

from .generated import write_or_check
from .project import project_file

DEFAULT_DOC = "docs/rules.md"
"""Inside the capenv checkout this code runs from (``project.py``), wherever the command is run."""


def register(sub: argparse._SubParsersAction) -> None:
    rules = sub.add_parser("rules", help="validate, document and show the rule tables")
    verbs = rules.add_subparsers(dest="rules_command", metavar="VERB", required=True)

    check = verbs.add_parser("check", help="validate every table (and each rule's fixture cases)")
    check.add_argument("directory", nargs="?", help="a rules directory (default: the packaged rules/)")
    check.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    check.set_defaults(handler=_check)

    doc = verbs.add_parser("doc", help="generate docs/rules.md from the tables")
    doc.add_argument("--check", action="store_true", help="fail when the file is stale instead of writing it")
    doc.add_argument("--output", help=f"where the reference goes (default: the project's {DEFAULT_DOC}, "
                                      "whatever the current directory)")
    doc.add_argument("--rules", help="a rules directory (default: the packaged rules/)")
    doc.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    doc.set_defaults(handler=_doc)

    show = verbs.add_parser("show", help="print one rule with its file and line")
    show.add_argument("rule_id")
    show.add_argument("--rules", help="a rules directory (default: the packaged rules/)")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_show)


def _check(args: argparse.Namespace) -> int:
    ruleset = load_rules(args.directory, with_fixtures=True)
    problems = fixture_problems(ruleset) + fixture_failures(ruleset)
    count = len(ruleset.all_rules())
    if args.json:
        from .commands_env import print_json

        print_json({"ok": not problems, "tables": len(ruleset.tables), "rules": count,
                    "settings": len(ruleset.settings), "revision": ruleset.revision, "problems": problems})
    if problems:
        raise UserError(f"{len(problems)} problem(s): " + "; ".join(problems))
    if args.json:
        return 0
    print(f"ok: {len(ruleset.tables)} tables, {count} rules, {len(ruleset.settings)} settings files "
          f"({ruleset.revision})")
    return 0


def _doc(args: argparse.Namespace) -> int:
    ruleset = load_rules(args.rules)
    text = render_rules_doc(ruleset)
    output = Path(args.output) if args.output else project_file(DEFAULT_DOC)
    members = {"tables": len(ruleset.tables), "rules": len(ruleset.all_rules()), "revision": ruleset.revision}
    return write_or_check(output, text, check=args.check, regenerate="run `capenv rules doc`",
                          as_json=members if args.json else None)


def _show(args: argparse.Namespace) -> int:
    ruleset = load_rules(args.rules)
    try:
        rule = ruleset.rule(args.rule_id)
    except KeyError:
        import difflib

        ids = [r.id for r in ruleset.all_rules()]
        close = difflib.get_close_matches(args.rule_id, ids, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UserError(f"no rule {args.rule_id!r}{hint}") from None
    calls = [{"predicate": c.spec.name, "negated": c.negated, "params": c.params.model_dump(),
              "defined_at": c.spec.source, "doc": c.spec.summary()} for c in rule.calls + rule.unless]
    data = {"id": rule.id, "table": rule.table, "location": rule.location, "summary": rule.summary,
            "predicates": calls, "yields": rule.yields, "serve": rule.serve}
    if args.json:
        print(dumps(data, indent=True).decode())
        return 0
    if rule.id != args.rule_id:
        print(f"({args.rule_id} was renamed to {rule.id})")
    print(f"{rule.id}  ({rule.location}, table {rule.table})")
    print(f"  {rule.summary}")
    for call in calls:
        neg = "unless " if call["negated"] else "when "
        params = ", ".join(f"{k}={dumps(v).decode()}" for k, v in call["params"].items())
        print(f"  {neg}{call['predicate']}({params})  — {call['doc']}  [{call['defined_at']}]")
    if rule.yields:
        print(f"  yields {dumps(rule.yields).decode()}")
    if rule.serve:
        print(f"  serve  {rule.serve}")
    return 0
