"""What the state holds below a delete's entities: documents and collections whose paths lie
under an entity's item path (``/books/solaris`` and ``/books/_all_docs`` under the database
``/books``).

Serving's delete removes the entity alone (the spec leaves a delete's dependents unmodelled), while
an application may take what lies below the entity with it, as deleting a CouchDB database takes
its documents. When the state holds anything there, serving would go on answering it after the
delete, so the plan stays unserved (``verdict.held-beneath``) and names what it would leave behind.
"""

from __future__ import annotations

from urllib.parse import quote

from capenv.interpreter.bundle.models import ViewResult, WritePlan


def held_beneath(plan: WritePlan, view: ViewResult) -> tuple[str, ...]:
    """The state paths (documents, collections) below an entity an item delete of ``plan`` names,
    sorted; empty for any other plan, or when nothing is held below its entities."""
    if plan.effect != "delete" or plan.address is None or plan.address.by != "path" or plan.type is None:
        return ()
    prefixes = set()
    for collection in view.state.collections:
        if collection.type != plan.type:
            continue
        base = collection.path.rstrip("/")
        for entity in collection.entities:
            prefixes |= {f"{base}/{entity.id}/", f"{base}/{quote(str(entity.id), safe='')}/"}
    held = [d.path for d in view.state.documents] + [c.path for c in view.state.collections]
    return tuple(sorted({path for path in held if any(path.startswith(prefix) for prefix in prefixes)}))
