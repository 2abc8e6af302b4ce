"""A list read at a collection's word with a method glued after a colon lists that collection.

The resourcer convention spells actions as ``resource:action`` (NocoBase's ``/api/authors:list``
beside the plain ``/api/authors`` and ``/api/authors/{id}``): the list is the collection's own, not
a type of its own holding copies of its entities (which leaves every write of the collection
unserved, ``verdict.copied-entities``). The ``view-colon-list-reads`` table decides per list tool;
a joined tool lists the stem's type, and its paths name the stem's collection
(``extract.collection_path`` reads ``authors:list`` as ``authors`` there; where ``path-colon-actions``
spelled the verb as its own segment, ``/api/authors/:list``, the collection is the path before it).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.rules_engine import evaluate

TABLE = "view-colon-list-reads"


def join_colon_lists(by_template: dict[str, dict[str, Any]], reader: Any) -> None:
    """Move each colon list the table takes for its stem's own into the stem's entry (lists only:
    an entry with item views is a type of its own)."""
    if TABLE not in reader.ruleset.tables:
        return
    from capenv.interpreter.predicates.colon_list_reads import ColonListReadContext

    for template in list(by_template):
        entry = by_template[template]
        head, _, last = template.rpartition("/")
        stem, colon, verb = last.rpartition(":")
        if not colon or not verb or entry["items"] or not entry["lists"] or entry.get("keyed"):
            continue
        # glued (/api/authors:list), or spelled as its own segment by path-colon-actions (/api/authors/:list)
        stem_template = f"{head}/{stem}" if stem else head
        if not stem_template.strip("/"):
            continue
        target = by_template.get(stem_template)
        stem_read = target is not None and bool(target["lists"] or target["items"])
        stem_id = None
        if target is not None:
            stem_id = target["id_field"] or next((s.id_field for s in target["items"] if s.id_field), None)
        context = ColonListReadContext(template=template, verb=verb, stem_template=stem_template, stem_read=stem_read,
                                       stem_id_field=stem_id, id_field=entry["id_field"])
        decision = evaluate(reader.ruleset, TABLE, context, subject=f"{template} colon list")
        reader.traces.extend(decision.events)
        if decision.yields.get("alias") and target is not None:
            target["lists"].extend(entry["lists"])
            target["id_field"] = target["id_field"] or entry["id_field"]
            del by_template[template]
