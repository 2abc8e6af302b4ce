"""The session recorded from a ``ConventionApp`` and the probes a user sends afterwards.

The recording reads every list and item first, then creates, updates and deletes, each followed by
the item and list reads, a read of an id never created, paged reads and a refused create; the
probes then create, update and delete other entities with other values, read them back, and read
what the session never read, the way ``captures/*/probes.yaml`` do for the real applications.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from capenv.serving.compare.probes import ProbeFile, parse_probes
from capenv.serving.compare.sides import Outgoing

from support.har_builder import HarBuilder
from . import convention_more as more
from .convention_app import ConventionApp, Conventions
from .scenario_extras import (at, body as _body, key_pointer, probe_extras, record_extras, record_initial_extras,
                              recorded_update, update_probes, with_content_affects,
                              with_singular_affects)

ORIGIN = "http://127.0.0.1:8000"


def _key(c: Conventions, kind: str, answer: Any) -> Any:
    return at(answer, key_pointer(c, kind))


def _never(c: Conventions) -> str:
    return {"sequence": "9999", "text-sequence": "9999", "uuid": "00000000-0000-4000-8000-00000000dead",
            "hex24": "000000000000000000dead00", "name": "never-was"}[c.ids]


def _rich(c: Conventions, kind: str, index: int) -> dict[str, Any]:
    """The array, object and null members a note's create or update sends with ``rich_members``."""
    if not c.rich_members or kind != "notes":
        return {}
    return {"labels": [f"label-{index}", "shared"], "extra": {"priority": index}, "due": None}


def record(c: Conventions) -> HarBuilder:
    har = HarBuilder(origin=ORIGIN)
    moment = [datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)]
    app = ConventionApp(c, har, clock=lambda: moment[0])

    def send(method: str, path: str, body: Any = None, query: tuple = (), headers: tuple = ()) -> Any:
        moment[0] += timedelta(milliseconds=c.call_gap_ms)  # one call every 100 ms, each inside its own window
        media = "application/vnd.api+json" if c.body_shape == "jsonapi" else "application/json"
        media = c.patch_media_type if c.json_patch and isinstance(body, list) else media
        headers = ((("content-type", media),) if body is not None else ()) + tuple(headers)
        answer = app.send(Outgoing(method, path, query, headers, json.dumps(body).encode() if body is not None else None))
        return json.loads(answer.body) if answer.body and "json" in (answer.media_type or "") else None

    keys = {kind: list(app.kinds[kind]) for kind in app.kinds}
    for kind in app.kinds:
        send("GET", c.collection(kind))
        for key in {"all": keys[kind], "first": keys[kind][:1], "none": []}[c.seed_item_reads]:
            send("GET", c.item(kind, key))
    send("GET", c.item("notes", _never(c)))
    settings = c.document("settings")
    if c.settings:  # the initial state holds what reads show before the first write (DESIGN.md §5)
        send("GET", settings)
    record_initial_extras(c, send, keys)
    created: dict[str, list[Any]] = {"notes": [], "tags": []}
    news = {"notes": [{"title": "Water plants", "body": "balcony", "done": False},
                      {"title": "Book dentist", "body": "before May", "done": False}],
            "tags": [{"label": "garden", "color": "yellow"}, {"label": "health", "color": "red"}]}
    for kind, rows in news.items():
        for index, row in enumerate(rows):
            name = f"{kind} new {index} é" if c.spaced_names else f"{kind}-new-{index}"
            row = {**row, **_rich(c, kind, index)}
            members = {c.key_member: name, **row} if c.ids == "name" else row
            key = _key(c, kind, send("POST", c.collection(kind), _body(c, kind, members)))
            created[kind].append(key)
            send("GET", c.item(kind, key))
            send("GET", c.collection(kind))
    updates = {"notes": [{"title": "Buy oat milk", "body": "two litres", "done": True},
                         {"title": "Book the dentist", "body": "before May", "done": True}],
               "tags": [{"label": "home", "color": "teal"}, {"label": "wellbeing", "color": "red"}]}
    for kind, rows in updates.items():
        for index, (key, row) in enumerate(zip([keys[kind][0], created[kind][1]], rows)):
            row = {**row, **_rich(c, kind, index + 2)}
            recorded_update(c, send, kind, key, row, narrowed=index == 1)
            send("GET", c.item(kind, key))
            send("GET", c.collection(kind))
    for kind in app.kinds:
        for key in (keys[kind][-1], created[kind][0]):
            send("DELETE", c.item(kind, key))
            send("GET", c.item(kind, key))
            send("GET", c.collection(kind))
    if c.settings:
        wrap = (lambda value: {"data": value}) if c.body_shape == "data" else (lambda value: value)
        send("PATCH", settings, wrap({"theme": "dark"}))
        send("GET", settings)
        send("PATCH", settings, wrap({"language": "pt", "notify": False}))
        send("GET", settings)
    if c.comments:
        for key, text in ((keys["notes"][0], "first!"), (keys["notes"][0], "agreed"), (keys["notes"][1], "call her")):
            comments = c.under("notes", key, "comments")
            send("GET", comments)
            send("POST", comments, _body(c, "comments", {"text": text}))
            send("GET", comments)
            send("GET", c.item("notes", key))
    record_extras(c, send, keys, lambda kind, answer: _key(c, kind, answer))
    if c.queries:
        send("GET", c.collection("notes"), query=(("done", "false"),))
        send("GET", c.collection("notes"), query=(("sort", "-title"),))
        send("GET", c.collection("tags"), query=(("sort", "label"),))
    send("GET", c.collection("notes"), query=tuple(more.page_query(c, 2, 0).items()))
    send("GET", c.collection("notes"), query=tuple(more.page_query(c, 2, 2).items()))
    send("POST", c.collection("notes"), _body(c, "notes", {"title": 42, "body": "not a title", "done": False}))
    return har


AFTER_THE_NEWEST_DELETED = "create a tag after the newest was deleted"
"""A create after the delete of the tag holding the largest id: with sequence ids the recording shows
no create after such a delete, so the model refuses it (``sequence-reuse``), never claims an id."""

PLAIN_WRITES = ("create a note", "update the new note", "update seeded note 3", "delete seeded tag 2", "create a tag",
                "delete the new tag", "delete the new note")
"""The probes on a plain create, update or delete, which a model of any of the conventions can serve."""
DOCUMENT_WRITES = ("a blue theme", "notify again")
"""The probes on a document merge (its members bare or in the {"data": …} envelope its answer shows),
one sending a member only a later recorded call sent."""


def refused_probes(c: Conventions, keys: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Calls the application refuses or answers without a change: a model accepting one answers wrongly."""
    name = {c.key_member: "probe-refused"} if c.ids == "name" else {}
    note = c.item("notes", keys["notes"][0])
    calls = [
        {"name": "a create sending a null body", "method": "POST", "path": c.collection("notes"),
         "body": _body(c, "notes", {**name, "title": "Null body", "body": None, "done": False})},
        {"name": "a create sending done as text", "method": "POST", "path": c.collection("notes"),
         "body": _body(c, "notes", {**name, "title": "Text done", "body": "x", "done": "yes"})},
        {"name": "an update sending a number title", "method": c.update, "path": note,
         "body": _body(c, "notes", {"title": 7, "body": "x", "done": True}, keys["notes"][0])},
        {"name": "an update of the deleted seeded tag", "method": c.update, "path": c.item("tags", keys["tags"][1]),
         "body": _body(c, "tags", {"label": "gone", "color": "grey"}, keys["tags"][1])},
        {"name": "the deleted seeded tag again", "method": "DELETE", "path": c.item("tags", keys["tags"][1])},
        {"name": "seeded note 1 after the refused calls", "method": "GET", "path": note},
        {"name": "notes after the refused calls", "method": "GET", "path": c.collection("notes")},
    ]
    if c.ids == "name":
        calls.insert(0, {"name": "a create naming a held name", "method": "POST", "path": c.collection("notes"),
                         "body": _body(c, "notes", {c.key_member: keys["notes"][1], "title": "Twice", "body": "x",
                                                    "done": False})})
    return calls


def lenient_probes(c: Conventions, keys: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Calls the application takes that no recorded call resembles (an empty or partial update, an
    unknown member or query parameter, a delete of a whole collection): the model may refuse them,
    after which the two sides' states part (the probes after them are not compared alike)."""
    note = c.item("notes", keys["notes"][0])
    return [
        {"name": "an update sending nothing", "method": c.update, "path": note, "body": _body(c, "notes", {}, keys["notes"][0])},
        {"name": "an update sending only the title", "method": c.update, "path": note,
         "body": _body(c, "notes", {"title": "Only the title"}, keys["notes"][0])},
        {"name": "an update sending an unknown member", "method": c.update, "path": note,
         "body": _body(c, "notes", {"title": "Buy milk", "body": "two litres", "done": False, "colour": "red"},
                       keys["notes"][0])},
        {"name": "a delete of the whole collection", "method": "DELETE", "path": c.collection("tags")},
        {"name": "an update with a query the session never sent", "method": c.update, "path": note,
         "query": {"force": "true"}, "body": _body(c, "notes", {"title": "Forced", "body": "x", "done": True},
                                                   keys["notes"][0])},
        *([{"name": "an update removing the body", "method": c.update, "path": note,
             "body": [{"op": "remove", "path": "/body"}]},
           {"name": "an update adding a member", "method": c.update, "path": note,
            "body": [{"op": "add", "path": "/colour", "value": "red"}]}] if c.json_patch else []),
        {"name": "seeded note 1 after the lenient calls", "method": "GET", "path": note},
        {"name": "notes after the lenient calls", "method": "GET", "path": c.collection("notes")},
    ]


def probes(c: Conventions, lenient: bool = False) -> ProbeFile:
    """Calls a user makes after the session, on a fresh application (the same seed)."""
    seeded = ConventionApp(c)
    keys = {kind: list(seeded.kinds[kind]) for kind in seeded.kinds}
    name = ({"notes": {c.key_member: "probe-note"}, "tags": {c.key_member: "probe-tag"}} if c.ids == "name"
            else {"notes": {}, "tags": {}})
    calls: list[dict[str, Any]] = [
        {"name": "seeded note 2", "method": "GET", "path": c.item("notes", keys["notes"][1]), "expect": "same"},
        {"name": "seeded tags", "method": "GET", "path": c.collection("tags"), "expect": "same"},
        {"name": "a missing tag", "method": "GET", "path": c.item("tags", _never(c))},
        {"name": "create a note", "method": "POST", "path": c.collection("notes"),
         "body": _body(c, "notes", {**name["notes"], "title": "Probe note", "body": "from the probes", "done": True,
                                    **_rich(c, "notes", 7)}),
         "save": {"note": key_pointer(c, "notes")}},
        {"name": "the new note", "method": "GET", "path": c.item("notes", "{note}")},
        {"name": "notes after the create", "method": "GET", "path": c.collection("notes")},
        # a second create at once: whole-second clocks tie with the first, and the list shows how it breaks the tie
        {"name": "create another note", "method": "POST", "path": c.collection("notes"),
         "body": _body(c, "notes", {**({c.key_member: "probe-note-2"} if c.ids == "name" else {}),
                                    "title": "Another probe note", "body": "right after", "done": False})},
        {"name": "notes after both creates", "method": "GET", "path": c.collection("notes")},
        *update_probes(c, "update the new note", "notes", "{note}",
                       {"title": "Probe note, edited", "body": "edited", "done": False, **_rich(c, "notes", 8)}),
        {"name": "the updated note", "method": "GET", "path": c.item("notes", "{note}")},
        *update_probes(c, "update seeded note 3", "notes", keys["notes"][2],
                       {"title": "Fix the gate today", "body": "hinge", "done": True}, narrowed=True),
        {"name": "seeded note 3 after", "method": "GET", "path": c.item("notes", keys["notes"][2])},
        {"name": "create a tag", "method": "POST", "path": c.collection("tags"),
         "body": _body(c, "tags", {**name["tags"], "label": "probe", "color": "black"}),
         "save": {"tag": key_pointer(c, "tags")}},
        {"name": "the new tag", "method": "GET", "path": c.item("tags", "{tag}")},
        {"name": "delete seeded tag 2", "method": "DELETE", "path": c.item("tags", keys["tags"][1])},
        {"name": "the deleted tag", "method": "GET", "path": c.item("tags", keys["tags"][1])},
        {"name": "tags after the delete", "method": "GET", "path": c.collection("tags")},
        {"name": "delete the new tag", "method": "DELETE", "path": c.item("tags", "{tag}")},
        {"name": "the new tag, deleted", "method": "GET", "path": c.item("tags", "{tag}")},
        # the newest tag deleted: whether the next id goes past it or is given again the recording never shows
        {"name": AFTER_THE_NEWEST_DELETED, "method": "POST", "path": c.collection("tags"),
         "body": _body(c, "tags", {**({c.key_member: "probe-tag-2"} if c.ids == "name" else {}),
                                   "label": "probe again", "color": "white"})},
        {"name": "delete the new note", "method": "DELETE", "path": c.item("notes", "{note}")},
        {"name": "the new note, deleted", "method": "GET", "path": c.item("notes", "{note}")},
        {"name": "a page of notes", "method": "GET", "path": c.collection("notes"), "query": more.page_query(c, 2, 0)},
        {"name": "another page of notes", "method": "GET", "path": c.collection("notes"),
         "query": more.page_query(c, 3, 3 if c.paging == "page" else 1)},
        {"name": "notes at the end", "method": "GET", "path": c.collection("notes")},
        *refused_probes(c, keys),
    ]
    if c.settings:
        settings = c.document("settings")
        wrap = (lambda value: {"data": value}) if c.body_shape == "data" else (lambda value: value)
        calls += [{"name": "the settings", "method": "GET", "path": settings, "expect": "same"},
                  {"name": "a blue theme", "method": "PATCH", "path": settings, "body": wrap({"theme": "blue"})},
                  {"name": "the settings after", "method": "GET", "path": settings},
                  {"name": "notify again", "method": "PATCH", "path": settings, "body": wrap({"notify": True})}]
    if c.comments:
        comments = c.under("notes", keys["notes"][1], "comments")
        calls += [{"name": "comment on seeded note 2", "method": "POST", "path": comments,
                   "body": _body(c, "comments", {"text": "from the probes"}),
                   "affects": [c.item("notes", keys["notes"][1]), c.collection("notes")]},  # its comment_count
                  {"name": "note 2's comments", "method": "GET", "path": comments},
                  {"name": "note 2 after its comment", "method": "GET", "path": c.item("notes", keys["notes"][1])},
                  {"name": "notes after the comment", "method": "GET", "path": c.collection("notes")}]
    if c.queries:
        calls += [{"name": "notes done", "method": "GET", "path": c.collection("notes"), "query": {"done": "true"}},
                  {"name": "notes not done", "method": "GET", "path": c.collection("notes"), "query": {"done": "false"}},
                  {"name": "notes by title", "method": "GET", "path": c.collection("notes"), "query": {"sort": "title"}},
                  {"name": "notes by title, last first", "method": "GET", "path": c.collection("notes"),
                   "query": {"sort": "-title"}},
                  {"name": "tags by label", "method": "GET", "path": c.collection("tags"), "query": {"sort": "label"}}]
    calls = with_singular_affects(c, with_content_affects(c, calls + probe_extras(c, keys)))
    if lenient:  # last: refusing one of them parts the states
        calls += lenient_probes(c, keys)
    if c.json_patch:  # a JSON Patch says so in its content type
        calls = [{**call, "headers": {**call.get("headers", {}), "content-type": c.patch_media_type}}
                 if isinstance(call.get("body"), list) and call["method"] == c.update else call for call in calls]
    headers = {"content-type": "application/vnd.api+json"} if c.body_shape == "jsonapi" else {}
    return parse_probes(json.dumps({"headers": headers, "probes": calls}))
