"""``capenv explain BUNDLE [TOOL] [--field NAME] [--json]``: the explanation traces."""

from __future__ import annotations

import argparse
import re
import sys

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.rules_engine.trace import TraceEvent, render_text


def register(sub: argparse._SubParsersAction) -> None:
    explain = sub.add_parser("explain", help="the explanation traces: each decision's rule, evidence and misses")
    explain.add_argument("bundle")
    explain.add_argument("tool", nargs="?", help="one tool (a write plan's or a read view's)")
    explain.add_argument("--field", help="only the decisions about one field or member")
    explain.add_argument("--show", choices=["all", "matches", "misses"], default="all")
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=_explain)


def _mentions(event: TraceEvent, name: str) -> bool:
    return re.search(rf"(^|[^A-Za-z0-9_]){re.escape(name)}($|[^A-Za-z0-9_])", event.subject) is not None


def _unknown_field(args: argparse.Namespace, plans: list) -> str:
    known = sorted({f.field for p in plans for f in p.fields} | {m.member for p in plans for m in p.members})
    where = args.tool or args.bundle
    return (f"no decision about a field {args.field!r} in {where}"
            + (f"; fields and members with decisions: {', '.join(known)}" if known else ""))


def _volatile_decisions(bundle, header: dict) -> list[TraceEvent]:
    """Why members of the tool's type are volatile (view-volatile-members): checks take their
    observed values."""
    type_name = header.get("type") if header["kind"] == "write" else getattr(bundle.view.view(header["tool"]), "type", None)
    if not type_name:
        return []
    return [e for e in bundle.view.traces
            if e.table == "view-volatile-members" and e.subject.startswith(f"{type_name}.")]


def _type_decisions(bundle, header: dict) -> list[TraceEvent]:
    """Why members of the tool's type belong to a query, not the entity (view-query-members), and,
    for an item write, which of its recorded calls say how it answers a missing entity
    (write-absence-answers)."""
    type_name = header.get("type") if header["kind"] == "write" else getattr(bundle.view.view(header["tool"]), "type", None)
    found = [e for e in bundle.view.traces if type_name and e.table == "view-query-members"
             and e.subject.startswith(f"{type_name} member ")]
    if header["kind"] == "write":
        found += [e for e in bundle.view.traces if e.table == "write-absence-answers"
                  and e.subject.startswith(f"{header['tool']} ") and e.outcome == "match"]
    return found


def _absence(view) -> dict | None:
    """The absence answer an item view learned (view-absence-answers), for the header."""
    absence = view.absence
    if absence is None:
        return None
    return {"status": absence.recording.status, "rule": absence.rule_id, "record": absence.recording.ordinal,
            "from_tool": absence.from_tool, "records": list(absence.records), "proof": absence.proof}


def _reference(rule) -> dict:
    """A body member naming another type's entity (write-references), and what a dangling value does."""
    return {"member": rule.member, "type": rule.type, "collection": rule.collection_template, "rule": rule.rule_id,
            "dangling": rule.dangling, "dangling_rule": rule.dangling_rule_id, "record": rule.record,
            "checked": rule.checked, "blanks": list(rule.blanks)}


DANGLING_WORDS = {"refused": "refused, as the application refused one", "unrecorded":
                  "refused, as no recorded call shows the application accepting one",
                  "accepted": "stored as sent, as the application accepted one",
                  "materialized": "refused, as the application made the entity one named (the write stays unserved)"}


def reference_line(reference: dict) -> str:
    """``reference post: an id of records at /posts (rule); naming none: refused, as … (rule, record N)``"""
    cited = ", ".join(str(p) for p in (reference["dangling_rule"] or "write-reference-dangling default",
                                       f"record {reference['record']}" if reference["record"] is not None else None)
                      if p)
    blanks = f"; {', '.join(map(repr, reference['blanks']))} accepted as recorded" if reference["blanks"] else ""
    return (f"reference {reference['member']}: an id of {reference['type']} at {reference['collection']} "
            f"({reference['rule']}); a value naming none is {DANGLING_WORDS[reference['dangling']]} ({cited}){blanks}")


def _validated(rule) -> dict:
    """A body member whose values the application validates (write-validated-values)."""
    return {"member": rule.member, "accepted": list(rule.accepted), "rule": rule.rule_id, "record": rule.record,
            "status": rule.status, **({"layout": rule.layout} if rule.layout else {}),
            **({"max_length": rule.max_length} if rule.max_length is not None else {})}


def validated_line(validated: dict) -> str:
    """``validated kind: only "X-Note" accepted (rule; record N refused 422 another value)``"""
    if validated.get("max_length") is not None:
        return (f"validated {validated['member']}: only text of {validated['max_length']} characters or fewer "
                f"accepted, the longest recorded successes sent ({validated['rule']}; record {validated['record']} "
                f"refused {validated['status']} a longer text)")
    if validated.get("layout"):
        return (f"validated {validated['member']}: only text matching {validated['layout']} accepted, the layout "
                f"recorded successes kept to ({validated['rule']}; record {validated['record']} refused "
                f"{validated['status']} another layout)")
    accepted = ", ".join(map(repr, validated["accepted"])) or "no value"
    return (f"validated {validated['member']}: only {accepted} accepted, as recorded successes sent "
            f"({validated['rule']}; record {validated['record']} refused {validated['status']} another value)")


SEGMENT_TABLES = ("manifest-path-spans", "manifest-span-words", "manifest-segments")


def _segment_decisions(manifest, name: str) -> list[TraceEvent]:
    """Why each segment of the tool's template is a parameter or a literal (the manifest's
    ``manifest-segments`` decisions at the template's prefixes; a parameter matches ``{…}``)."""
    tool = manifest.tool(name)
    mine = ["{…}" if s.is_param else s.literal for s in tool.segments]
    found = []
    for event in manifest.traces:
        # a value that joined a parameter by another rule names the parameter in its evidence
        subject = str(event.evidence.get("parameter", event.subject))
        theirs = subject.strip("/").split("/") if event.table in SEGMENT_TABLES else None
        if theirs and event.outcome == "match" and len(theirs) <= len(mine) and theirs == mine[:len(theirs)]:
            found.append(event)
    return found


def _explain(args: argparse.Namespace) -> int:
    bundle = read_bundle(args.bundle)
    plans = {p.tool: p for p in bundle.view.writes}
    tools = {t.name for t in bundle.manifest.tools}
    if args.tool and args.tool not in tools:
        import difflib

        close = difflib.get_close_matches(args.tool, sorted(tools), n=3)
        raise UserError(f"no tool {args.tool!r} in {args.bundle}" + (f"; did you mean {', '.join(close)}?" if close
                                                                     else f"; tools: {', '.join(sorted(tools))}"))
    # what each of a tool's recorded calls reached in the gate as a write no built plan models
    # (subject "record N"): shown with the tool that made the call
    reached: dict[int, list[TraceEvent]] = {}
    for event in bundle.view.traces:
        if event.table == "gate" and event.subject.startswith("record ") and event.subject[7:].isdigit():
            reached.setdefault(int(event.subject[7:]), []).append(event)
    ordinals = {t.name: t.record_ordinals for t in bundle.manifest.tools}
    sections = []
    for name in sorted(tools) if not args.tool else [args.tool]:
        plan = plans.get(name)
        view = bundle.view.view(name)
        if plan is not None:
            events = list(plan.traces)
            header = {"tool": name, "kind": "write", "effect": plan.effect, "type": plan.type,
                      "served": plan.served, "reason": plan.reason or plan.build_reason,
                      "fields": [{"field": f.field, "rule": f.rule_id, "op": f.op} for f in plan.fields],
                      "members": [{"member": m.member, "admission": m.admission, "rule": m.rule_id} for m in plan.members],
                      "insert": plan.insert.rule_id if plan.insert else None}
            if plan.references:
                header["references"] = [_reference(r) for r in plan.references]
            if plan.validated_values:
                header["validated_values"] = [_validated(r) for r in plan.validated_values]
        elif view is not None:
            events = [e for e in bundle.view.traces if e.subject.startswith(name)]
            header = {"tool": name, "kind": "read", "view": view.kind, "state_backed": view.state_backed,
                      "reason": view.reason, "absence": _absence(view)}
        else:
            continue
        events = (_segment_decisions(bundle.manifest, name) + events + _volatile_decisions(bundle, header)
                  + _type_decisions(bundle, header))
        events += [e for o in ordinals[name] for e in reached.get(o, [])]
        if args.field:
            events = [e for e in events if _mentions(e, args.field)]
            if header["kind"] == "write":
                header["fields"] = [f for f in header["fields"] if f["field"] == args.field]
                header["members"] = [m for m in header["members"] if m["member"] == args.field]
                if "references" in header:
                    header["references"] = [r for r in header["references"] if r["member"] == args.field]
                if "validated_values" in header:
                    header["validated_values"] = [r for r in header["validated_values"] if r["member"] == args.field]
        sections.append((header, events))
    if args.field and not any(events or header.get("fields") or header.get("members") for header, events in sections):
        raise UserError(_unknown_field(args, [plans[name] for name in ([args.tool] if args.tool else plans)
                                              if name in plans]))
    if args.json:
        payload = [{**header, "trace": [e.model_dump(mode="python") for e in events]} for header, events in sections]
        sys.stdout.write(dumps(payload[0] if args.tool else payload, indent=True).decode() + "\n")
        return 0
    for header, events in sections:
        if header["kind"] == "write":
            status = "served" if header["served"] else f"not served ({header['reason']})"
            print(f"{header['tool']}: {header['effect']} of {header['type'] or '-'}, {status}")
            for field in header["fields"]:
                print(f"  field {field['field']}: {field['rule']} -> {field['op']}")
            for member in header["members"]:
                print(f"  member {member['member']}: {member['admission']} ({member['rule']})")
            for reference in header.get("references", ()):
                print(f"  {reference_line(reference)}")
            for validated in header.get("validated_values", ()):
                print(f"  {validated_line(validated)}")
            if header["insert"]:
                print(f"  insert: {header['insert']}")
        else:
            status = "from state" if header["state_backed"] else f"replay ({header['reason']})"
            print(f"{header['tool']}: {header['view']} read, {status}")
            if header["absence"]:
                absence = header["absence"]
                print(f"  absence answer: {absence['status']} ({absence['rule']}, record {absence['record']}"
                      f" of {absence['from_tool']}; answered alike: {', '.join(map(str, absence['records']))})")
        text = render_text(events, show=args.show)
        if text:
            print("  " + text.replace("\n", "\n  "))
        print()
    return 0
