"""The session and probes of the conventions in ``convention_extras``: the calls each one adds to
the recorded session (after the plain creates, updates and deletes) and to the probes.

``send(method, path, body=None, query=())`` sends one recorded call and returns its JSON answer.
"""

from __future__ import annotations

from typing import Any, Callable

from . import convention_extras as extras
from . import convention_projection as projection
from . import convention_shapes as shapes
from .convention_app import Conventions

Send = Callable[..., Any]


body = shapes.body


def entity_pointer(c: Conventions, kind: str) -> str:
    """Where an item answer holds its entity's members (a JSON pointer prefix)."""
    return {"bare": "", "data": "/data", "success": "/data", "plural_one": f"/{kind}/0", "singular": f"/{shapes.singular(kind)}",
            "jsonapi": "/data/attributes"}[c.item_shape]


def key_pointer(c: Conventions, kind: str) -> str:
    """Where a created entity's identity is in the create's answer."""
    if c.item_shape == "jsonapi":
        return "/data/id"
    if c.write_answer != "entity" and kind != "comments":
        return "/id"  # the identity beside the entity (Flask-AppBuilder's {"id", "result"})
    identity = shapes.NAMES[c.names].get("id", "id")
    if c.create_answer == "201_id" and kind != "comments":
        return f"/{c.key_member}" if c.ids == "name" else f"/{identity}"  # the create answers its identity alone
    return entity_pointer(c, kind) + (f"/{c.key_member}" if c.ids == "name" and kind != "comments" else f"/{identity}")


def at(value: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/") if pointer else ():
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def update_query(c: Conventions, members: dict[str, Any], left_out: str | None = None) -> tuple[tuple[str, str], ...]:
    """``left_out``: a member the body sends that the mask does not name (the update ignores it)."""
    return (("update_mask", ",".join(n for n in members if n != left_out)),) if c.update_mask else ()


def last_member(members: dict[str, Any], narrowed: bool) -> str | None:
    """The member a narrowed mask leaves out: the last one of what the entity holds (the concurrency
    token, added after, stays named)."""
    return list(members)[-1] if narrowed and len(members) > 1 else None


def token_field(c: Conventions) -> str:
    """The entity's member an update must send back as read (``if-match``: the version its ETag names),
    as answers name it (``updated_at`` is ``modified`` with short names)."""
    return "version" if c.concurrency.startswith("if-match") else shapes.NAMES[c.names].get(c.concurrency, c.concurrency)


def with_token(c: Conventions, members: dict[str, Any], token: Any) -> tuple[dict[str, Any], tuple]:
    """The body members and headers of an update sending ``token`` back."""
    if c.concurrency.startswith("if-match"):
        return members, (("if-match", f'"{token}"'),)
    return {**members, token_field(c): token}, ()


def recorded_update(c: Conventions, send: Send, kind: str, key: Any, members: dict[str, Any],
                    narrowed: bool = False) -> Any:
    """One update as a client makes it: under optimistic concurrency, read the entity first and
    send back its current token; ``narrowed``: an ``update_mask`` leaving the body's last member out."""
    headers: tuple = ()
    left_out = last_member(members, narrowed)
    if c.concurrency not in ("none", "if-match-optional"):
        read = send("GET", c.item(kind, key))
        members, headers = with_token(c, members, at(read, entity_pointer(c, kind) + "/" + token_field(c)))
    return send(c.update, c.item(kind, key), body(c, kind, members, key), query=update_query(c, members, left_out),
                headers=headers)


def update_probes(c: Conventions, name: str, kind: str, key: Any, members: dict[str, Any],
                  narrowed: bool = False) -> list[dict[str, Any]]:
    """The probes of one update: under optimistic concurrency a read saving the entity's token first
    (``narrowed``: an ``update_mask`` leaving the body's last member out)."""
    calls: list[dict[str, Any]] = []
    headers: tuple = ()
    left_out = last_member(members, narrowed)
    if c.concurrency != "none":
        token = f"{kind}_token"
        calls.append({"name": f"{name}: read first", "method": "GET", "path": c.item(kind, key),
                      "save": {token: entity_pointer(c, kind) + "/" + token_field(c)}})
        if c.concurrency != "if-match-optional":  # optional: the read saves the token, the update sends none
            members, headers = with_token(c, members, "{" + token + "}")
    calls.append(update_probe(c, name, kind, key, members, headers, left_out))
    return calls


def update_probe(c: Conventions, name: str, kind: str, key: Any, members: dict[str, Any],
                 headers: tuple = (), left_out: str | None = None) -> dict[str, Any]:
    query = dict(update_query(c, members, left_out))
    return {"name": name, "method": c.update, "path": c.item(kind, key), "body": body(c, kind, members, key),
            **({"query": query} if query else {}), **({"headers": dict(headers)} if headers else {})}


SEEDED_SLUGS = ("buy-milk", "call-ana", "fix-the-gate")
"""The slugs of the seeded notes (their titles lower-cased and hyphenated)."""
RENAMED = {"title": "Call Ana", "body": "renamed", "done": False}
"""The members an update renaming a slug sends beside it (whole, so a PUT keeps the note alike)."""


def record_initial_extras(c: Conventions, send: Send, keys: dict[str, list[Any]]) -> None:
    """Reads before the first write: the initial state holds only what they show (DESIGN.md §5)."""
    if c.slug_reads:  # each seeded note read at its slug too
        for slug in SEEDED_SLUGS:
            send("GET", c.by_slug("notes", slug))
    if c.split:
        for kind in keys:
            send("GET", content(c, c.collection(kind)))
            for key in keys[kind]:
                send("GET", content(c, c.item(kind, key)))
    if c.nested:
        for seeded, parent in enumerate(keys["notes"][:2], start=1):  # comment 1 on note 1, 2 on note 2
            send("GET", comments_path(c, parent))
            if c.seed_comments:
                send("GET", comments_path(c, parent, seeded))


def record_extras(c: Conventions, send: Send, keys: dict[str, list[Any]], key_of: Callable[[str, Any], Any]) -> None:
    """The recorded calls of the extra conventions (after the plain writes)."""
    note = keys["notes"][0]
    if c.concurrency != "none":  # a client sending a token it read before another write: 409 (412)
        read = send("GET", c.item("notes", note))
        old = at(read, entity_pointer(c, "notes") + "/" + token_field(c))
        members, headers = with_token(c, {"title": "Buy milk again", "body": "one litre", "done": False}, old)
        send(c.update, c.item("notes", note), body(c, "notes", members, note), headers=headers)
        send("GET", c.item("notes", note))
        members, headers = with_token(c, {"title": "stale", "body": "x", "done": True}, old)
        send(c.update, c.item("notes", note), body(c, "notes", members, note), headers=headers)
        send("GET", c.item("notes", note))
    if c.actions != "none":  # archived twice: the second call finds it archived already
        for _ in range(2):
            send("POST", action_path(c, note))
            send("GET", c.item("notes", note))
            send("GET", c.collection("notes"))
    if c.write_answer != "entity" and c.update == "PATCH":  # one member sent: the answer shows which projection
        send("PATCH", c.item("notes", note), body(c, "notes", {"done": False}, note))
        send("GET", c.item("notes", note))
    if c.put_creates:
        for index, name in enumerate(("put-made", "put-made-too")):
            path = c.item("notes", name)
            send("PUT", path, body(c, "notes", {"title": f"Made by PUT {index}", "body": "upsert", "done": False}))
            send("GET", path)
            send("GET", c.collection("notes"))
    if c.bulk_delete:
        made = [key_of("notes", send("POST", c.collection("notes"), body(c, "notes", {"title": t, "body": "", "done": False})))
                for t in ("Bulk one", "Bulk two", "Bulk three")]
        send("GET", c.collection("notes"))
        send("DELETE", c.collection("notes"), query=(("ids", ",".join(str(k) for k in made[:2])),))
        for key in made:
            send("GET", c.item("notes", key))
        send("GET", c.collection("notes"))
    if c.nested:
        made: list[Any] = []
        for parent in (note, keys["notes"][1]):
            comments = comments_path(c, parent)
            for text in ("first!", "agreed"):
                made.append(key_of("comments", send("POST", comments, body(c, "comments", {"text": text}))))
                send("GET", comments_path(c, parent, made[-1]))
                send("GET", comments)
        for comment, text in (((1, "a seeded remark, edited"),) if c.seed_comments else ()) + ((made[0], "first, edited"),):
            send(c.update, comments_path(c, note, comment), body(c, "comments", {"text": text}, comment))
            send("GET", comments_path(c, note, comment))
            send("GET", comments_path(c, note))
        send("DELETE", comments_path(c, note, made[1]))
        send("GET", comments_path(c, note, made[1]))
        send("GET", comments_path(c, note))
    if c.split and c.content_reads_after_writes:
        for kind in keys:
            send("GET", content(c, c.collection(kind)))
            for key in keys[kind]:
                send("GET", content(c, c.item(kind, key)))
    if c.slug_reads:  # a title taken already: its slug takes -2; the note read at its slug and its id
        made = key_of("notes", send("POST", c.collection("notes"), body(c, "notes", {
            **({c.key_member: "slug-twin"} if c.ids == "name" else {}), "title": "Call Ana", "body": "again",
            "done": False})))
        send("GET", c.by_slug("notes", "call-ana-2"))
        send("GET", c.item("notes", made))
        send("GET", c.collection("notes"))
        if c.slug_renames:  # the twin renamed: read at its new slug, its old one and its id
            recorded_update(c, send, "notes", made, {**RENAMED, "slug": "call-ana-again"})
            send("GET", c.by_slug("notes", "call-ana-again"))
            send("GET", c.by_slug("notes", "call-ana-2"))
            send("GET", c.item("notes", made))
    record_queries(c, send)
    projection.record(c, send, note)


QUERIES = {
    "order_by": ([("notes", {"order_by": "-title"}), ("tags", {"order_by": "label"})],
                 [("notes", {"order_by": "title"}), ("notes", {"order_by": "-title"}), ("tags", {"order_by": "-label"})]),
    "sort_colon": ([("notes", {"sort": "title:desc"}), ("tags", {"sort": "label:asc"})],
                   [("notes", {"sort": "title:asc"}), ("notes", {"sort": "title:desc"}), ("tags", {"sort": "label:desc"})]),
    "brackets": ([("notes", {"filter[done][_eq]": "false"})],
                 [("notes", {"filter[done][_eq]": "true"}), ("notes", {"filter[done][_eq]": "false"}),
                  ("notes", {"filter[title][_eq]": "Buy oat milk"})]),
    "fields": ([("notes", {"fields": "id,title"}), ("tags", {"fields": "id,label"})],
               [("notes", {"fields": "id,title"}), ("notes", {"fields": "title,done"}), ("tags", {"fields": "id,label"})]),
    "expand": ([("notes", {"expand": "stats"})], [("notes", {"expand": "stats"}), ("tags", {"expand": "stats"})]),
    "plain_brackets": ([("notes", {"filter[done]": "false"})],
                       [("notes", {"filter[done]": "true"}), ("notes", {"filter[done]": "false"}),
                        ("notes", {"filter[title]": "Buy oat milk"})]),
    "json_filter": ([("notes", {"filter": '{"done":{"_eq":false}}'})],
                    [("notes", {"filter": '{"done":{"_eq":true}}'}), ("notes", {"filter": '{"done":{"_eq":false}}'}),
                     ("notes", {"filter": '{"title":{"_eq":"Buy oat milk"}}'})]),
    "include": ([("notes", {"include": "author"})], [("notes", {"include": "author"}), ("tags", {"include": "author"})]),
}
"""Per query style: the list reads the session records (after its writes), and those the probes make."""


def record_queries(c: Conventions, send: Send) -> None:
    for kind, query in QUERIES.get(c.query_style, ([], []))[0]:
        send("GET", c.collection(kind), query=tuple(query.items()))


def query_probes(c: Conventions) -> list[dict[str, Any]]:
    def literal(text: str) -> str:  # a probe's query value is a template: its braces are doubled
        return text.replace("{", "{{").replace("}", "}}")

    return [{"name": f"{kind} by {literal(str(query))}", "method": "GET", "path": c.collection(kind),
             "query": {k: literal(v) for k, v in query.items()}}
            for kind, query in QUERIES.get(c.query_style, ([], []))[1]]


def action_path(c: Conventions, key: Any) -> str:
    item = c.item("notes", key)[: -len(c.ending) or None]
    return item + (":" if c.actions == "colon" else "/") + extras.ACTION + c.ending


def comments_path(c: Conventions, note: Any, comment: Any = None) -> str:
    return c.under("notes", note, "comments" + (f"/{comment}" if comment is not None else ""))


def content(c: Conventions, path: str) -> str:
    return c.prefix[: -len("/admin")] + "/content" + path[len(c.prefix):]


def with_content_affects(c: Conventions, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Under the admin/content split a write changes the content reads of its entity and collection
    too (a probe's ``affects``: the judge follows a write the two sides made differently there)."""
    if not c.split:
        return calls
    changed = []
    for call in calls:
        if call["method"] != "GET" and call["path"].startswith(c.prefix + "/"):
            item = call["path"]
            collection = item.rstrip("/").rsplit("/", 1)[0] + ("/" if c.slash else "")
            call = {**call, "affects": [content(c, item), content(c, collection)]}
        changed.append(call)
    return changed


def with_singular_affects(c: Conventions, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """With the item path in the singular (/note/5 beside /notes) a write there changes the plural
    list too, which no path prefix tells the judge: the probe says so (``affects``), as Alerta's do."""
    if not c.item_singular:
        return calls
    changed = []
    for call in calls:
        kind = next((k for k in ("notes", "tags") if call["path"].startswith(c.item(k, "")[:-len(c.ending) or None])),
                    None)
        if call["method"] != "GET" and kind is not None and not call["path"].startswith(c.collection(kind)):
            call = {**call, "affects": list(call.get("affects", [])) + [c.collection(kind)]}
        changed.append(call)
    return changed


def probe_extras(c: Conventions, keys: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The probes of the extra conventions (after the plain ones), on seeded entities."""
    note = keys["notes"][1]
    calls: list[dict[str, Any]] = []
    if c.concurrency != "none":
        tag = keys["tags"][0]
        calls += [update_probe(c, "a stale update", "notes", keys["notes"][2],
                               *with_token(c, {"title": "stale", "body": "x", "done": False}, "{notes_token}")),
                  *update_probes(c, "update seeded tag 1", "tags", tag, {"label": "house", "color": "green"}),
                  update_probe(c, "update seeded tag 1 again, stale", "tags", tag,
                               *with_token(c, {"label": "home", "color": "grey"}, "{tags_token}")),
                  {"name": "seeded tag 1 after", "method": "GET", "path": c.item("tags", tag)}]
    if c.actions != "none":
        calls += [{"name": "archive seeded note 2", "method": "POST", "path": action_path(c, note)},
                  {"name": "seeded note 2 archived", "method": "GET", "path": c.item("notes", note)},
                  {"name": "archive it again", "method": "POST", "path": action_path(c, note)},
                  {"name": "archive a missing note", "method": "POST", "path": action_path(c, "9999")}]
    if c.write_answer != "entity" and c.update == "PATCH":
        calls += [{"name": "a partial update", "method": "PATCH", "path": c.item("notes", note),
                   "body": body(c, "notes", {"done": False}, note)},
                  {"name": "seeded note 2 after the partial update", "method": "GET", "path": c.item("notes", note)}]
    if c.slug_reads:
        twin = {c.key_member: "probe-twin"} if c.ids == "name" else {}
        calls += [{"name": "seeded note 2 at its slug", "method": "GET", "path": c.by_slug("notes", SEEDED_SLUGS[1])},
                  {"name": "a note titled as seeded note 1", "method": "POST", "path": c.collection("notes"),
                   "body": body(c, "notes", {**twin, "title": "Buy milk", "body": "again", "done": True})},
                  {"name": "the new note at its slug", "method": "GET", "path": c.by_slug("notes", "buy-milk-2")},
                  {"name": "seeded note 1 at its slug", "method": "GET", "path": c.by_slug("notes", SEEDED_SLUGS[0])},
                  {"name": "a slug no note holds", "method": "GET", "path": c.by_slug("notes", "no-such-note")}]
    if c.slug_reads and c.slug_renames:
        slugs = c.by_slug("notes", "")[: len(c.by_slug("notes", "")) - len(c.ending) or None]
        calls += [{**call, "affects": [slugs]} if call["method"] != "GET" else call
                  for call in update_probes(c, "rename seeded note 2's slug", "notes", note,
                                            {**RENAMED, "slug": "renamed-note"})]
        calls += [{"name": "seeded note 2 at its new slug", "method": "GET", "path": c.by_slug("notes", "renamed-note")},
                  {"name": "seeded note 2 at its old slug", "method": "GET", "path": c.by_slug("notes", SEEDED_SLUGS[1])},
                  {"name": "seeded note 2 after its rename", "method": "GET", "path": c.item("notes", note)},
                  {"name": "seeded note 3 at its slug", "method": "GET", "path": c.by_slug("notes", SEEDED_SLUGS[2])}]
    if c.put_creates:
        calls += [{"name": "create by PUT", "method": "PUT", "path": c.item("notes", "probe-put"),
                   "body": body(c, "notes", {"title": "Put by the probes", "body": "upsert", "done": True})},
                  {"name": "the note PUT made", "method": "GET", "path": c.item("notes", "probe-put")},
                  {"name": "PUT it again", "method": "PUT", "path": c.item("notes", "probe-put"),
                   "body": body(c, "notes", {"title": "Put again", "body": "upsert", "done": False})},
                  {"name": "the note PUT again", "method": "GET", "path": c.item("notes", "probe-put")},
                  {"name": "notes after the PUTs", "method": "GET", "path": c.collection("notes")}]
    if c.bulk_delete:
        ids = ",".join(str(k) for k in keys["notes"][:2])
        calls += [{"name": "bulk delete seeded notes", "method": "DELETE", "path": c.collection("notes"),
                   "query": {"ids": ids}},
                  {"name": "notes after the bulk delete", "method": "GET", "path": c.collection("notes")},
                  {"name": "a bulk-deleted note", "method": "GET", "path": c.item("notes", keys["notes"][0])}]
    if c.nested:
        comments = comments_path(c, note)
        calls += [{"name": "comment on seeded note 2", "method": "POST", "path": comments,
                   "body": body(c, "comments", {"text": "from the probes"}),
                   "save": {"comment": key_pointer(c, "comments")}},
                  {"name": "the new comment", "method": "GET", "path": comments_path(c, note, "{comment}")},
                  {"name": "note 2's comments", "method": "GET", "path": comments},
                  {"name": "edit the new comment", "method": c.update, "path": comments_path(c, note, "{comment}"),
                   "body": body(c, "comments", {"text": "edited by the probes"}, "{comment}")},
                  {"name": "the edited comment", "method": "GET", "path": comments_path(c, note, "{comment}")},
                  {"name": "delete the new comment", "method": "DELETE", "path": comments_path(c, note, "{comment}")},
                  {"name": "the deleted comment", "method": "GET", "path": comments_path(c, note, "{comment}")},
                  {"name": "note 2's comments at the end", "method": "GET", "path": comments}]
    calls += query_probes(c)
    calls += projection.probes(c, keys, key_pointer(c, "notes"))
    if c.split:
        calls += [{"name": "content notes", "method": "GET", "path": content(c, c.collection("notes"))},
                  {"name": "content seeded note 3", "method": "GET", "path": content(c, c.item("notes", keys["notes"][2]))},
                  {"name": "content seeded tag 2", "method": "GET", "path": content(c, c.item("tags", keys["tags"][1]))}]
    return calls


NESTED_WRITES = ("comment on seeded note 2", "edit the new comment", "delete the new comment")
"""A nested sub-collection's plain create, update and delete: servable (the create's path names its collection)."""
