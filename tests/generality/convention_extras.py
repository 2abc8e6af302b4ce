"""The conventions of ``ConventionApp`` beyond paths, envelopes and identities: how validation
errors are written, optimistic concurrency, item actions, bulk deletes by query, nested
sub-collections with their own ids, an admin/content split, ``update_mask`` and JSON:API's
absence answer (its shapes are ``convention_shapes``).

Each function takes the application (``app``) and answers or changes what one convention decides;
the application's routing calls them.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from capenv.serving.compare.sides import Observed

from . import convention_shapes as shapes

if TYPE_CHECKING:
    from .convention_app import ConventionApp

JSONAPI = (("content-type", "application/vnd.api+json"),)
PROBLEM = (("content-type", "application/problem+json"),)
ACTION = "archive"


def invalid(app: ConventionApp, problem: str) -> Observed:
    """A refused body, written the way the application writes validation errors."""
    status = app.c.invalid_status
    if app.c.errors == "problem":
        return app._json(status, {"type": "about:blank", "title": "Validation failed", "status": status,
                                  "detail": problem}, PROBLEM)
    if app.c.errors == "errors":
        return app._json(status, {"errors": [{"message": problem, "extensions": {"code": "INVALID_PAYLOAD"}}]})
    return app._json(status, {"detail": problem})


# --- optimistic concurrency ------------------------------------------------------------------
def stale(app: ConventionApp, entity: dict[str, Any], members: dict[str, Any]) -> Observed | None:
    """409 when the update does not carry the entity's current token (``version`` or ``updated_at``)."""
    token = app.c.concurrency
    if token in ("none", "if-match", "if-match-optional"):
        return None
    shown = shapes.NAMES[app.c.names].get(token, token)  # sent back under the name answers show
    if shown not in members:
        return invalid(app, f"{shown} is required")
    if members[shown] != entity.get(token):
        return app._json(409, {"detail": f"{token} is stale: the entity was changed since it was read"})
    return None


def etag(entity: dict[str, Any]) -> str:
    return f'"{entity.get("version")}"'


def with_etag(app: ConventionApp, answer: Observed, entity: dict[str, Any]) -> Observed:
    """An item read names the entity's version in its ``ETag`` header."""
    if not app.c.concurrency.startswith("if-match"):
        return answer
    return Observed(answer.status, answer.headers + (("etag", etag(entity)),), answer.body)


def precondition(app: ConventionApp, entity: dict[str, Any], headers: tuple[tuple[str, str], ...]) -> Observed | None:
    """428 without an ``If-Match`` header, 412 when it names another version than the entity's."""
    if not app.c.concurrency.startswith("if-match"):
        return None
    sent = next((value for name, value in headers if name.lower() == "if-match"), None)
    if sent is None and app.c.concurrency == "if-match-optional":
        return None
    if sent is None:
        return app._json(428, {"detail": "If-Match is required"})
    if sent != etag(entity):
        return app._json(412, {"detail": "the entity was changed since it was read"})
    return None


def bump(app: ConventionApp, entity: dict[str, Any]) -> None:
    if app.c.concurrency in ("version", "if-match", "if-match-optional") or app.c.version_counter:
        entity["version"] = int(entity.get("version", 0)) + 1


# --- item actions and bulk deletes -----------------------------------------------------------
def action_of(app: ConventionApp, parts: list[str]) -> tuple[str, str] | None:
    """``(kind, key)`` of ``{kind}/{key}/archive`` or ``{kind}/{key}:archive``, else None."""
    if app.c.actions == "segment" and len(parts) == 3 and parts[2] == ACTION:
        return parts[0], parts[1]
    if app.c.actions == "colon" and len(parts) == 2 and parts[1].endswith(":" + ACTION):
        return parts[0], parts[1][: -len(ACTION) - 1]
    return None


def archive(app: ConventionApp, method: str, kind: str, key: str) -> Observed:
    entity = app.kinds[kind].get(key)
    if entity is None:
        return app._absent()
    if method != "POST":
        return app._json(405, {"detail": "Method Not Allowed"})
    if not entity.get("archived"):
        entity["archived"] = True
        entity["updated_at"] = app._now()
        bump(app, entity)
    return app._item(kind, entity)


def bulk_delete(app: ConventionApp, kind: str, query: dict[str, str]) -> Observed:
    """``DELETE {collection}?ids=1,2``: every id must be held, else nothing is deleted (404)."""
    keys = [key for key in query.get("ids", "").split(",") if key]
    if not keys:
        return invalid(app, "ids is required")
    if any(key not in app.kinds[kind] for key in keys):
        return app._absent()
    for key in keys:
        del app.kinds[kind][key]
    return app._json(200, {"deleted": len(keys)})


def put_create(app: ConventionApp, kind: str, key: str, body: Any) -> Observed:
    """A PUT naming a name no entity holds creates the entity under it (an upsert)."""
    members = app._unwrap(kind, body)
    problem = app._invalid(members)
    if problem is not None:
        return invalid(app, problem)
    return app._item(kind, app._insert(kind, {**members, app.c.key_member: key}), 201)


# --- nested comments with their own item paths -------------------------------------------------
def seed_comments(app: ConventionApp) -> None:
    """One comment on each of the first two notes."""
    for note, text in zip(list(app.kinds["notes"])[:2], ("seeded remark", "another remark")):
        app.comment_sequence += 1
        now = app._now()
        app.comments[note] = [{"id": app.comment_sequence, "text": text, "created_at": now, "updated_at": now}]


def nested_comments(app: ConventionApp, method: str, note_key: str, comment_key: str | None, body: Any) -> Observed:
    """``{note}/comments`` (list, create) and ``{note}/comments/{comment}`` (read, update, delete):
    comments have their own id space and change nothing of their note."""
    if note_key not in app.kinds["notes"]:
        return app._absent()
    held = app.comments.setdefault(note_key, [])
    if comment_key is None:
        if method == "GET":
            return app._list("comments", held, len(held), {})
        if method != "POST":
            return app._json(405, {"detail": "Method Not Allowed"})
        members = app._unwrap("comments", body)
        if not isinstance(members, dict) or not isinstance(members.get("text"), str):
            return invalid(app, "text must be a string")
        app.comment_sequence += 1
        now = app._now()
        comment = {"id": app.comment_sequence, "text": members["text"], "created_at": now, "updated_at": now}
        held.append(comment)
        return app._item("comments", comment, 201)
    found = next((c for c in held if str(c["id"]) == comment_key), None)
    if found is None:
        return app._absent()
    if method == "GET":
        return app._item("comments", found)
    if method == app.c.update:
        members = app._unwrap("comments", body)
        if not isinstance(members, dict) or not isinstance(members.get("text"), str):
            return invalid(app, "text must be a string")
        found.update(text=members["text"], updated_at=app._now())
        return app._item("comments", found)
    if method == "DELETE":
        held.remove(found)
        return Observed(204, (), b"")
    return app._json(405, {"detail": "Method Not Allowed"})


# --- admin writes, content reads ---------------------------------------------------------------
def content_prefix(app: ConventionApp) -> str:
    """Where the split application answers reads of the same entities (``…/admin`` → ``…/content``)."""
    return app.c.prefix[: -len("/admin")] + "/content"


def as_admin(app: ConventionApp, method: str, path: str) -> str | Observed:
    """A content path read as its admin path; a write there is not allowed."""
    if method != "GET":
        return app._json(405, {"detail": "the content API only reads"})
    return app.c.prefix + path[len(content_prefix(app)):]


# --- update_mask -------------------------------------------------------------------------------
def masked(app: ConventionApp, members: dict[str, Any], query: dict[str, str]) -> dict[str, Any] | Observed:
    """The members ``update_mask`` lists (all of them must be sent); the others are ignored. Without
    a mask every member sent is written (Google's AIP-134: an implied mask of the populated fields)."""
    names = [unquote(n) for n in query.get("update_mask", "").split(",") if n]
    if not names:
        return members
    missing = [n for n in names if n not in members]
    if missing:
        return invalid(app, f"update_mask names members the body does not send: {missing}")
    return {n: members[n] for n in names}


# --- list queries ------------------------------------------------------------------------------
FILTER = re.compile(r"filter\[(\w+)\]\[_eq\]")


def _text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def queried(app: ConventionApp, kind: str, rows: list[dict[str, Any]], query: dict[str, str]) -> list[dict[str, Any]]:
    """The rows a list answers under the convention's query style (before paging)."""
    style = app.c.query_style
    label = "title" if kind == "notes" else "label"
    if style == "order_by" and query.get("order_by", "").lstrip("-") in ("title", "label", "created_at"):
        name = query["order_by"]
        rows = sorted(rows, key=lambda row: _text(row.get(name.lstrip("-"))), reverse=name.startswith("-"))
    if style == "sort_colon" and query.get("sort", "").partition(":")[0] in ("title", "label"):
        name, _, direction = query["sort"].partition(":")
        rows = sorted(rows, key=lambda row: _text(row.get(name)), reverse=direction == "desc")
    if style == "brackets":
        for key, value in query.items():
            found = FILTER.fullmatch(key)
            if found:
                rows = [row for row in rows if _text(row.get(found.group(1))) == value]
    if style == "fields" and query.get("fields"):
        names = query["fields"].split(",")
        rows = [{name: row[name] for name in names if name in row} for row in rows]
    if style == "expand" and query.get("expand") == "stats":
        rows = [{**row, "stats": {"length": len(str(row.get(label, "")))}} for row in rows]
    return rows


# --- JSON:API ----------------------------------------------------------------------------------
def jsonapi_absent(app: ConventionApp) -> Observed:
    return app._json(404, {"errors": [{"status": "404", "title": "Not Found"}]}, JSONAPI)
