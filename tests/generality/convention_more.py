"""More conventions of ``ConventionApp``: JSON Patch updates (RFC 6902), slugs derived from a title
(``-2`` when taken) and read in place of the id, soft deletes (``deleted_at``), lists paged by
``?limit=&page=``, and the filters ``filter[done]=true`` and ``filter={"done":{"_eq":true}}``.

Each function takes the application (``app``) or the conventions (``c``) and decides what one
convention decides; the application's routing calls them.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from capenv.serving.compare.sides import Observed

from . import convention_extras as extras
from . import convention_shapes as shapes

if TYPE_CHECKING:
    from .convention_app import ConventionApp
    from .conventions import Conventions

JSON_PATCH = "application/json-patch+json"


# --- JSON Patch --------------------------------------------------------------------------------
def patch_ops(members: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON Patch a client sends to set ``members`` (each a ``replace`` of a held member)."""
    return [{"op": "replace", "path": f"/{name}", "value": value} for name, value in members.items()]


def patched(app: ConventionApp, entity: dict[str, Any], headers: tuple[tuple[str, str], ...],
            body: Any) -> tuple[dict[str, Any], list[str]] | Observed:
    """The members a JSON Patch sets and those it removes, or the application's refusal: another
    content type is 415, an operation other than replace/add/remove, a path deeper than one member,
    or a replace or remove of a member the entity lacks is invalid."""
    sent_type = next((v for k, v in headers if k.lower() == "content-type"), "")
    if sent_type.split(";")[0].strip() != app.c.patch_media_type:
        return app._json(415, {"detail": f"updates are sent as {app.c.patch_media_type}"})
    if not isinstance(body, list):
        return extras.invalid(app, "a JSON Patch is an array of operations")
    members: dict[str, Any] = {}
    removed: list[str] = []
    for op in body:
        if not isinstance(op, dict) or op.get("op") not in ("replace", "add", "remove"):
            return extras.invalid(app, "operations are replace, add and remove")
        path = op.get("path")
        if not isinstance(path, str) or not re.fullmatch(r"/[A-Za-z_][A-Za-z0-9_]*", path):
            return extras.invalid(app, f"unsupported path {path!r}")
        name = path[1:]
        internal = {shown: own for own, shown in shapes.NAMES[app.c.names].items()}.get(name, name)
        held = (internal in entity or name in members) and name not in removed
        if op["op"] != "add" and not held:
            return extras.invalid(app, f"{path} does not exist")
        if op["op"] == "remove":
            members.pop(name, None)
            removed.append(name)
            continue
        if "value" not in op:
            return extras.invalid(app, f"{op['op']} needs a value")
        members[name] = op["value"]
        if name in removed:
            removed.remove(name)
    return members, removed


# --- slugs -------------------------------------------------------------------------------------
def slug(app: ConventionApp, kind: str, title: Any) -> str:
    """The title lower-cased and hyphenated; with ``slug_reads`` one held already takes ``-2``, ``-3``…"""
    base = re.sub(r"[^a-z0-9]+", "-", str(title or "").lower()).strip("-") or "untitled"
    if not app.c.slug_reads:
        return base
    held = {row.get("slug") for row in app.kinds[kind].values()}
    candidate, suffix = base, 1
    while candidate in held:
        suffix += 1
        candidate = f"{base}-{suffix}"
    return candidate


def by_slug(app: ConventionApp, kind: str, key: str) -> dict[str, Any] | None:
    if not app.c.slug_reads:
        return None
    return next((row for row in app.kinds[kind].values() if row.get("slug") == key), None)


def read_by_slug(app: ConventionApp, method: str, kind: str, key: str) -> Observed:
    """A read at the slug's own path (``slug_path``): the note holding it, else the absence."""
    if method != "GET":
        return app._json(405, {"detail": "Method Not Allowed"})
    entity = by_slug(app, kind, key)
    return app._absent() if entity is None else app._item(kind, entity)


def renamed(app: ConventionApp, kind: str, key: Any, members: dict[str, Any]) -> set[str] | Observed:
    """``{"slug"}`` when an update renames the slug (``slug_renames``), a 409 when another note
    holds the new one, else nothing."""
    if not (app.c.slug_renames and app.c.slugs and "slug" in members):
        return set()
    if not isinstance(members["slug"], str) or not members["slug"]:
        return extras.invalid(app, "slug must be a non-empty string")
    if any(row.get("slug") == members["slug"] for k, row in app.kinds[kind].items() if k != key):
        return app._json(409, {"detail": f"slug {members['slug']} is taken"})
    return {"slug"}


# --- soft deletes ------------------------------------------------------------------------------
def is_deleted(app: ConventionApp, entity: dict[str, Any] | None) -> bool:
    return bool(app.c.soft_delete and entity is not None and entity.get("deleted_at") is not None)


def listed(app: ConventionApp, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lists leave soft-deleted entities out."""
    return [row for row in rows if not is_deleted(app, row)]


# --- paging ------------------------------------------------------------------------------------
DEFAULT_LIMIT = 15
"""The ``limit`` a ``meta_pages`` list names when the call sends none."""


def window(c: Conventions, query: dict[str, str], total: int) -> tuple[int, int]:
    """``(offset, limit)`` of the page a list call asks for."""
    limit = int(query.get("limit", c.page_size or total))
    if c.paging == "page":
        return (max(int(query.get("page", 1)), 1) - 1) * limit, limit
    return int(query.get("offset", 0)), limit


def meta_pages(c: Conventions, kind: str, rows: list[dict[str, Any]], total: int, query: dict[str, str]) -> Any:
    limit = int(query.get("limit", c.page_size or DEFAULT_LIMIT))
    page = max(int(query.get("page", 1)), 1) if c.paging == "page" else int(query.get("offset", 0)) // limit + 1
    pages = max(math.ceil(total / limit), 1)
    return {kind: rows, "meta": {"pagination": {"page": page, "limit": limit, "pages": pages, "total": total,
                                                "next": page + 1 if page < pages else None,
                                                "prev": page - 1 if page > 1 else None}}}


def page_query(c: Conventions, limit: int, offset: int) -> dict[str, str]:
    """A list call's query asking for ``limit`` entities from ``offset`` (a multiple of ``limit``
    when paged by page number)."""
    if c.paging == "page":
        return {"limit": str(limit), **({"page": str(offset // limit + 1)} if offset else {})}
    return {"limit": str(limit), **({"offset": str(offset)} if offset else {})}


# --- filters -----------------------------------------------------------------------------------
PLAIN_FILTER = re.compile(r"filter\[(\w+)\]")


def _text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def filtered(app: ConventionApp, rows: list[dict[str, Any]], query: dict[str, str]) -> list[dict[str, Any]]:
    style = app.c.query_style
    if style == "plain_brackets":
        for key, value in query.items():
            found = PLAIN_FILTER.fullmatch(key)
            if found:
                rows = [row for row in rows if _text(row.get(found.group(1))) == value]
    if style == "json_filter" and "filter" in query:
        try:
            wanted = json.loads(query["filter"])
        except ValueError:
            return rows
        for name, condition in (wanted.items() if isinstance(wanted, dict) else ()):
            if isinstance(condition, dict) and "_eq" in condition:
                rows = [row for row in rows if row.get(name) == condition["_eq"]]
    if style == "include" and "author" in query.get("include", "").split(","):
        rows = [{**row, "author": {"id": 1, "name": "Ana"}} for row in rows]
    return rows
