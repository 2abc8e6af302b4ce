"""``capenv inspect``: records, origins and the inferred manifest of a capture."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .options import add_capture_options
from .progress import progress_printer

if TYPE_CHECKING:  # the build side is imported when a verb runs, not when it is registered
    from capenv.interpreter.evidence.records import Evidence
    from capenv.interpreter.manifest.models import Manifest


def register(sub: argparse._SubParsersAction) -> None:
    inspect = sub.add_parser("inspect", help="records, origins and the inferred manifest of a capture")
    inspect.add_argument("capture", help="a HAR 1.2 file (.har, .har.gz, .zhar, or a Playwright .zip; side files beside it)")
    inspect.add_argument("--json", action="store_true", help="one JSON object for scripts")
    add_capture_options(inspect)
    inspect.set_defaults(handler=_inspect)


def read_capture(args: argparse.Namespace) -> tuple[Evidence, Manifest]:
    """Evidence and manifest from the shared capture options."""
    from capenv.interpreter.evidence.application import require_an_application
    from capenv.interpreter.evidence.har import load_evidence
    from capenv.interpreter.manifest.infer import build_manifest
    from capenv.interpreter.manifest.overrides import load_overrides
    from capenv.interpreter.rules_engine import load_rules

    ruleset = load_rules(getattr(args, "rules", None))
    evidence = load_evidence(args.capture, origin=args.origin, progress=progress_printer("reading"), ruleset=ruleset)
    require_an_application(evidence, of_the_primary_origin=False)  # inspect may look at any origin
    overrides = load_overrides(args.overrides) if getattr(args, "overrides", None) else None
    return evidence, build_manifest(evidence, ruleset, overrides)


def inspect_document(evidence: Evidence, manifest: Manifest) -> dict:
    return {
        "source": evidence.source,
        "evidence_id": evidence.evidence_id,
        "records": len(evidence.records),
        "primary_origin": evidence.primary_origin,
        "origins": dict(sorted(evidence.origins.items())),
        "warnings": list(evidence.warnings),
        "timing_rule": evidence.timing_rule,
        "rules_revision": manifest.rules_revision,
        "tools": [{"name": t.name, "method": t.method, "template": t.template, "path": t.spelled_template,
                   "params": list(t.params),
                   "query_names": list(t.query_names), "records": len(t.record_ordinals),
                   "record_ordinals": list(t.record_ordinals), "changes_state": t.changes_state}
                  for t in manifest.tools],
    }


def _inspect(args: argparse.Namespace) -> int:
    from capenv.interpreter.bundle.jsonvalue import dumps

    evidence, manifest = read_capture(args)
    document = inspect_document(evidence, manifest)
    if args.json:
        print(dumps(document, indent=True).decode())
        return 0
    print(f"{evidence.source}: {len(evidence.records)} records, evidence {evidence.evidence_id}")
    for origin, count in document["origins"].items():
        mark = "  (primary)" if origin == evidence.primary_origin else ""
        print(f"  origin {origin}: {count} records{mark}")
    for warning in evidence.warnings:
        print(f"  warning: {warning}")
    print(f"\n{len(manifest.tools)} tools:")
    rows = [(t.name, t.method, t.spelled_template, str(len(t.record_ordinals)), "writes" if t.changes_state else "reads")
            for t in manifest.tools]
    widths = [max(len(r[i]) for r in rows) for i in range(4)] if rows else []
    for row in rows:
        print("  " + "  ".join(col.ljust(widths[i]) for i, col in enumerate(row[:4])) + "  " + row[4])
    decisions = [e for e in manifest.traces if e.outcome == "match"
                 and e.table in ("manifest-path-spans", "manifest-span-words", "manifest-segments")]
    if decisions:
        print("\nsegments (why a segment is a parameter or a literal):")
        for event in decisions:
            shown = ", ".join(f"{k}={v}" for k, v in event.evidence.items())
            print(f"  {event.subject}  {event.rule_id}" + (f"  ({shown})" if shown else ""))
    return 0
