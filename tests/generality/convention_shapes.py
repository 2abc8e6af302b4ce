"""How ``ConventionApp`` wraps what it answers and what it is sent: item answers and request bodies
(bare, ``{"data": …}``, ``{"notes": [{…}]}``, Rails' singular ``{"note": {…}}``, JSON:API resource
objects) and lists (a bare array, ``{"data": …}``, DRF's pages, counters beside the rows, Rails'
``total_count``/``offset``/``limit``, ``{"entries", "total_entries"}``, ``{"data", "meta"}``).

Each function takes the conventions (``c``) and returns the JSON value; the application answers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import convention_more as more

if TYPE_CHECKING:
    from .convention_app import Conventions

DEFAULT_LIMIT = 25
"""The page a Rails-style or ``meta``-counting list answers without a ``limit``."""


def singular(kind: str) -> str:
    """The member name of one entity of a kind (``notes`` → ``note``)."""
    return kind[:-1] if kind.endswith("s") else kind


def item(c: Conventions, kind: str, entity: dict[str, Any]) -> Any:
    """An item answer (JSON:API aside: ``resource``)."""
    shape = c.item_shape
    if shape == "bare":
        return entity
    if shape == "data":
        return {"data": entity}
    if shape == "success":
        return {"success": True, "data": entity}
    if shape == "singular":
        return {singular(kind): entity}
    return {kind: [entity]}


EDITABLE = {"notes": ("title", "body", "done"), "tags": ("label", "color")}
"""The members a ``split-fixed`` answer shows whatever the call sent."""


def split_answer(c: Conventions, kind: str, entity: dict[str, Any], sent: dict[str, Any], with_id: bool) -> Any:
    """A write's answer splitting the identity from the entity (Flask-AppBuilder), its members sorted
    as Flask's JSON encoder sorts them."""
    names = EDITABLE[kind] if c.write_answer == "split-fixed" else tuple(sent)
    result = {name: entity[name] for name in sorted(names) if name in entity}
    return {"id": entity["id"], "result": result} if with_id else {"result": result}


def body(c: Conventions, kind: str, members: dict[str, Any], key: Any = None) -> Any:
    """A request body in the convention's shape (``key``: the entity an update names; a JSON Patch
    is a bare array whatever the shape)."""
    if c.json_patch and key is not None:
        return more.patch_ops(members)
    shape = c.body_shape
    if shape == "jsonapi":
        return {"data": {"type": kind, **({"id": str(key)} if key is not None else {}), "attributes": members}}
    if shape == "bare":
        return members
    if shape == "data":
        return {"data": members}
    if shape == "singular":
        return {singular(kind): members}
    return {kind: [members]}


def unwrap(c: Conventions, kind: str, sent: Any) -> Any:
    """The members a request body sends, or None when it is not in the convention's shape."""
    shape = c.body_shape
    if shape == "bare":
        return sent
    if not isinstance(sent, dict):
        return None
    if shape == "jsonapi":
        data = sent.get("data")
        if not isinstance(data, dict) or data.get("type") != kind or not isinstance(data.get("attributes"), dict):
            return None
        return data["attributes"]
    if shape == "data":
        return sent.get("data")
    if shape == "singular":
        return sent.get(singular(kind))
    rows = sent.get(kind)
    return rows[0] if isinstance(rows, list) and len(rows) == 1 else None


def page(c: Conventions, query: dict[str, str]) -> tuple[int, int]:
    """``(offset, limit)`` a counting list echoes."""
    limit = int(query.get("limit", DEFAULT_LIMIT))
    if c.paging == "page":
        return (max(int(query.get("page", 1)), 1) - 1) * limit, limit
    return int(query.get("offset", 0)), limit


def listing(c: Conventions, kind: str, rows: list[dict[str, Any]], total: int, query: dict[str, str]) -> Any:
    """A list answer of ``rows`` (a page of ``total`` entities)."""
    shape = c.list_shape
    offset, limit = page(c, query)
    shapes = {
        "bare": lambda: rows,
        "data": lambda: {"data": rows},
        "success": lambda: {"success": True, "data": rows},
        "items_total": lambda: {"items": rows, "total": total},
        "plural_total": lambda: {kind: rows, "total_entries": total},
        "plural_meta": lambda: {kind: rows, "meta": {"pagination": {"page": 1,
                                                                     "limit": int(query.get("limit", c.page_size or 15)),
                                                                     "total": total}}},
        "meta_pages": lambda: more.meta_pages(c, kind, rows, total, query),
        "data_meta": lambda: {"data": rows, "meta": {"pagination": {"total": total, "count": len(rows)}}},
        "data_meta_total": lambda: {"data": rows, "meta": {"total_count": total, "limit": limit, "offset": offset}},
        "rails": lambda: {kind: rows, "total_count": total, "offset": offset, "limit": limit},
        "entries": lambda: {"entries": rows, "total_entries": total},
        "jsonapi": lambda: {"data": [resource(kind, row) for row in rows], "meta": {"total": total}},
        "jsonapi_ids": lambda: {"data": [{"type": kind, "id": str(row["id"])} for row in rows], "meta": {"total": total}},
    }
    if shape in shapes:
        return shapes[shape]()
    nxt = None
    if len(rows) < total:
        nxt = f"http://testserver{c.collection(kind)}?" + "&".join(
            f"{k}={v}" for k, v in more.page_query(c, int(query.get("limit") or len(rows)), offset + len(rows)).items())
    return {"count": total, "next": nxt, "previous": None, "results": rows}


# --- JSON:API ----------------------------------------------------------------------------------
def resource(kind: str, entity: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "id": str(entity["id"]),
            "attributes": {k: v for k, v in entity.items() if k != "id"}}


# --- member names and self links ---------------------------------------------------------------
NAMES = {"snake": {}, "mongo-camel": {"id": "_id", "created_at": "createdAt", "updated_at": "updatedAt"},
         "short": {"created_at": "created", "updated_at": "modified"}}


def renamed(c: Conventions, value: Any) -> Any:
    """An answer with the identity and clocks named as the convention names them."""
    names = NAMES[c.names]
    if not names:
        return value
    if isinstance(value, list):
        return [renamed(c, v) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(c, v) for k, v in value.items()}
    return value


def self_link(c: Conventions, kind: str, key: Any) -> dict[str, Any]:
    """The members linking an entity to its own item path."""
    href = f"http://testserver{c.item(kind, key)}"
    return {"none": {}, "url": {"url": href}, "hal": {"_links": {"self": {"href": href}}}}[c.links]
