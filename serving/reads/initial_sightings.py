"""An absence the capture itself contradicts (write-effects "Missing entities", docs/absence.md
"An entity a recording shows").

The learned absence answer says the application holds no such entity, which holds only where the
state holds every entity the application starts with. A read the state cannot place may still have
shown one: a list the view did not take as a list of the type (RabbitMQ's ``/api/permissions``,
whose elements are keyed by user and vhost; ``/api/bindings/{vhost}`` keyed by source, destination
and routing key). When a successful recording made before the capture's first write, of a read
the view took as no other type's, holds an object shaped as the type's entities (every member they
all hold; read at the item path's own collection, only members they all hold: a row of ``{type,
id}`` resource identifiers lists a part of each entity) naming the call's id under the key member
and every other value of the call's path under some member, the application held that entity when serving starts, and the absence would be a
wrong answer: it is refused, naming the recording. So is the absence of an id (of a type whose item
path names no parent) that such a recording lists in an array of names beside an id the state held
of the type (PouchDB's ``/_all_dbs`` listing ``_users`` beside the databases read one by one). An id the state held at its start and holds no
more was removed by a served write (or a data/add), and its absence stands.

A read recorded after the capture's first write shows what the application held from its start
too, where no successful write recorded before it named the entity's id or any other value of the
call's path (in its path, its body or its answer): the capture did not make it (RabbitMQ's global
parameter ``internal_cluster_id``, listed only after the capture's writes, that none of them named,
while the state holds only the parameter an early item read showed). An entity the capture's own
writes made or named is no such sighting: a fresh application does not hold it.

A path value the object does not name is matched by a member holding empty text, when it is the
only one left: the application names an entity whose id is empty text by an id the capture does not
show, and this value may be that one (RabbitMQ lists the default exchange's bindings with the
source ``""`` and names that exchange ``amq.default`` in paths; its bindings are no missing ones).

So is the absence of an id whose item path a successful initial GET's answer links to (an absolute
URL whose path is the call's, as RT's stubs ``{"type": "user", "id": "Nobody", "_url":
"http://127.0.0.1/REST/2.0/user/Nobody"}`` in a list and in every ticket's ``Owner``): the
application named that very path as an entity's before any write.

So is the absence of an id whose own item path a successful initial GET extends (a read of a part
of that very entity, ``/pages/Home/history`` or ``/pages/Home/bare`` answered 200 when only those
were read, never ``/pages/Home`` itself): the application answered for that entity before any
write.
"""

from __future__ import annotations

from typing import Any, Iterator
from urllib.parse import urlsplit

from capenv.interpreter.bundle.models import EntityType, ReplayTable, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.read_call import CallRefused

Segments = tuple[str, ...]
READ_METHODS = ("GET", "HEAD")


def _segments(path: str) -> Segments:
    """A path, each segment decoded once (the spellings a call may use alike)."""
    parts = [decode_once(part) for part in split_path(path)]
    while parts and parts[-1] == "":
        parts.pop()
    return tuple(parts)


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, (dict, list)) or value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, str) else str(value)


def _name_lists(value: Any) -> Iterator[frozenset[str]]:
    """Every nonempty array of strings alone in ``value`` (a list of names, ``["_users", "books"]``)."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, list) and current and all(isinstance(v, str) for v in current):
            yield frozenset(current)
        elif isinstance(current, (dict, list)):
            stack.extend(current.values() if isinstance(current, dict) else current)


def _named_by(call: Any) -> set[str]:
    """Every text a write names: its path's segments (decoded once), every scalar of its body and
    of its answer at any depth, and the segments of a Location it answered (a new entity's path)."""
    named = {decode_once(part) for part in split_path(call.path)}
    for name, value in call.response.headers:
        if name.lower() == "location":
            named.update(decode_once(part) for part in split_path(urlsplit(value).path))
    stack = [call.request_body, call.response.body]
    while stack:
        current = stack.pop()
        if isinstance(current, (dict, list)):
            stack.extend(current.values() if isinstance(current, dict) else current)
        elif (text := _scalar_text(current)) is not None:
            named.add(text)
    return named


def _linked_paths(value: Any) -> Iterator[Segments]:
    """The path of every absolute http(s) URL among the strings of ``value``, at any depth."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, (dict, list)):
            stack.extend(current.values() if isinstance(current, dict) else current)
        elif isinstance(current, str) and current.startswith(("http://", "https://")):
            parts = urlsplit(current)
            if parts.netloc and not parts.query:
                yield _segments(parts.path)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            yield current
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)


def _map_keys(value: Any) -> Iterator[str]:
    """The member names of every object of scalars outside any array in ``value`` (a map keyed by
    names, ``{"metadata": {"env": "prod"}}``; not the entities a list holds)."""
    stack = [value]
    while stack:
        current = stack.pop()
        if not isinstance(current, dict):
            continue
        if current and all(not isinstance(v, (dict, list)) for v in current.values()):
            yield from current
        else:
            stack.extend(current.values())


class InitialSightings:
    """The objects the capture's initial recordings show, by the text of each scalar member, and
    the ids the capture's state held at its start."""

    def __init__(self, view: ViewResult, replay: ReplayTable) -> None:
        self._by_value: dict[str, list[tuple[int, str | None, dict[str, Any]]]] = {}
        self._name_lists: list[tuple[int, frozenset[str]]] = []
        self._initial_ordinals: set[int] = set()
        answered: list[tuple[int, Segments]] = []  # the successful initial GETs, by the path's segments (decoded once)
        self._first_named: dict[str, int] = {}
        """Per text, the ordinal of the first successful write naming it (path, body or answer)."""
        self._linked: dict[Segments, int] = {}
        """Per path an initial answer linked to (an absolute URL), the first such answer's ordinal."""
        self._read_at: dict[int, Segments] = {}
        """The path each successful initial GET read (decoded once), by its ordinal."""
        self._member_names: dict[Segments, list[tuple[int, frozenset[str]]]] = {}
        """The successful initial JSON GETs by path: the member names of each map of scalars it answered."""
        typed = {read_view.tool: read_view.type for read_view in view.views}
        # a read-only POST (Prefect's /variables/filter) answers what the application holds, as a GET does
        read_only = {post.tool for post in view.read_only_posts}
        for tool, calls in replay.tools.items():
            for call in calls:
                response = call.response
                if not 200 <= response.status < 300:
                    continue
                if call.method not in READ_METHODS and tool not in read_only:
                    for text in _named_by(call):
                        self._first_named[text] = min(call.ordinal, self._first_named.get(text, call.ordinal))
                    continue
                if call.initial and call.method == "GET":
                    answered.append((call.ordinal, _segments(call.path)))
                    self._read_at[call.ordinal] = _segments(call.path)
                if not response.is_json:
                    continue
                if call.initial and call.method == "GET":
                    for linked in _linked_paths(response.body):
                        self._linked.setdefault(linked, call.ordinal)
                    names = frozenset(_map_keys(response.body))
                    self._member_names.setdefault(_segments(call.path), []).append((call.ordinal, names))
                if call.initial:
                    self._initial_ordinals.add(call.ordinal)
                if typed.get(tool) is None and call.initial:
                    self._name_lists.extend((call.ordinal, names) for names in _name_lists(response.body))
                for found in _objects(response.body):
                    for value in found.values():
                        text = _scalar_text(value)
                        if text is not None:
                            self._by_value.setdefault(text, []).append((call.ordinal, typed.get(tool), found))
        self._beneath: dict[Segments, int] = {}
        """Per path a successful initial GET's path extends (its proper prefixes), the least such GET's ordinal."""
        for ordinal, path in answered:
            for end in range(len(path)):
                above = path[:end]
                self._beneath[above] = min(ordinal, self._beneath.get(above, ordinal))
        self._initial: dict[tuple[str, Segments], list[tuple[str, dict[str, Any]]]] = {}
        self._shared_members: dict[str, set[str]] = {}
        for collection in view.state.collections:
            for entity in collection.entities:
                shared = self._shared_members.get(collection.type)
                self._shared_members[collection.type] = set(entity.value) if shared is None else shared & set(entity.value)
            held = self._initial.setdefault((collection.type, _segments(collection.path)), [])
            held.extend((_scalar_text(e.id) or "", e.value) for e in collection.entities)
        self._held_index: dict[tuple[str, Segments | None, str | None], frozenset[str]] = {}
        """``_held_texts``'s, per (type, collection's segments or None, field or None)."""
        self._templates: dict[str, tuple[str, ...]] = {}
        """The segments of each path template ``showing`` was asked with (the bundle's own)."""
        self._initial_ids: dict[str, frozenset[str]] = {}
        """Per type, the ids the initial state held of it (``_listed``), gathered at its first use."""

    def held_initially(self, type_name: str, collection_path: str, raw_id: str, field: str, id_field: str,
                       anywhere: bool = False) -> bool:
        """``anywhere``: in any collection of the type (a shallow type's item path names its entity by
        the id alone, ``EntityType.shallow_items``)."""
        held = self._held_texts(type_name, None if anywhere else _segments(collection_path),
                                None if field == id_field else field)
        return raw_id in held or decode_once(raw_id) in held

    def _held_texts(self, type_name: str, segments: Segments | None, field: str | None) -> frozenset[str]:
        """The texts the initial state's entities of ``type_name`` held in ``field`` (None: their
        ids), in the collection at ``segments`` (None: in any): the same on every call, so gathered
        once per collection and field asked (only for collections the initial state holds)."""
        key = (type_name, segments, field)
        found = self._held_index.get(key)
        if found is None:
            if segments is None:
                held = [entities for (name, _), entities in self._initial.items() if name == type_name]
            elif (entities := self._initial.get((type_name, segments))) is not None:
                held = [entities]
            else:
                return frozenset()
            texts = (entity_id if field is None else _scalar_text(value.get(field))
                     for entities in held for entity_id, value in entities)
            found = self._held_index[key] = frozenset(text for text in texts if text is not None)
        return found

    def showing(self, entity_type: EntityType, call_path: str, raw_id: str, field: str,
                template_path: str | None = None, scoped: bool = False) -> int | None:
        """The ordinal of an initial recording holding an object that names this entity, or None.
        ``scoped``: the capture shows the application scoping the type's entities to the parent the
        path names (``ReadView.other_parent_absence``): a read the view took as this type's lists
        them under their own parent, which says nothing of this one."""
        spelled = template_path or entity_type.item_template or ""
        template = self._templates.get(spelled)
        if template is None:  # a template of the bundle's: split once
            template = self._templates[spelled] = tuple(split_path(spelled))
        parts = split_path(call_path)
        if len(template) != len(parts):
            return None
        shape = self._shared_members.get(entity_type.name)
        if not shape:
            return None  # no entity of the type held: nothing tells its objects from another type's
        parents = {decode_once(part) for piece, part in zip(template[:-1], parts[:-1]) if piece.startswith("{")}
        parent = _segments(call_path)[:-1]
        if not parents and field == entity_type.id_field:
            listed = self._listed(entity_type.name, {decode_once(raw_id), raw_id})
            if listed is not None:
                return listed
        for spelling in dict.fromkeys((decode_once(raw_id), raw_id)):
            for ordinal, shown_type, found in self._by_value.get(spelling, []):
                if shown_type not in (None, entity_type.name) or _scalar_text(found.get(field)) != spelling \
                        or not (shape <= found.keys() or (found.keys() <= shape and self._read_at.get(ordinal) == parent)):
                    continue  # another type's entity, whatever its id: read as another type, or shaped otherwise
                if scoped and shown_type == entity_type.name:
                    continue  # held under its own parent, which this path does not name
                members = {text for value in found.values() if (text := _scalar_text(value)) is not None}
                unnamed = parents - members
                if len(unnamed) > 1 or (unnamed and "" not in members):
                    continue
                if ordinal in self._initial_ordinals or not self._named_before(
                        {spelling} | (parents & members), ordinal):
                    return ordinal
        return None

    def _named_before(self, texts: set[str], ordinal: int) -> bool:
        """Whether a successful write recorded before ``ordinal`` named one of ``texts``."""
        return any(self._first_named.get(text, ordinal) < ordinal for text in texts)

    def keyed_above(self, call_path: str, raw_id: str, segments: Segments | None = None) -> int | None:
        """The ordinal of a successful initial GET of the path ``call_path`` extends by its last
        segment whose answer holds an object with a member named as that segment (a document
        keying its entries by the id: ``{"metadata": {"owner": "dba"}}`` above ``.../metadata/owner``).
        ``segments``: ``call_path``'s, when the caller has them."""
        wanted = _segments(call_path) if segments is None else segments
        if not wanted:
            return None
        spellings = {decode_once(raw_id), raw_id}
        return min((ordinal for ordinal, names in self._member_names.get(wanted[:-1], ()) if names & spellings),
                   default=None)

    def beneath(self, call_path: str, segments: Segments | None = None) -> int | None:
        """The ordinal of a successful initial GET of a path extending ``call_path`` (a part of the
        entity the call names, read before the capture's first write), or None. ``segments``:
        ``call_path``'s, when the caller has them."""
        return self._beneath.get(_segments(call_path) if segments is None else segments)

    def _listed(self, type_name: str, spellings: set[str]) -> int | None:
        """The ordinal of an initial recording of no type's read listing names, among them an id the
        state held of ``type_name`` at its start and one of ``spellings`` (``/_all_dbs`` answering
        ``["_users", "books"]`` beside the databases read one by one): the id names an entity too."""
        if not self._name_lists:
            return None
        held = self._initial_ids.get(type_name)
        if held is None:  # the initial state's ids of the type: the same on every call, gathered once
            held = self._initial_ids[type_name] = frozenset(
                entity_id for (name, _), entities in self._initial.items() if name == type_name
                for entity_id, _ in entities)
        return next((ordinal for ordinal, names in self._name_lists if names & spellings and names & held), None)

    def refuse_shown(self, entity_type: EntityType, collection_path: str, call_path: str, raw_id: str, field: str,
                     spelled_call: str, template: str | None = None, *, scoped: bool = False) -> None:
        """Refuse the absence of an entity an initial recording shows, unless the state held it at its start.
        ``template``: the read's own path template, when it names the entity otherwise than the type's
        item path (Prefect's ``/variables/name/{name}`` beside ``/variables/{id}``); ``scoped``: as
        ``showing``'s."""
        if self.held_initially(entity_type.name, collection_path, raw_id, field, entity_type.id_field,
                               anywhere=bool(entity_type.shallow_items)):
            return
        segments = _segments(call_path)  # once, for each lookup by the call's path below
        linked = self._linked.get(segments)
        if linked is not None:
            raise CallRefused(
                f'nothing was recorded for {spelled_call}: the state holds no {entity_type.name} whose "{field}" is '
                f'"{decode_once(raw_id)}", but record {linked}, made before the capture\'s first write, answered a '
                f"link to this very path: the application held it, so its absence is not answered", http_status=404)
        ordinal = self.showing(entity_type, call_path, raw_id, field, template, scoped)
        if ordinal is None and (keyed := self.keyed_above(call_path, raw_id, segments)) is not None:
            raise CallRefused(
                f'nothing was recorded for {spelled_call}: the state holds no {entity_type.name} whose "{field}" is '
                f'"{decode_once(raw_id)}", but record {keyed}, made before the capture\'s first write, read the path '
                f"this one extends and answered an object with a member of that name (a map keyed by it): the "
                f"application held it, so its absence is not answered", http_status=404)
        if ordinal is None:
            beneath = self.beneath(call_path, segments)
            if beneath is None:
                return
            raise CallRefused(
                f'nothing was recorded for {spelled_call}: the state holds no {entity_type.name} whose "{field}" is '
                f'"{decode_once(raw_id)}", but record {beneath}, made before the capture\'s first write, answered a '
                f"read of a part of it (a path extending this one): the application held it, so its absence is not "
                f"answered", http_status=404)
        made = ("made before the capture's first write" if ordinal in self._initial_ordinals else
                "made after the capture's writes, none of which named it")
        raise CallRefused(
            f'nothing was recorded for {spelled_call}: the state holds no {entity_type.name} whose "{field}" is '
            f'"{decode_once(raw_id)}", but record {ordinal}, {made}, shows an object or a list of names naming it '
            f"with every value of this path (or empty text for one), which the state never took in: the application may hold it, so its "
            f"absence is not answered", http_status=404)
