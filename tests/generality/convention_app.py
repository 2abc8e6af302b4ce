"""A small REST application whose conventions are settings: where its collections live, whether its
paths end in a slash, how it wraps lists, items and request bodies, what identifies an entity, how
it answers an id it does not hold, and what a delete answers.

It stands in for the many real applications capenv has not seen: each setting is a convention real
APIs use, and the tests record a session with one combination, build the model, and hold the model
to the application on calls the session never made (0 wrong answers). It is a ``compare`` side
(``send(Outgoing) -> Observed``) and records its own HAR (``HarBuilder``).
"""

from __future__ import annotations

import copy
import json
import uuid
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any, Callable
from urllib.parse import unquote

from capenv.serving.compare.sides import Observed, Outgoing

from . import convention_extras as extras
from . import convention_more as more
from . import convention_projection as projection
from . import convention_shapes as shapes
from .conventions import Conventions

JSON = (("content-type", "application/json"),)
PROBLEM = (("content-type", "application/problem+json"),)


SEED = {
    "notes": [{"title": "Buy milk", "body": "two litres", "done": False},
              {"title": "Call Ana", "body": "about the trip", "done": True},
              {"title": "Fix the gate", "body": "hinge is loose", "done": False}],
    "tags": [{"label": "home", "color": "green"}, {"label": "work", "color": "blue"}],
}
NAMES = {"notes": ["milk", "ana", "gate"], "tags": ["home", "work"]}
SPACED_NAMES = {"notes": ["Café list", "call Ana", "gate/hinge"], "tags": ["at home", "wörk"]}
RICH = {"notes": {"labels": [], "extra": {"priority": 0}, "due": None}, "tags": {}}
"""The members seeded notes hold with ``rich_members``."""
SEEDED_AT = 1767225600
"""The instant (2026-01-01, in epoch seconds) the seeded entities' ObjectIds (``hex24``) carry."""
CONSTANT = {"id", "name", "created_at", "slug", "comment_count", "version", "archived", "url", "_links", "deleted_at"}


class ConventionApp:
    """The application, fresh and seeded; ``send`` answers one call (and records it when asked)."""

    def __init__(self, conventions: Conventions, recorder: Any | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        """``recorder``: a ``HarBuilder`` that gets every exchange, stamped at ``clock()`` (the
        application's own clock, so that its clocks fall inside the recorded calls)."""
        self.c = conventions
        self.recorder = recorder
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.kinds: dict[str, dict[str, dict[str, Any]]] = {kind: {} for kind in SEED}
        self.sequence = {kind: 0 for kind in SEED}
        self.object_counter = 0
        self.settings = {"theme": "light", "language": "en", "notify": True}
        self.comments: dict[str, list[dict[str, Any]]] = {}
        self.comment_sequence = 0
        for kind, rows in SEED.items():
            for index, row in enumerate(rows):
                name = (SPACED_NAMES if self.c.spaced_names else NAMES)[kind][index]
                extra = RICH[kind] if self.c.rich_members else {}
                self._insert(kind, {**({self.c.key_member: name} if self.c.ids == "name" else {}), **row, **extra},
                             seeding=True)
        if self.c.nested and self.c.seed_comments:
            extras.seed_comments(self)
        self.label = "live"

    # --- entities -------------------------------------------------------------------------------
    def _now(self) -> Any:
        moment = self.clock()
        if self.c.clocks == "epoch-seconds":
            return int(moment.timestamp())
        if self.c.clocks == "http-date":
            return format_datetime(moment.astimezone(timezone.utc), usegmt=True)
        if self.c.clocks == "js-date":  # Node.js's new Date().toString() with TZ=UTC
            rfc = format_datetime(moment.astimezone(timezone.utc))
            return f"{rfc[0:3]} {rfc[8:11]} {rfc[5:7]} {rfc[12:16]} {rfc[17:25]} GMT+0000 (Coordinated Universal Time)"
        if self.c.clocks == "iso-whole-seconds-z":
            return moment.replace(microsecond=0).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if self.c.clocks == "iso-us-offset":
            return moment.isoformat(timespec="microseconds")
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def _insert(self, kind: str, members: dict[str, Any], seeding: bool = False) -> dict[str, Any]:
        if self.c.ids in ("sequence", "text-sequence"):
            self.sequence[kind] += 1
            key: Any = self.sequence[kind] if self.c.ids == "sequence" else str(self.sequence[kind])
        elif self.c.ids == "hex24":  # an ObjectId: the clock's seconds, then an ascending counter
            self.object_counter += 1  # one counter for every collection: an ObjectId is unique database-wide
            seconds = SEEDED_AT if seeding else int(self.clock().timestamp())  # a seed's ids are the same every start
            key = f"{seconds:08x}a0b1c2d3e4{self.object_counter:06x}"
        elif self.c.ids == "uuid":  # seeded entities keep one id from start to start, as a seed script's do
            key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{kind}/{members['title' if kind == 'notes' else 'label']}")
                      if seeding else uuid.uuid4())
        else:
            key = members[self.c.key_member]
        now = self._now()
        if self.c.comments and kind == "notes":
            members = {**members, "comment_count": 0}
        if self.c.actions != "none" and kind == "notes":
            members = {**members, "archived": False}
        if self.c.concurrency in ("version", "if-match", "if-match-optional") or self.c.version_counter:
            members = {**members, "version": 1}
        if self.c.slugs and kind == "notes":
            members = {**members, "slug": more.slug(self, kind, members.get("title"))}
        if self.c.soft_delete:
            members = {**members, "deleted_at": None}
        entity = {"id": key, **{k: v for k, v in members.items() if k != "id"}, "created_at": now, "updated_at": now}
        if self.c.ids == "name":
            entity.pop("id")
            entity = {self.c.key_member: key, **{k: v for k, v in entity.items() if k != self.c.key_member}}
        entity.update(shapes.self_link(self.c, kind, key))
        self.kinds[kind][str(key)] = entity
        return entity

    # --- answers --------------------------------------------------------------------------------
    def _json(self, status: int, value: Any, headers=JSON) -> Observed:
        return Observed(status, headers, json.dumps(shapes.renamed(self.c, value)).encode())

    def _item(self, kind: str, entity: dict[str, Any], status: int = 200) -> Observed:
        if self.c.item_shape == "jsonapi":
            return self._json(status, {"data": shapes.resource(kind, entity)}, extras.JSONAPI)
        return self._json(status, shapes.item(self.c, kind, entity))

    def _list(self, kind: str, rows: list[dict[str, Any]], total: int, query: dict[str, str]) -> Observed:
        headers = extras.JSONAPI if self.c.list_shape.startswith("jsonapi") else JSON
        return self._json(200, shapes.listing(self.c, kind, rows, total, query), headers)

    def _absent(self) -> Observed:
        if self.c.item_shape == "jsonapi":
            return extras.jsonapi_absent(self)
        if self.c.absence == "404_detail":
            return self._json(404, {"detail": "Not Found"})
        if self.c.absence == "404_problem":
            return self._json(404, {"type": "about:blank", "title": "Not Found", "status": 404,
                                    "detail": "The requested resource does not exist."}, PROBLEM)
        if self.c.absence == "200_null":
            return self._json(200, None)
        if self.c.absence == "404_html":
            return Observed(404, (("content-type", "text/html; charset=utf-8"),), b"<h1>Not Found</h1>")
        if self.c.absence == "403_errors":
            return self._json(403, {"errors": [{"message": "You don't have permission to access this."}]})
        return self._json(404, {})

    def _unwrap(self, kind: str, body: Any) -> Any:
        return shapes.unwrap(self.c, kind, body)

    def _invalid(self, members: Any) -> str | None:
        if not isinstance(members, dict):
            return "the body must be an object"
        for key, value in members.items():
            if key in ("title", "body", "label", "color", "name", self.c.key_member) and not isinstance(value, str):
                return f"{key} must be a string"
            if key == "done" and not isinstance(value, bool):
                return "done must be a boolean"
        return None

    # --- routing --------------------------------------------------------------------------------
    def _route(self, path: str) -> tuple[str, str | None] | None:
        base = self.c.prefix + ("/items" if self.c.generic_segment else "")
        if not path.startswith(base + "/"):
            return None
        rest = path[len(base) + 1:]
        if self.c.ending:
            if not rest.endswith(self.c.ending):
                return None
            rest = rest[: -len(self.c.ending)]
        parts = [unquote(p) for p in rest.split("/")]
        if self.c.item_singular and len(parts) >= 2:
            # an entity's paths take the singular word; the plural with a key names nothing
            if parts[0] in self.kinds or parts[0] + "s" not in self.kinds:
                return None
            parts[0] += "s"
        if self.c.nested and len(parts) in (3, 4) and parts[0] == "notes" and parts[2] == "comments":
            return "nested", parts[1] + ("/" + parts[3] if len(parts) == 4 else "")
        if extras.action_of(self, parts) is not None:
            kind, key = extras.action_of(self, parts)
            return "action", f"{kind}/{key}"
        if self.c.comments and len(parts) == 3 and parts[0] == "notes" and parts[2] == "comments":
            return "comments", parts[1]
        if self.c.slug_path and len(parts) == 3 and parts[1] == self.c.slug_path and parts[0] in self.kinds:
            return "slug", f"{parts[0]}/{parts[2]}"
        if parts[0] not in self.kinds or len(parts) > 2:
            return None
        return parts[0], (parts[1] if len(parts) == 2 else None)

    def _comments(self, method: str, note_key: str, body: Any) -> Observed:
        note = self.kinds["notes"].get(note_key)
        if note is None:
            return self._absent()
        held = self.comments.setdefault(note_key, [])
        if method == "GET":
            return self._list("comments", held, len(held), {})
        if method != "POST":
            return self._json(405, {"detail": "Method Not Allowed"})
        members = self._unwrap("comments", body)
        if not isinstance(members, dict) or not isinstance(members.get("text"), str):
            return extras.invalid(self, "text must be a string")
        self.comment_sequence += 1
        comment = {"id": self.comment_sequence, "note": note.get("id", note.get("name")), "text": members["text"],
                   "created_at": self._now()}
        held.append(comment)
        note["comment_count"] = len(held)
        return self._item("comments", comment, 201)

    def send(self, request: Outgoing) -> Observed:
        answer = self._answer(request)
        if self.recorder is not None:
            self.recorder.call(request.method, request.path, query=list(request.query) or None,
                           request_type=dict(request.headers).get("content-type", "application/json"),
                               body=json.loads(request.body) if request.body else None, status=answer.status,
                               response=answer.body.decode() if answer.body else None,  # as written ("null" too)
                               response_type=dict(answer.headers).get("content-type", "application/json"),
                               headers=[(k, v) for k, v in request.headers if k.lower() != "content-type"] or None,
                               response_headers=[(k, v) for k, v in answer.headers if k.lower() != "content-type"]
                               or None,
                               started=self.clock() - timedelta(milliseconds=5))
        return answer

    def _settings(self, method: str, body: Any) -> Observed:
        wrap = (lambda value: {"data": value}) if self.c.item_shape == "data" else (lambda value: value)
        if method == "PATCH":
            members = body.get("data") if self.c.body_shape == "data" and isinstance(body, dict) else body
            if not isinstance(members, dict) or not all(isinstance(v, (str, bool)) for v in members.values()):
                return extras.invalid(self, "settings are strings and booleans")
            self.settings = {**self.settings, **members}
        elif method != "GET":
            return self._json(405, {"detail": "Method Not Allowed"})
        return self._json(200, wrap(self.settings))

    def _answer(self, request: Outgoing) -> Observed:
        if self.c.settings and request.path == self.c.document("settings"):
            body = json.loads(request.body) if request.body else None
            return self._settings(request.method, body)
        path = request.path
        if self.c.split and path.startswith(extras.content_prefix(self) + "/"):
            admin = extras.as_admin(self, request.method, path)
            if isinstance(admin, Observed):
                return admin
            path = admin
        route = self._route(path)
        if route is None:
            return self._json(404, {"detail": "Not Found"})
        kind, key = route
        query = {unquote(k): unquote(v) for k, v in request.query}
        pairs = tuple((unquote(k), unquote(v)) for k, v in request.query)
        body = json.loads(request.body) if request.body else None
        if kind == "comments":
            return self._comments(request.method, str(key), body)
        if kind == "nested":
            note, _, comment = str(key).partition("/")
            return extras.nested_comments(self, request.method, note, comment or None, body)
        if kind == "action":
            return extras.archive(self, request.method, *str(key).split("/", 1))
        if kind == "slug":
            return more.read_by_slug(self, request.method, *str(key).split("/", 1))
        rows = self.kinds[kind]
        if key is None and request.method == "GET":
            listed = more.listed(self, list(rows.values()))
            if self.c.order != "created":  # rows are held oldest (or least recently written) first
                listed.reverse()
            if self.c.queries and query.get("done") in ("true", "false"):
                listed = [row for row in listed if row.get("done") is (query["done"] == "true")]
            if self.c.queries and query.get("sort", "").lstrip("-") in ("title", "label"):
                field = query["sort"].lstrip("-")
                listed.sort(key=lambda row: str(row.get(field)), reverse=query["sort"].startswith("-"))
            listed = more.filtered(self, extras.queried(self, kind, listed, query), query)
            offset, limit = more.window(self.c, query, len(listed))
            page = [projection.project(self.c, row, pairs, kind) for row in listed[offset:offset + limit]]
            refused = next((row for row in page if isinstance(row, str)), None)
            if refused is not None:
                return extras.invalid(self, refused)
            return self._list(kind, page, len(listed), query)
        if key is None and request.method == "POST":
            members = self._unwrap(kind, body)
            problem = self._invalid(members)
            if problem is None and self.c.ids == "name" and not members.get(self.c.key_member):
                problem = f"{self.c.key_member} is required"
            if problem is not None:
                return extras.invalid(self, problem)
            if self.c.ids == "name" and str(members[self.c.key_member]) in rows:
                return self._json(409, {"detail": f"{members[self.c.key_member]} already exists"})
            inserted = self._insert(kind, members)
            if self.c.write_answer != "entity":
                return self._json(201, shapes.split_answer(self.c, kind, inserted, members, with_id=True))
            if self.c.create_answer == "201_id" and self.c.item_shape == "jsonapi":  # a resource identifier
                return self._json(201, {"data": {"type": kind, "id": str(inserted["id"])}}, extras.JSONAPI)
            if self.c.create_answer == "201_id":
                identity = self.c.key_member if self.c.ids == "name" else "id"
                return self._json(201, {identity: inserted[identity]})
            return self._item(kind, inserted, 200 if self.c.create_answer == "200_entity" else 201)
        if key is None and request.method == "DELETE" and self.c.bulk_delete:
            return extras.bulk_delete(self, kind, query)
        if key is None:
            return self._json(405, {"detail": "Method Not Allowed"})
        entity = rows.get(key)
        if entity is None and request.method == "GET" and not self.c.slug_path:
            entity = more.by_slug(self, kind, str(key))
        if more.is_deleted(self, entity) and request.method != "GET":
            entity = None  # a soft-deleted entity is read, never written
        if entity is None and self.c.put_creates and request.method == "PUT":
            return extras.put_create(self, kind, key, body)
        if entity is None:
            return self._absent()
        if request.method == "GET":
            shown = projection.project(self.c, entity, pairs, kind)
            if isinstance(shown, str):
                return extras.invalid(self, shown)
            return extras.with_etag(self, self._item(kind, shown), entity)
        if request.method == self.c.update:
            refused = extras.precondition(self, entity, request.headers)
            if refused is not None:
                return refused
            removed: list[str] = []
            if self.c.json_patch:
                patch = more.patched(self, entity, request.headers, body)
                if isinstance(patch, Observed):
                    return patch
                members, removed = patch
            else:
                members = self._unwrap(kind, body)
            problem = self._invalid(members)
            if problem is not None:
                return extras.invalid(self, problem)
            refused = extras.stale(self, entity, members)
            if refused is not None:
                return refused
            if self.c.update_mask:
                members = extras.masked(self, members, query)
                if isinstance(members, Observed):
                    return members
            renamed = more.renamed(self, kind, key, members)
            if isinstance(renamed, Observed):
                return renamed
            constant = (CONSTANT - renamed) | {self.c.key_member}
            kept = {k: v for k, v in entity.items() if k in constant}
            token = shapes.NAMES[self.c.names].get(self.c.concurrency)  # a token sent under another name
            changed = {k: v for k, v in members.items() if k not in constant and k != token}
            merges = self.c.update == "PATCH" or self.c.put_merges
            entity = {**entity, **changed} if merges else {**kept, **changed}
            entity = {k: v for k, v in entity.items() if k not in removed or k in constant}
            entity["updated_at"] = self._now()
            extras.bump(self, entity)
            if self.c.order == "recent-first":  # the written row moves to the end of the held order
                rows.pop(key)
            rows[key] = entity
            if self.c.write_answer != "entity":
                return self._json(200, shapes.split_answer(self.c, kind, entity, changed,
                                                           with_id=self.c.write_answer == "split-sent"))
            if self.c.update_answer == "200_success":
                return self._json(200, {"success": True})
            return Observed(204, (), b"") if self.c.update_answer == "204" else self._item(kind, entity)
        if request.method == "DELETE" and self.c.soft_delete:
            entity["deleted_at"] = self._now()
        elif request.method == "DELETE":
            del rows[key]
        if request.method == "DELETE":
            if self.c.delete_answer == "204":
                return Observed(204, (), b"")
            if self.c.delete_answer == "200_message":
                return self._json(200, {"message": "deleted"})
            return self._json(200, copy.deepcopy(entity) if self.c.delete_answer == "200_entity" else {})
        return self._json(405, {"detail": "Method Not Allowed"})
