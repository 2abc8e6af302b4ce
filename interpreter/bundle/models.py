"""The bundle's models: what the build side hands to serving (DESIGN.md §1, §5).

Serving imports these models (and the JSON codec), never the evaluator, so a bundle built
once serves anywhere. Every model is frozen and refuses unknown keys.
"""

from __future__ import annotations

import re

from typing import Any, Literal
from urllib.parse import unquote_plus

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.global_ids import padded_base64_text
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.left_out import LeftOutAtDefault
from capenv.interpreter.bundle.pointers import spell
from capenv.interpreter.bundle.trace_event import TraceEvent

Pairs = tuple[tuple[str, str], ...]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)


class Locator(_Model, LeftOutAtDefault):
    """Where an entity or a list sits in a response body.

    ``root``: the body itself; ``member``: under one member of the body object;
    ``singleton``: the only element of an array under one member (``{"posts":[{…}]}``).
    ``omits_empty`` (``member`` only): the application leaves the member out when it lists nothing
    (``view-omitted-lists``), so an object lacking it lists nothing, and an empty list is rendered
    by leaving it out.
    """

    kind: Literal["root", "member", "singleton"]
    member: str | None = None
    omits_empty: bool = False
    within: tuple[str, ...] = ()
    """``member`` only: the members leading from the body to the object holding ``member``
    (Roundup's ``{"data": {"collection": [...], "@total_size": N}}``: ``("data",)`` before
    ``collection``); empty: ``member`` is the body's own. Written to a bundle only when set."""

    @property
    def pointer(self) -> str:
        """The JSON pointer of the located value (``""`` for the root)."""
        if self.kind == "root":
            return ""
        return spell((*self.within, self.member or ""))

    @property
    def top(self) -> str | None:
        """The body's own member holding the located value (``within``'s first, else ``member``)."""
        return self.within[0] if self.within else self.member

    left_out_at_default = ("within",)


class Recording(_Model, LeftOutAtDefault):
    """A recorded response a view renders into (its base recording) or answers with."""

    left_out_at_default = ("retained", "binary")

    ordinal: int
    status: int
    content_type: str | None = None
    headers: Pairs = ()
    body: Any = None
    """The parsed JSON body (exact numbers), or None with ``text`` for a non-JSON body."""
    is_json: bool = True
    text: str | None = None
    retained: bool = True
    """False when the capture kept no text for a body the application sent (a size but no text,
    as exporters write for a body they dropped): what it answered is unknown, so serving never
    answers with this recording. Written to a bundle only when False."""
    binary: bool = False
    """True when the application answered bytes that are no UTF-8 text (a tarball, an image): the
    bundle keeps no text of them, so serving never answers with this recording (an empty body would
    be a wrong answer). Written to a bundle only when True."""


class AbsencePathText(_Model):
    """A text of an absence answer that names the read's path values (``"No such token a2 for
    user ada"``): its literal parts and, in between, the path segment (by index) whose
    percent-decoded value the application wrote there. ``proven`` when another absence of the
    tool, naming other values, reads as this template filled with its own; an unproven text is
    answered only for a call naming the recorded values (docs/absence.md)."""

    pointer: str
    parts: tuple[str | int, ...]
    recorded: tuple[tuple[int, str], ...] = ()
    """The segment values the recorded read named: (segment index, percent-decoded value)."""
    proven: bool = False


class AbsenceAnswer(_Model, LeftOutAtDefault):
    """How the application answers an item read of an id it does not hold, learned from the
    capture (``view-absence-answers``): the recording serving answers a missing entity with,
    the rule that made it evidence and every record that answered alike."""

    recording: Recording
    rule_id: str
    proof: Literal["deleted", "never-shown", "status"]
    from_tool: str
    """The item tool whose read recorded it (another item tool of the type when this one has none)."""
    records: tuple[int, ...] = ()
    id_value: str | None = None
    """The id (percent-decoded) the recorded read named."""
    id_pointers: tuple[str, ...] = ()
    """JSON pointers of the body's values that carry that id: serving puts the call's id there."""
    per_response: tuple[str, ...] = ()
    """JSON pointers of values that change per response (a request id, a time): not proof of
    anything, so serving does not answer them as recorded (docs/absence.md)."""
    path_texts: tuple[AbsencePathText, ...] = ()
    """Texts that name the read's path values other than as ``id_pointers`` carry them."""
    reserved_prefixes: tuple[str, ...] = ()
    """Leading characters of the application's own routes beside the item path (``_`` of
    ``/_all_dbs``) that no id of the type starts with (``view-reserved-ids``): an id starting with
    one may name another route, so the absence is not answered for it."""
    reserved_collections: tuple[str, ...] = ()
    """Held collections where the absence answers no id (``view-reserved-ids``: one holds an
    entity whose id is empty text, which the application names by an id the capture does not show)."""

    left_out_at_default = ("reserved_prefixes", "reserved_collections")


class KeyAlias(_Model):
    """An entity of an item view's type that another type holds under another key
    (``view-key-aliases``): the application may answer it under that key too."""

    rule_id: str
    other_type: str
    key: str
    """Its key in the view's type (``bridge``)."""
    other_key: str
    """Its key in the other type (``podman``)."""
    identity_member: str
    """The member whose value names it in both (``Id``)."""


class SkippedNumbers(_Model):
    """The span of numbered ids an item view's type held at the capture's start, which skips some
    (``view-absence-sequence-gaps``): the view's recorded absence is not given for a number inside
    it that the state does not hold."""

    rule_id: str
    low: int
    high: int


class OtherParentAbsence(_Model):
    """A read recorded before the capture's first write that answered missing an id the item view's
    type held under another parent only (``view-absence-other-parents``): the application scopes the
    child to the parent its path names, so serving answers such a read's absence instead of refusing it."""

    rule_id: str
    record: int


class UnprovenIdShape(_Model):
    """A feature of an id's layout no id the capture shows for an item view holds
    (``view-absence-id-shapes``): the application may refuse such an id as malformed, so the
    view's recorded absence is not given for it."""

    rule_id: str
    pattern: str
    """A regular expression an id holding the feature matches (searched)."""
    described: str
    """How a refusal names the feature (``two separators side by side``)."""


class EitherKey(_Model):
    """An item path whose parameter takes either the identity or another key member
    (``view-either-keys``): a value of the identity's shape names the identity, any other the member."""

    member: str
    pattern: str
    """The identity's shape, a regular expression a value must match whole."""
    ignore_case: bool = False
    base64_of: str | None = None
    """When set, the value must also be base64 whose decoded text matches this whole (a Relay global
    id, base64 of ``Project:1``)."""
    rule_id: str | None = None

    def names_identity(self, value: str) -> bool:
        return shaped_as(value, self.pattern, self.ignore_case, self.base64_of)


def shaped_as(value: str, pattern: str, ignore_case: bool = False, base64_of: str | None = None) -> bool:
    """``value`` matches ``pattern`` whole and, with ``base64_of``, is strict base64 (padded) of UTF-8
    text matching ``base64_of`` whole: the one test the evaluator and serving share."""
    if re.fullmatch(pattern, value, re.IGNORECASE if ignore_case else 0) is None:
        return False
    if base64_of is None:
        return True
    text = padded_base64_text(value)
    return text is not None and re.fullmatch(base64_of, text) is not None


class IdAddress(_Model):
    """The identity member is the very address an entity is read at (``identity-field.own-address``:
    Pulp's ``pulp_href``, a HAL ``self`` link): the item path's parameter is that address's last
    segment. A value the path carries names the entity whose identity is ``origin``, the collection's
    path, the value and, with ``trailing_slash``, a slash: the one spelling every item read showed."""

    origin: str = ""
    """The scheme and authority an absolute address begins with (``http://host:port``); empty when
    the address is origin-relative."""
    trailing_slash: bool = False
    rule_id: str | None = None

    def identity_of(self, collection_path: str, value: str) -> str:
        """The identity a path value names in a collection (spelled as its held path)."""
        return f"{self.origin}{collection_path.rstrip('/')}/{value}{'/' if self.trailing_slash else ''}"

    def segment_of(self, identity: Any, collection_path: str) -> str | None:
        """The path value an identity of the collection carries (None when it has another form)."""
        if not isinstance(identity, str):
            return None
        head = f"{self.origin}{collection_path.rstrip('/')}/"
        tail = "/" if self.trailing_slash else ""
        if not identity.startswith(head) or not identity.endswith(tail):
            return None
        value = identity[len(head):len(identity) - len(tail)]
        return value if value and "/" not in value else None


class EntityType(_Model):
    name: str
    collection_template: str
    item_template: str | None = None
    id_field: str
    list_tools: tuple[str, ...] = ()
    item_tools: tuple[str, ...] = ()
    key_fields: dict[str, str] = Field(default_factory=dict)
    """Item tools that address the entity by another field (tool -> field), e.g. by name."""
    either_key: EitherKey | None = None
    """The item path's parameter takes either the identity or this key member (told apart by shape)."""
    address: IdAddress | None = None
    """The identity member is the entity's own address and the item path's parameter its last
    segment (``IdAddress``): path values are matched against it through ``address.identity_of``."""
    shallow_items: str | None = None
    """The item path lies outside the collections (shallow nesting, ``view-shallow-items``: the rule
    that joined them): ``/versions/{id}`` names the entity whichever ``/projects/{p}/versions``
    holds it, found by its id across the type's collections (``serving/state/shallow``)."""
    nested_ids: bool = False
    """Ids are paths (the item parameter spans segments, ``manifest.path_spans``): an id that
    extends another by ``/`` names an entity under it, which a delete of the other would take
    along; serving refuses such a delete, since a delete removes the entity alone."""
    redrawn_ids: tuple[str, ...] = ()
    """Initial ids a later whole list showed named anew, all else alike (the gate's ``reidentified``:
    Alerta's configured roles, new ids on every read): serving refuses an item call naming one, since
    the application may answer nothing there by the time it is made."""


class QuerySpec(_Model):
    """A learned query: how one query parameter evaluates over a collection's members."""

    param: str
    """The parameter's name, percent- and form-decoded (``filters[title][$eq]``)."""
    kind: Literal["equals", "compare", "in", "search", "text", "sort", "order", "page", "limit", "start", "end",
                  "offset", "expression"]
    field: str | None = None
    operator: str | None = None
    """For ``compare``: one of ==, >=, <=, >, <, !=; for ``text``: contains, icontains, startswith,
    istartswith, endswith; for ``page``: the page base (``1`` or ``0``); for ``sort``: ``desc``
    when the parameter sorts descending whatever its value says (``_sort_desc``)."""
    index: int | None = None
    """The position an indexed parameter gives its value (``sort[1]``, ``filters[name][$in][0]``):
    sort keys apply in index order, list values of one field join."""
    separator: str | None = None
    """The value lists several sort keys or ``in`` values joined by this (``a,-b``)."""
    descending_prefix: str | None = None
    """A sort key beginning with this sorts descending (``-views``)."""
    direction_separator: str | None = None
    """A sort key may end with this and a direction word (``views:desc``)."""
    directions: dict[str, Literal["asc", "desc"]] = Field(default_factory=dict)
    """Direction words (lower case) a sort key's suffix or an ``order`` value may carry."""
    operators: dict[str, str] | None = None
    """For ``expression``: spelled operator -> ==, !=, >, >=, <, <=, icontains or !icontains (the
    value compares fields with literals, joined by ``separator``: ``bundle/filter_expressions``)."""
    syntax: Literal["infix", "json-object", "column-objects"] = "infix"
    """For ``expression``: how the value spells its comparisons: ``infix`` (``views>=12 && status='x'``,
    joined by ``separator``) or ``json-object`` (Waterline's ``{"views": {">=": 12}, "status": "x"}``:
    each member a field, equal to a literal or compared by operator members, all of them holding)."""
    within: str | None = None
    """For a ``json-object`` expression: the member of the value's object the comparisons sit in, the
    object holding nothing else (LoopBack's ``filter={"where": {"isComplete": false}}``)."""
    clause_keys: tuple[str, ...] | None = None
    """For a ``column-objects`` expression: the members each object names its field, operator and
    literal by (Flask-AppBuilder's ``col``, ``opr``, ``value``)."""
    proven_clauses: tuple[str, ...] | None = None
    """For ``expression``: the comparisons the recordings proved, as operator and literal kind
    (``>=:number``, ``==:text``; for ``column-objects`` led by the field, ``name icontains:text``);
    serving refuses a value comparing otherwise."""
    container: str | None = None
    """The parameter whose structured value holds this one as a member (``q`` of Flask-AppBuilder's
    ``q=(order_column:name)``; ``param`` is then ``q.order_column``): ``bundle/structured_queries``."""
    container_syntax: Literal["rison"] | None = None
    """How ``container``'s value spells its members."""
    member_kinds: tuple[str, ...] | None = None
    """For a container's member: the kinds (text, number, boolean, array, object) the proving lines
    sent it as; serving refuses another (``page:'0'`` where ``page:0`` was sent)."""
    zero_size_proven: bool = False
    """For ``limit``: a line that proved it sent a size of 0, so serving answers 0 as it did; without
    it serving refuses 0, which applications read apart (nothing, their default page, their largest
    page: Flask-AppBuilder lists everything for page_size:0, or a refusal)."""
    fields_proven_only: bool = False
    """For a ``sort``: its rule sorts only by the fields a proving line sorted by (``proven_fields``)."""
    proven_fields: tuple[str, ...] | None = None
    """For a ``sort`` whose rule sorts only by proven columns: the fields the proving lines sorted by;
    serving refuses another (Flask-AppBuilder answers 400 for a column outside its order_columns)."""
    direction_required: bool = False
    """For a ``sort`` whose direction lives in another parameter (an ``order`` one): a call sending the
    sort without it is refused, since no recording shows the application's default direction."""
    proven_keys: int | None = None
    """For ``sort`` with a ``separator``: the most keys one value of the lines that proved it lists;
    serving refuses a value listing more (an application may refuse several keys, as Waterline
    answers ``sort=genre ASC,year DESC`` with 400). For a keyed sort (``field`` set, the name
    naming it: ``$sort[views]``): the most keyed sort parameters one proving line sent."""
    spaced_keys_proven: bool = False
    """For ``sort``: a line that proved it sent a sort key (or a keyed sort's direction) with spaces
    around it (``sort=Genre, -Year``), so serving reads such a key as the recordings did, without
    its spaces; without it serving refuses one: an application may trim it or refuse it (NocoDB
    answers ``sort=%20Title`` 404 ``Field ' Title' not found``)."""
    proven_directions: tuple[str, ...] | None = None
    """For ``sort`` and ``order``: the direction spellings, exactly as sent, of the lines that proved
    it (a suffix word ``desc`` or ``DESC``, the descending prefix ``-``, an ``order`` value, a keyed
    sort's value: ``queries.direction_spellings``), and those ``view-sort-direction-spellings``
    accepts beside them (``asc`` beside ``desc``); serving refuses a call spelling a direction
    otherwise (``Desc``, ``descending``), which an application may refuse or ignore (sorting
    ascending) where serving would sort descending. None (a spec built before it was learned): not
    checked."""
    text_order_proven: bool = False
    """For ``sort``: a line that proved it sorted texts whose order depends on the collation
    (``serving/reads/text_order``: ``apple`` beside ``World``) and showed them in code-point
    order; without it serving refuses a sort over such texts, whose order the capture leaves open."""
    tie_order_proven: tuple[str, ...] = ()
    """For ``sort``: the directions (``asc``, ``desc``, one per key, joined by commas) in which a
    line that proved it listed two or more entities equal in every sort key, in the order serving
    keeps them (the state's); a sort in another direction over entities that tie, where the tie
    decides the order or the page, is refused: the application's tie-break (by id, by insertion,
    or none) is not shown."""
    tie_order_unlike_ids: tuple[str, ...] = ()
    """Of ``tie_order_proven``, the directions in which such a recorded run was not in its
    identities' order: the held order, not the ids', broke the tie. Elsewhere the recordings cannot
    tell the two apart, and serving refuses a run whose held order is not its id order."""
    text_case_proven: bool = False
    """For ``text``: a line that proved it filtered by a text whose letter case decided whether a
    held text matched (``NOTES`` finding ``Beta notes``), so serving matches case as it does."""
    wildcards: tuple[str, ...] = ()
    """For ``text`` and ``expression`` (its case-insensitive contains): characters an application
    matching by pattern may read as wildcards (SQL LIKE's ``%`` and ``_``, the rule's yields) where
    another reads them as themselves; serving refuses a text holding one, which no recording reads."""
    vocabulary: tuple[str, ...] | None = None
    """For ``equals`` on a field holding values from a closed list (``view-query-vocabularies``):
    the texts the capture shows it holding or filtered by; serving refuses another."""
    sizes: tuple[int, int] | None = None
    """For ``limit``, when the capture shows the application bounds it (``view-page-size-bounds``):
    the least and greatest size the view's successful reads sent; serving refuses one outside."""
    rule_id: str | None = None


class EnvelopeMember(_Model):
    """One member of a list answer's envelope and how serving renders it (``view-list-members``).

    ``page-count``: the number of pages of the size the sibling member at ``field`` holds that
    the counted members fill (what the filters select before paging, wherever the state says
    which), else as ``recorded``;
    ``page-number``, ``first-page``, ``last-page``: the page the call's start and page size cut
    (start / size + 1; start is 0; start + size reaches what the filters select), where the start is
    a multiple of the size and not past the end, else as ``recorded`` (NocoDB's pageInfo);
    ``last-page-unless-final``: as ``last-page`` where no recording showed a final page past the
    first (so it may flag a whole list): rendered only where both readings agree (not on a final
    page past the first);
    ``listed-field``: the values of ``field`` of the members the answer lists, in the order listed
    (Flask-AppBuilder's ``ids``);
    ``next-number``, ``previous-number``: the number of the next or previous page (the page
    parameter ``field``, counted from 1), null where there is none (privacyIDEA's next and prev);
    ``first-page-constant``: the base recording's value on a call asking the first page (no page
    number or start, or the first), else as ``recorded`` (no recording showed a later page);
    ``next-link``, ``previous-link``: an absolute link to the next or previous page, the request's
    own URL with the page or start parameter ``field`` moved by one page (DRF's ``next`` and
    ``previous``), null where there is none, rendered with the request's origin;
    ``count``: the number of members the answer counts (the listed ones, or the filtered ones
    before paging); ``whole-count``: that number on an answer listing all its query selects, else
    as ``recorded`` (a page's own counter may count the page); ``sum``: the sum of ``field`` over those; ``constant``: the base recording's
    value; ``whole-constant``: that value on a line listing the whole collection; ``query-echo``:
    the integer value of the query parameter named by ``field`` the call sent, else the base
    recording's value where that recording did not send it either (the default); ``digest``: a
    tag of the answer's content (an entity tag hashing the page), the recording's while the line's
    collection is as recorded and the call asks what it asked, else a SHA-256 of the rendered answer
    spelled as the recorded tag (``serving.reads.envelope.content_tag``); ``recorded``:
    the line's recording's value, only while the line's collection is as recorded and the call
    asks what the recording asked (otherwise the answer is refused: the state does not hold it).
    """

    pointer: str
    """Where the member sits in the answer (a JSON pointer: ``/meta/pagination/total``)."""
    role: Literal["count", "whole-count", "sum", "page-count", "constant", "whole-constant", "recorded", "query-echo",
                  "digest", "listed-field", "page-number", "first-page", "last-page", "last-page-unless-final",
                  "next-link", "previous-link", "first-page-constant", "next-number", "previous-number"]
    field: str | None = None
    rule_id: str | None = None
    echo_added: bool = True
    """For ``query-echo``: every recording that sent the parameter carried the member, so serving
    adds it to a base recorded without it (Feathers' limit to $limit); False where one did not
    (NocoDB answers offset only beside an offset no multiple of the limit): then only as the base
    carries it."""
    link_origin: str | None = None
    """For ``next-link`` and ``previous-link``: the origin (scheme://host[:port]) the recorded links
    carried, the request's own: an MCP call, sent to no host, is answered links to it."""
    link_origin_fixed: bool = False
    """The recorded links named ``link_origin`` whatever origin their request reached (an
    application configured with its own base URL): rendered with it over HTTP too."""
    link_first_dropped: bool | None = None
    """For ``previous-link``: a link to the first page leaves the page parameter out (True: DRF's
    ``?page_size=1``), names it (False), or no recording showed one (None: such a link is refused)."""
    link_sorted: bool | None = None
    """For the links: their query's parameters are sorted by name (True: DRF's urlencode of sorted
    items), kept in the request's order with the page parameter replaced in place or added last
    (False), or no recording told the two apart (None: rendered only where both agree)."""


class ProjectedMember(_Model):
    """A member of the listed entities that a list line shows as its own projection, not as the
    state holds it (``view-list-projections``): its recordings show it otherwise than the item
    reads of the same entity at the same point of the timeline.

    ``constant``: the line shows ``value`` for every entity (serving renders it); ``reference``: the
    line shows, where the item reads show an object, that object's ``reference_field`` (a list of
    files showing ``playbook: 1`` where a file's read embeds the playbook ``{"id": 1, ...}``), which
    serving renders from the state's object; ``own``: the state does not determine what the line
    shows (the read gate refuses the line).
    """

    name: str
    role: Literal["constant", "reference", "own"]
    value: Any = None
    reference_field: str | None = None
    evidence: str | None = None
    """The first recording that showed it otherwise than an item read, in words."""
    rule_id: str | None = None


class ItemMember(_Model):
    """A member beside an item view's entity that serving renders for the entity it answers with
    (``view-item-members``); members not listed show what the view's base recording shows.

    ``path-value``: the path value the call named, percent-decoded, as a string (``scalar``), as the
    integer it spells (``number``, Flask-AppBuilder's ``{"id": 1, "result": …}``) or a one-element
    array of it (``singleton``), as Datasette's ``primary_key_values``. ``within``: the envelope
    members leading to the object holding it beside the entity's member (the view's
    ``locator.within``: ``{"data": {"id": 1, "result": …}}``), none at the top.
    """

    member: str
    role: Literal["path-value"]
    form: Literal["scalar", "number", "singleton"] = "scalar"
    rule_id: str | None = None
    within: tuple[str, ...] = ()


LATER_STATE = "later-state"
"""``ListLine.held_digest`` of a line whose base was recorded after a write to its collection."""


class ListLine(_Model):
    """One recorded request line of a list view: path arguments and query, as recorded."""

    path: str
    query: Pairs = ()
    collection: str | None = None
    """The collection (spelled as recorded) this line lists."""
    membership: Literal["all", "recorded"] = "recorded"
    recorded_ids: tuple[Any, ...] = ()
    base: Recording
    record_ordinals: tuple[int, ...] = ()
    all_record_ordinals: tuple[int, ...] = ()
    """Ordinals of recordings that listed the whole collection (membership ``all`` evidence)."""
    state_backed: bool = False
    reason: str | None = None
    queries: tuple[QuerySpec, ...] = ()
    """Learned queries that evaluate this line over the state (empty: plain line)."""
    shown_fields: tuple[str, ...] = ()
    """The fields this line's own recordings showed, when they differ from the view's (a query
    such as ``fields=all`` or ``_col=`` changes which fields a list shows); empty: the view's."""
    pages_only: bool = False
    """The line's query only pages the list (``view-query-params``): its counters count the
    whole collection."""
    held_digest: str | None = None
    """The digest of the line's collection when its base was recorded (the initial state):
    ``recorded`` envelope members are rendered only while the collection still has it. A base
    recorded after a write to the collection's path showed a state no digest names:
    ``LATER_STATE``, which no collection's digest equals."""
    projected_members: tuple[ProjectedMember, ...] = ()
    """Members of the listed entities this line shows as its own projection (``view-list-projections``)."""


class DocumentLine(_Model):
    path: str
    query: Pairs = ()
    base: Recording
    locator: Locator = Locator(kind="root")
    state_backed: bool = False
    reason: str | None = None
    record_ordinals: tuple[int, ...] = ()
    summarises: tuple[str, ...] = ()
    """Types whose collections lie below this document's path and whose rows it may show (counts,
    names): answered from the state only while they are as the capture began
    (``interpreter/view/document_summaries``)."""


class Projection(_Model):
    """A learned projection query (``view-projection-queries``): the parameter whose values name the
    members a read answers with (``fields=id,title``, ``fields[0]=title``, ``_col=title&_col=views``,
    JSON:API's ``fields[articles]=title``), proven by recorded answers holding exactly the members
    named, plus those the application keeps, each agreeing with a plain read of the same path.

    Serving answers such a call as the call without the parameter, each entity left with the members
    named and ``kept``; a value naming what no recording proves is refused (``serving/reads/projection``).
    """

    root: str
    """The parameter's name before any bracket (``fields``), decoded."""
    form: Literal["plain", "appended", "indexed", "typed"]
    """``plain``: ``fields=a,b`` (repeatable); ``appended``: ``fields[]=a``; ``indexed``: ``fields[0]=a``;
    ``typed``: ``fields[articles]=a,b`` (``param`` names the bracket)."""
    param: str
    """The decoded name a call sends (``fields``, ``fields[]``, ``fields[articles]``; for ``indexed``, the root)."""
    separator: str | None = None
    """One value names several members joined by this (``id,title``); None: one member per value."""
    kept: tuple[str, ...] = ()
    """Members the application answers with though not named (Strapi's ``id`` and ``documentId``)."""
    dropped: tuple[str, ...] = ()
    """Members the recordings show left out when not named; any other member not named is refused."""
    wildcards: tuple[str, ...] = ()
    """Values a recording proved to mean every member (``*``)."""
    inside: str | None = None
    """The entity's object member the named members are members of (JSON:API's ``attributes``); None: the entity's own."""
    members: tuple[str, ...] = ()
    """The members the plain reads it was proven against show (inside ``inside``, when set)."""
    record_ordinals: tuple[int, ...] = ()
    """The recordings that proved it."""
    repeats_proven: bool = False
    """For a parameter whose one value names several members joined by ``separator``: a proving read
    sent it more than once. Without it serving refuses a call sending it more than once: an
    application may read the first value, the last, all of them or refuse (NocoDB answers
    ``fields=Title,Year&fields=Genre`` 404 ``Field 'Title,Year' not found``)."""
    rule_id: str | None = None


class EntityTag(_Model):
    """The ETag an item read answers, spelling one member of the entity (``view-entity-tags``)."""

    header: str
    """As recorded (``ETag``)."""
    member: str
    form: str
    """How the tag spells the member's text, ``{}`` standing for it (``"{}"``)."""
    rule_id: str

    def of(self, entity: dict[str, Any]) -> str | None:
        value = entity.get(self.member)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return None
        return self.form.replace("{}", str(value))


class EmptyAnswer(_Model):
    """What proves how a list view's application answers an empty listing (``view-empty-answers``):
    a recorded empty answer of the view itself, or of a sibling list view whose envelope holds the
    same members and page arithmetic, each holding the members its listing answers hold."""

    rule: str
    tool: str
    """The list tool whose empty answer was recorded (the view's own, or its sibling's)."""
    records: tuple[int, ...] = ()
    """That tool's recorded empty answers."""


class DefaultPage(_Model):
    """A list view's default page size: how many members the application lists when the call names
    no page (``view-default-page-caps``), learned by the gate from the view's unqueried lists that
    answered exactly ``size`` members while the replayed state held more (``record_ordinals``)."""

    size: int
    rule_id: str
    record_ordinals: tuple[int, ...] = ()


class ReadView(_Model, LeftOutAtDefault):
    """How one read tool answers: from state (a rendered view) or by replay, with the reason."""

    left_out_at_default = ("default_page",)

    tool: str
    kind: Literal["item", "list", "document", "none"]
    type: str | None = None
    locator: Locator | None = None
    state_backed: bool = False
    reason: str | None = None
    key_field: str | None = None
    """For an item view: the entity field its path parameter names (the id field, or a key)."""
    base: Recording | None = None
    """For an item view: the recording entities are rendered into."""
    shown_fields: tuple[str, ...] = ()
    required_fields: tuple[str, ...] = ()
    per_response_members: tuple[str, ...] = ()
    volatile_fields: tuple[str, ...] = ()
    sorted_arrays: tuple[str, ...] = ()
    lines: tuple[ListLine, ...] = ()
    documents: tuple[DocumentLine, ...] = ()
    missing: Recording | None = None
    """The latest recorded 400/404/410 or 2xx JSON-null answer, for reads of missing entities
    (the learned absence answer's recording, for an item view that learned one)."""
    absence: AbsenceAnswer | None = None
    """For an item view: how the application answers an id it does not hold, with its evidence."""
    absence_records: tuple[int, ...] = ()
    """This tool's reads that answered an absence (the gate takes them as one)."""
    record_ordinals: tuple[int, ...] = ()
    checked_record_ordinals: tuple[int, ...] = ()
    """Initial-window reads the read gate rendered and compared."""
    learned_queries: tuple[QuerySpec, ...] = ()
    envelope_members: tuple[EnvelopeMember, ...] = ()
    """For a list view: each member of its answers' envelope and how it is rendered."""
    other_shape_records: tuple[int, ...] = ()
    """The tool's reads answered in another shape than the view reads (a query asking for it:
    a list's ``view-list-shapes``, or members a query adds, ``view-query-members``): replayed,
    never checked nor answered from the state."""
    malformed_id_records: tuple[int, ...] = ()
    """For an item view: its reads answered 4xx for an id shaped unlike every id the type holds and
    every id its absence answer was learned from (``view-malformed-ids``): the application refused
    the id's shape before looking it up, which says nothing of the state. Never checked by either
    gate; serving replays each for that very call and refuses other ids of a shape it does not hold."""
    unproven_id_shapes: tuple[UnprovenIdShape, ...] = ()
    skipped_numbers: SkippedNumbers | None = None
    """For an item view with a recorded absence: the span of numbered ids its type held at the
    capture's start when they skip numbers (``view-absence-sequence-gaps``); its absence is not
    given for a skipped number, which the application numbered for an entity the capture never shows."""
    """For an item view with a recorded absence: features of an id's layout that no id the capture
    shows for it holds (``view-absence-id-shapes``); neither its absence nor a write's is given for
    an id holding one, which the application may refuse as malformed."""
    other_parent_absence: OtherParentAbsence | None = None
    """For an item view with a recorded absence: the capture's proof that the application answers an id
    held under another parent missing (``view-absence-other-parents``); without it such a read is refused."""
    key_aliases: tuple[KeyAlias, ...] = ()
    """For an item view: entities of its type another type holds under another key
    (``view-key-aliases``): serving refuses a key the state lacks instead of answering it missing."""
    letter_case_reads: tuple[int, ...] = ()
    """For an item view: its reads that answered the entity at a path spelling the identity in another
    letter case (``view-letter-case-reads``), proving the application folds letter case: serving answers
    a held id so spelled with that entity instead of refusing it. Empty: nothing proves it.
    """
    item_members: tuple[ItemMember, ...] = ()
    """For an item view: the members beside the entity rendered for each entity it answers with."""
    projections: tuple[Projection, ...] = ()
    """Projection queries learned for this item or list view (``view-projection-queries``)."""
    entity_tag: EntityTag | None = None
    """An item view's ETag as the entity's member spells it (None: answers from the state carry none)."""
    withheld_fields: tuple[str, ...] = ()
    """For an item view: members the initial state left out of entities of its type that only a
    list showed, as that list's own projection (``view/projected_state``)."""
    empty_answer: EmptyAnswer | None = None
    """For a list view: what proves how the application answers an empty listing (None: nothing does,
    so serving refuses a listing the state leaves empty rather than render an envelope no recording
    showed empty; an application may answer one otherwise, Alerta's ``"message": "not found"``)."""
    default_page: DefaultPage | None = None
    """For a list view: the members an unqueried list shows at most (None: every one)."""

    def entity_query_ordinals(self) -> tuple[int, ...]:
        """The checked reads whose queries an item view answers from the state: those that showed
        an entity, since a query only an absence was checked with (a 404 for ``?attrs=a&attrs=b``)
        shows nothing of the shape it gives an entity; all of them when none showed one."""
        shown = tuple(o for o in self.checked_record_ordinals if o not in self.absence_records)
        return shown or self.checked_record_ordinals


class Entity(_Model):
    id: Any
    value: dict[str, Any]
    records: tuple[int, ...] = ()


class CollectionState(_Model):
    path: str
    """The collection path spelled as recorded (``/v1/buckets/b1/collections/tasks/records``)."""
    type: str
    args: dict[str, str] = Field(default_factory=dict)
    entities: tuple[Entity, ...] = ()


class DocumentState(_Model):
    path: str
    value: Any
    records: tuple[int, ...] = ()


class StateSnapshot(_Model):
    """The state in the data plane's shape (data/get writes it, data/add loads it)."""

    evidence_id: str
    collections: tuple[CollectionState, ...] = ()
    documents: tuple[DocumentState, ...] = ()


class Budgets(_Model):
    max_entities: int
    max_state_bytes: int = 33554432
    """What data/get may write; data/add's intake less ``data_envelope_bytes``."""
    build_seconds: float
    discovery_characters: int
    tool_description_characters: int
    max_nesting: int
    max_body_bytes: int
    max_query_combinations: int = 64
    instance_idle_seconds: float = 3600
    """``serve --instances``: an instance unused this long is deleted (0: never)."""
    memory_store_commits: int = 1000
    """The memory store keeps the history and idempotency records of this many last commits (0: all)."""
    store_commits: int = 10000
    """The SQLite and PostgreSQL stores keep the history and idempotency records of this many last
    commits (0: all)."""
    mcp_sessions: int = 64
    """MCP sessions one environment keeps open at once; past it a new one is refused."""
    mcp_session_idle_seconds: float = 600
    """An MCP session with no request in flight this long is closed (0: never)."""
    agent_request_bytes: int = 1048576
    """A request body the agent may send on the application's paths (MCP: with its envelope)."""
    mcp_envelope_bytes: int = 65536
    """What an MCP POST may carry beyond ``agent_request_bytes`` (the JSON-RPC envelope, the tool's other arguments)."""
    request_deadline_seconds: float = 10
    """How long a client has to send a whole request, the time the server does not read not counted."""
    keep_alive_seconds: float = 30
    """How long a connection may stay idle between requests."""
    listener_connections: int = 256
    """Connections one listener keeps open at once; past it a new one is answered 503 and closed."""
    request_head_bytes: int = 16384
    """A request head (request line and headers) held while not ended; past it: 431, closed."""
    catch_up_entries: int = 1000
    """A process sharing a store past this many log entries behind reloads the state from one snapshot
    instead of reading entry by entry."""
    data_envelope_bytes: int = 1048576
    """What a data plane request may carry beyond ``max_state_bytes``: its intake is the two together."""
    fleet_create_bytes: int = 65536
    """The body of a fleet's instance create (``POST /_capenv/instances``)."""
    drain_bytes: int = 67108864
    """Of a request body refused as too large, how much more is read and dropped so the client sees the 413."""
    shutdown_grace_seconds: float = 3
    """How long a stopping server waits for its open connections before it closes them."""
    query_examples: int = 12
    """A query parameter's distinct recorded values its schema lists as examples at most (past it: described)."""
    body_example_characters: int = 400
    """A recorded request body whose JSON text is this short may be the schema's example of a body."""
    recorded_value_characters: int = 120
    """A recorded value whose JSON text is this short is quoted in full in a write tool's description."""
    described_values: int = 3
    """A path or query parameter's recorded values a tool description shows at most, whatever its level;
    the recorded texts a body member's text layout gives as its schema's examples."""
    quoted_value_characters: int = 40
    """A recorded value or name a tool description quotes is this long at most; a longer one (a token,
    a cursor) is described by its length."""
    paths_named: int = 40
    """The served paths an answer for a path no tool answers names at most."""
    path_values_quoted: int = 5
    """A path parameter's recorded values its schema description or a refusal lists at most (then "and N more")."""
    names_quoted: int = 20
    """The query parameter or body member names a tool's accepted arguments list at most (then "and N more")."""
    values_quoted: int = 8
    """The values any other refusal lists at most (the arguments a tool does not take, the recorded
    paths or queries a replay refusal names, the collections held): then "and N more"."""
    query_values_quoted: int = 6
    """A query parameter's recorded values its schema's description (when they are not its examples)
    or a refusal of a value of the wrong type lists at most."""
    held_values_quoted: int = 10
    """The held entities' key values a refusal of an id the state does not hold lists at most."""
    copy_name_characters: int = 3
    """A text this long names its entity where another type's entity under the same id shows it alike
    and no other entity of the written type holds it: an update changing it, or a delete, is refused."""
    tools_named: int = 200
    """The served tools a call of a tool not served names at most."""
    missing_statuses: tuple[int, ...] = (404, 410)
    """A write's recorded answer for an id it does not hold, which the item view's absence must equal
    for it to answer the type's writes (a 400 more often refused what the write sent)."""
    absence_statuses: tuple[int, ...] = (400, 404, 410)
    """The recorded statuses that answer for an entity the application does not hold (a read's
    absence, a write's recorded absence); the default reads a bundle written before it was carried."""


class BudgetHit(_Model):
    budget: str
    limit: float
    reached: float
    effect: str


class InitialWindow(_Model):
    """Reads that finished before the first write began are the initial recording."""

    first_write_ordinal: int | None
    first_write_started_at: str | None
    read_ordinals: tuple[int, ...] = ()


class ReadOnlyPost(_Model):
    tool: str
    rule: str


class ViewResult(_Model):
    evidence_id: str
    rules_revision: str
    primary_origin: str | None
    types: tuple[EntityType, ...] = ()
    views: tuple[ReadView, ...] = ()
    window: InitialWindow
    state: StateSnapshot
    state_available: bool = True
    budgets: Budgets
    budget_hits: tuple[BudgetHit, ...] = ()
    read_only_posts: tuple[ReadOnlyPost, ...] = ()
    writes: tuple["WritePlan", ...] = ()
    write_clock: str | None = None
    write_absences: dict[str, Recording] = Field(default_factory=dict)
    """Per item write tool, its learned answer for a missing entity (``write-absence-answers``),
    served before the tool's recorded 400/404/410."""
    write_held_refusals: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """Per item write tool, its recorded 400s for entities the capture holds
    (``write-absence.held-id-refusal``): refusals of what the call sent, never answered for a
    missing entity (serving falls back on the item view's learned absence)."""
    write_absence_vetoes: dict[str, int] = Field(default_factory=dict)
    """Per item write tool, the record of its own successful call naming an id the capture never
    shows (``write-absence.never-shown-success``): the application answered that write otherwise
    than the item view's absence would, so the view's absence never answers the tool's write of a
    missing entity (serving refuses it as missing, saying why)."""
    traces: tuple[TraceEvent, ...] = ()

    def view(self, tool: str) -> ReadView | None:
        for view in self.views:
            if view.tool == tool:
                return view
        return None

    def type(self, name: str) -> EntityType:
        for entity_type in self.types:
            if entity_type.name == name:
                return entity_type
        raise KeyError(name)


class RecordedCall(_Model):
    """One recorded call of a tool, kept in the bundle for replay."""

    ordinal: int
    method: str
    path: str
    query: Pairs = ()
    request_body: Any = None
    request_is_json: bool = False
    request_text: str | None = None
    response: Recording
    initial: bool = False
    """Finished before the capture's first write began: it shows the state serving starts from."""
    accept: str | None = None
    """The call's variant (``bundle/variants.variant_key``), kept only for a tool whose recordings
    sent a header selecting the answer with more than one value (``view-variant-headers``): the
    normalised Accept header when Accept is the tool's only such header (content negotiation),
    else one ``name: value`` line per header of ``ReplayTable.variant_headers``."""


class StaticCredential(_Model):
    """A credentials header whose value is static across the capture (``write-credential-values``):
    one value or a few, no recorded answer issuing it and no client minting it per call. An HTTP
    call sending it with another value is refused (the application answers a wrong password or key
    401/403). Only digests are kept (``bundle/credential_values``): no bundle holds the secret."""

    compare: str
    """How a value is compared: ``value`` (whole, the scheme's word in any case),
    ``user-password`` (HTTP Basic, decoded), ``signed-shape``/``signed-recorded`` (JWTs), or
    ``session-cookie`` (a Cookie header by one cookie's value, ``cookie``)."""
    digests: tuple[str, ...]
    """The SHA-256 digests of the values successful recorded calls sent."""
    rule_id: str
    cookie: str = ""
    """For ``session-cookie``: the cookie (by name) whose value tells the callers apart."""
    bound_to: str = ""
    """A path parameter each recorded value was sent with one value of (a project's credentials on
    its own paths, refused 401 on another's): ``digests`` then hold ``bound_digest`` pairs, and a
    call is accepted only with a value recorded with the value its path names there."""


class ReplayTable(_Model):
    tools: dict[str, tuple[RecordedCall, ...]] = Field(default_factory=dict)
    default_accept: dict[str, str] = Field(default_factory=dict)
    """Per tool whose recordings sent a header selecting the answer with more than one value: the
    variant most of them sent (ties: the earliest), which a call sending none is taken to send
    (docs/absence.md, "Replay")."""
    required_accept: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Per read tool whose every recording sent an Accept header naming specific media types
    (``view-accept-defaults``): those values, normalised (``paths.normalised_accept``). Serving
    answers such a tool over HTTP only to a call sending one of them: what the application answers
    a call sending none (Node-RED: an HTML page) the capture does not show."""
    live_reports: dict[str, str] = Field(default_factory=dict)
    """Per document read tool whose answers hold the application's own now (``view-live-reports``:
    a diagnostics report's time): why. Serving refuses its reads rather than answer an old now."""
    variant_headers: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Per tool of ``default_accept`` whose selecting headers are not Accept alone: those headers,
    lower case, in the order its variant keys name them (a tool missing here selects by Accept)."""
    credential_variant_headers: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Per tool of ``variant_headers``, those of its headers that carry credentials (a read answering
    each caller an object of their own, ``variant-header.credentials-name-the-caller``): a refusal
    names them but never says a value of them, recorded or sent."""
    reads_types: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Per read tool, the state types its answers may show (its path is at or below their
    collection paths, or its answers name their entities): replay answers it only while its
    recording cannot contradict the state (DESIGN.md §5 "Replay")."""
    credential_headers: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Per read tool every successful recording of which sent a header carrying credentials
    (``write-credentials``, as for write plans): those headers, lower case. An HTTP call leaving
    one out is refused (the application answers it 401/403); its value is checked only where it is
    static (``static_credentials``)."""
    static_credentials: dict[str, StaticCredential] = Field(default_factory=dict)
    """Per credentials header (lower case) some tool requires (``credential_headers``, a write
    plan's too) whose value is static across the capture: the values an HTTP call may send it with."""
    pinned_headers: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Per tool (read or write) every successful recording of which sent a header selecting a
    version of the API with one value (``request-version-headers``): {header (lower case): value}.
    An HTTP call sending another value or none is refused."""
    guarded_headers: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Per tool (read or write) every successful recording of which sent a header with one value the
    application checks, as a call sending another value of it alone was refused (an Origin it does
    not trust; ``request-guard-values``): {header (lower case): value}. An HTTP call sending another
    value or none is refused."""
    neutral_query: dict[str, dict[str, tuple[int, int]]] = Field(default_factory=dict)
    """Per tool, the query parameters (decoded names) two of its recordings show change nothing:
    same path and body, queries differing in that parameter alone, the same answer (the two
    records). Only these may differ between a call and the recording replay answers it with."""
    unauthenticated: tuple[int, ...] = ()
    """The reads refused for credentials they were sent without (a 401; a 403 lacking a header
    every successful call carried: ``view/unauthenticated``). Authorization is not modelled: such
    an answer says nothing of the ids a read names, so serving never takes it for the
    application telling ids apart (``serving/reads/absence_shapes``)."""


class BundleInfo(_Model):
    format: Literal["capenv-bundle/1"] = "capenv-bundle/1"
    evidence_id: str
    rules_revision: str
    source: str
    """The capture the bundle was built from (its file name)."""
    records: int
    primary_origin: str | None


# --- write plans (seeds/write-effects.txt "Write plans") -------------------------------------

class FieldRule(_Model):
    """How one field of a written entity gets its value: the rule that explained it and the op
    serving runs (with the op's parameters). Serving never re-derives a rule."""

    field: str
    rule_id: str
    op: str
    params: dict[str, Any] = Field(default_factory=dict)
    evidence: dict[str, Any] = Field(default_factory=dict)


class MemberRule(_Model, LeftOutAtDefault):
    """Whether a body member is accepted (seeds: "Body members of a create", "Updates")."""

    member: str
    admission: Literal["accepted", "recorded-only", "not-accepted"]
    rule_id: str
    required: bool = False
    kind: str | None = None
    """The JSON type a call must send it as."""
    nullable: bool = False
    """A call may send it as null too (``member-kinds``: recorded calls sent both). Written only when set."""
    recorded_value: Any = None
    reason: str | None = None
    nested_members: tuple[str, ...] | None = None
    """An object member accepted only holding exactly these members (the exemplar's): a recorded
    call sent it holding others, and an object stored as sent would leave out what the application
    fills in for members a call leaves out (a note it stores empty)."""
    path_id_only: bool = False
    """The identity member, accepted only as the id the call's path names (``update-member.identity``):
    no recorded call sent another, so what the application does with one (refuse it, rename the
    entity) the capture cannot show. Written only when set."""

    left_out_at_default = ("path_id_only", "nullable")


class InsertRule(_Model, LeftOutAtDefault):
    """Where a create places its entity in the collection's order."""

    rule_id: str
    kind: Literal["sorted", "first", "last"]
    field: str | None = None
    descending: bool = False
    unproven: bool = False
    """The recorded listing shows the create where ``kind`` puts it, but another member of the
    entities orders it as well (``insert.first-unproven``): serving places it so, and refuses a
    list of the collection showing it beside another (``reads/list_places``), since where the
    application lists the next create the capture cannot show. For a ``sorted`` kind
    (``insert.id-ascending-unproven``), the order the entities were made in fits the listings as
    well: only a create the sort places anywhere but last is refused so."""
    alike: tuple[str, ...] = ()
    """Other orders a recorded list fits as well as this rule (the gate swapped this rule in for a
    list, ``gate/list_checks.other_explanations``: a place first, a sort by another member): a
    create it places last is refused beside another too, since those orders may not put it last.
    Written only when set."""
    unproven_anywhere: bool = False
    """For an unproven ``sorted`` kind: another member of the entities sorts every recorded listing
    alike (``insert.id-ascending-member-unproven``), so a create the sort places last may be listed
    elsewhere as well: serving refuses a list showing it beside another wherever it placed it.
    Written only when set."""

    left_out_at_default = ("alike", "unproven_anywhere")


class Address(_Model):
    """How a write names its target: by its path (item, document), an action segment, a body's
    ids or elements (bulk), or a linked create's returned id."""

    by: Literal["path", "action", "ids", "elements", "link", "collection", "document"]
    segment: str | None = None
    """An action's literal segment after the item path (``archive``); for a write by path, the
    literal segments after the item path that name what it does (Datasette's ``-/delete``)."""
    member: str | None = None
    kind: str | None = None

    def segments_after_item(self) -> int:
        """How many literal segments follow the item path in a call's path (0: the path is the
        item path; the entity's key is the segment before them)."""
        return len(self.segment.split("/")) if self.by in ("path", "action") and self.segment else 0


class AnswerPathMember(_Model):
    """A member of a split answer's entity repeating a path value of the call: the segment at
    ``segment`` percent-decoded, as a string (``scalar``) or the integer it spells (``number``)."""

    member: str
    segment: int
    form: Literal["scalar", "number"] = "scalar"


class SplitAnswer(_Model, LeftOutAtDefault):
    """An answer that splits the entity's identity from the entity (``write-answer-envelopes``,
    Flask-AppBuilder's ``{"id": 7, "result": {…}}``): ``id_member`` holds the identity at the root
    (None: the answer shows none), ``entity_member`` the entity as the state holds it after the
    call, projected on the members the call sent (``sent``), on ``fields`` whatever it sent
    (``fixed``), or on ``fields`` for a call sending exactly them (``either``: no recorded call
    shows which of the two the application answers, so serving refuses any other call), or
    ``acknowledged``: an acknowledging answer (Parse's ``{"objectId", "createdAt"}``) holding at its
    root (or, with ``entity_member``, in the object the answer's one member holds: Roundup's
    ``{"data": {"id", "link"}}``) the identity (``id_member``, or none) and ``fields`` of the entity
    after the call, with ``path_members`` beside; ``sorted_members``: the recorded answers list those members sorted;
    ``transformed``: members the plan does not accept, since an answer showed them transformed."""

    id_member: str | None = None
    entity_member: str | None = None
    """With ``acknowledged``: None when the answer holds ``fields`` of the entity at its root, else
    the answer's one member holding them."""
    projection: Literal["sent", "fixed", "either", "acknowledged"]
    fields: tuple[str, ...] = ()
    path_members: tuple[AnswerPathMember, ...] = ()
    sorted_members: bool = False
    transformed: tuple[str, ...] = ()
    """Members sent that an answer showed otherwise than the entity holds them: not accepted."""
    sent_members: tuple[str, ...] = ()
    """With ``acknowledged``: the members every recorded call sent, when the answer shows them
    beside fields the application made (an update answering ``{id, name, updatedAt}``); no call
    shows whether it answers the members sent or these, so serving answers only a call sending
    exactly them."""
    within: tuple[str, ...] = ()
    """The members leading from the answer to the object split (an envelope of one member every
    recorded answer wraps it in: ``{"data": {"result": {…}}}``); the rest of the answer is the
    recorded one's. Written to a bundle only when set."""
    rule_id: str | None = None

    left_out_at_default = ("within",)


class LocationRule(_Model):
    """A create's ``Location`` header as the exemplar answered it around the created entity's id:
    serving writes ``prefix + id + suffix`` for the entity it made (the recorded header itself
    named the recorded entity and is never sent, ``serving/reads/entity_headers``)."""

    prefix: str
    suffix: str = ""


class AnswerReport(_Model):
    """A write's answer that reports on the call rather than showing the entity
    (``write-answer-reports``: Icinga's ``{"results": [{"code": 200, "name": "lab", "status":
    "Object was deleted.", "type": "HostGroup"}]}``): the recorded object at ``locator``, its
    ``fields`` (those the type's reads show) rendered from the entity the call wrote, its other
    members as recorded."""

    locator: Locator
    fields: tuple[str, ...] = ()
    rule_id: str | None = None


class ResponseRule(_Model, LeftOutAtDefault):
    """What a served write answers with: the exemplar's status and content type, its body
    rendered from the state where the exemplar's body carried the entity (``locator``), or
    split it (``split``)."""

    status: int
    content_type: str | None = None
    headers: Pairs = ()
    body: Any = None
    is_json: bool = True
    text: str | None = None
    carries_entity: bool = False
    locator: Locator | None = None
    omitted: tuple[str, ...] = ()
    """Members of the entity the recorded answer left out (``write-answer-omissions``: a delete
    answering its entity without the relations or links its reads show): rendered without them.
    Written only when set."""
    added: tuple[tuple[str, Any], ...] = ()
    """Members an update's answer shows beside the entity with one value in every recorded write
    answer of its type, which no read of the type shows (``write-answer-additions``: Nautobot's
    computed_fields {}): rendered after the entity's fields, as recorded, where it lacks them.
    Written only when set."""
    held_only: tuple[str, ...] = ()
    """Fields of the entity the recorded answer showed that the application answers only for an
    entity holding them (``write-answer-held-only``: another recorded answer of the update left
    the field out for an entity its reads showed without it): a rendered answer may lack them.
    Written only when set."""
    split: SplitAnswer | None = None
    location: LocationRule | None = None
    report: AnswerReport | None = None
    """The answer reports on the call about the entity (its identity among its fields)."""
    entity_headers: tuple[str, ...] = ()
    """Recorded headers (lower case) whose value names the exemplar's entity by its key
    (``plans/entity_bound_answers``): left out of every answer, which would name that entity for
    any other. Written only when set."""

    left_out_at_default = ("omitted", "added", "held_only", "entity_headers")


class CreateKey(_Model):
    """A create's key, learned from a recorded call that named an entity already held (issue 16
    item 4, ``create-keys``): a call whose ``members`` equal a held entity's same-named fields gets
    that entity, unchanged, answered with ``response`` (its entity rendered from the state) on the
    ``get`` branch, or is refused as a conflict on the ``conflict`` branch (``response``: the
    recorded refusal); any other call creates."""

    members: tuple[str, ...]
    branch: Literal["get", "conflict"] = "get"
    response: ResponseRule
    learned_from: int
    """The recorded call the key was learned from."""


class Referrer(_Model, LeftOutAtDefault):
    """A member of another type's entities naming the entities a delete removes (``delete-referrers``:
    an issue's ``project``): serving refuses to delete an entity the state holds such a reference to,
    since the application may delete the referring entities along, clear the reference or refuse,
    and a delete models the entity alone."""

    type: str
    """The referring type (the deleted type itself for a parent reference)."""
    member: str
    """The referring entities' member: a top-level one, or one inside the objects ``within`` leads to."""
    within: tuple[str, ...] = ()
    """The members leading from the entity to the object holding ``member`` (a JSON:API resource's
    ``("relationships", "author")`` before ``data``; an array on the way is crossed element by
    element); empty: ``member`` is top-level. Written to a bundle only when set."""
    id_member: str | None = None
    """Inside the member's object, the member holding the id; None: the member's value is the id."""
    many: bool = False
    """The member holds an array of such values (a post's ``tags: [{"id": …}]``, ``role_ids``): any element may name the entity."""
    rule_id: str

    @property
    def spelled(self) -> str:
        """The member as messages name it: its path from the entity, dotted (``relationships.author.data``)."""
        return ".".join((*self.within, self.member))

    def holders(self, entity: Any) -> list[Any]:
        """The values of ``member`` in ``entity``: through ``within`` (each element of an array on
        the way), each object's ``member`` it holds."""
        return member_holders(entity, self.within, self.member)

    left_out_at_default = ("within",)


def member_holders(entity: Any, within: tuple[str, ...], member: str) -> list[Any]:
    """The values of ``member`` in ``entity`` through the objects ``within`` leads to (each element
    of an array on the way), each object's ``member`` it holds (``Referrer.holders``)."""
    objects = [entity]
    for name in within:
        found: list[Any] = []
        for held in objects:
            inner = held.get(name) if isinstance(held, dict) else None
            found.extend(inner if isinstance(inner, list) else [inner])
        objects = found
    return [held[member] for held in objects if isinstance(held, dict) and member in held]


class ReferenceCopy(_Model):
    """A member of one type's entities holding a copy of a member of the entity its reference member
    names (``reference-copies``: an item's ``tax_rate``, the ``rate`` of the tax rule its ``tax_rule``
    names), equal in every entity and answer the capture shows. A create or update of the holding
    type writes the copy from the referenced entity as the state holds it at call time; an update of
    the referenced type changing the copied member while held entities name the entity is refused,
    since the application rewrites their copies, which this environment does not model."""

    holder: str
    """The type whose entities hold the copy."""
    member: str
    """The holder's top-level member naming the referenced entity by its id."""
    field: str
    """The holder's top-level member holding the copy."""
    source_type: str
    """The referenced type."""
    source: str
    """The referenced entity's member the copy repeats."""
    proven: bool = True
    """False: one value throughout (``reference-copy.equal-unproven``), a copy or a constant both
    types hold alike; a create or re-pointing update is served only where the named entity holds
    the value the plan would answer, refused elsewhere."""
    rule_id: str


class ReferenceRule(_Model):
    """A body member naming an entity of another type by its id (``write-references``: a comment's
    ``post``), and what serving does with a value naming no entity the state holds
    (``write-reference-dangling``): ``refused`` (a recorded call shows the application refusing one)
    and ``unrecorded`` (no recorded call shows it accepting one) are refused, ``accepted`` (a
    recorded success sent one) is stored as sent; ``materialized`` (a read after a success sending one
    shows the entity it named) keeps the whole write unserved (``verdict.reference-materialized``)."""

    member: str
    type: str
    """The type whose entity the member names."""
    collection_template: str
    """That type's collection path, for messages (what a call would send the id of)."""
    rule_id: str
    dangling: Literal["refused", "unrecorded", "accepted", "materialized"]
    dangling_rule_id: str | None = None
    record: int | None = None
    """The recorded call that showed what a dangling value does (a refusal, or an accepting success)."""
    blanks: tuple[Any, ...] = ()
    """Values naming nothing (null, "") a recorded success sent: accepted as sent."""
    many: bool = False
    """The member is a list of ids (a submission's ``tags``), each naming an entity of the type."""

    @property
    def checked(self) -> bool:
        """Serving refuses a call whose value names no held entity."""
        return self.dangling != "accepted"


class ValidatedValue(_Model):
    """A body member whose values the application validates (``write-validated-values``: a recorded
    refusal shows it refusing a value, as PowerDNS's metadata ``kind``): serving accepts only the
    values of it a recorded call succeeded with and refuses any other, state unchanged."""

    member: str
    accepted: tuple[Any, ...] = ()
    """The values of the member the tool's successful calls sent."""
    rule_id: str
    record: int
    """The recorded refusal that showed the member validated."""
    status: int
    by_shape: bool = False
    """Validated by shape, not against a set (``value_shapes``): any value shaped like an accepted
    one is taken (a token without the refused one's new characters, an integer of a recorded sign
    and digit count)."""
    refused_value: Any = None
    """For ``by_shape``: the value the recorded refusal sent."""
    by_element: bool = False
    """Validated element by element (``validated.quoted-element``: the refusal quoted an array's
    element): ``accepted`` holds the elements successful calls sent, and an array is taken only when
    every element of it is one of them."""
    layout: str | None = None
    """Validated by layout (``validated.text-layout``: the refusal named the member, and every
    successful value kept to one layout the refused one did not): the regular expression a text
    must match to be taken (``^#[0-9a-f]{6}$``, ``bundle/text_templates``)."""
    max_length: int | None = None
    """Validated by length (``validated.text-length``: the refusal named the member, whose refused
    text was longer than every successful one): the longest text taken, the longest a recorded call
    succeeded with."""


class UnprovenValue(_Model):
    """A class of value no successful recorded call sent in a body member, where every one kept to a
    shape (``write-sent-values``: no negative number, array elements of one kind, text shaped as an
    e-mail address): what the application does with such a value the capture cannot show, so serving
    refuses it, state unchanged."""

    member: str
    """The body member (top level) whose value is checked."""
    rule_id: str
    schema_keywords: dict[str, Any] = Field(default_factory=dict)
    """JSON Schema keywords the member's value must keep to (``{"minimum": 0}``); published in the
    tool's input schema and enforced by serving."""
    described: str
    """What the accepted values are, as a refusal says it (``a number of zero or more``)."""


class DistinctMember(_Model, LeftOutAtDefault):
    """A body member whose every held and recorded value is distinct text (``write-distinct-values``):
    a create or update repeating the value another entity of the type holds is refused, state
    unchanged (the application may refuse it as taken, which the capture cannot show)."""

    member: str
    """The body member, stored as sent in the entity's field of the same name."""
    rule_id: str
    group: str | None = None
    """The object field a ``field.grouped-members`` rule stores the member in, under its own name
    (Roundup's ``attributes.name``); None: a field of the entity itself."""
    names: str | None = None
    """The type whose entity the member names, when it is a reference whose holder copies that
    entity's members (``distinct.joined-reference-never-repeated``); None: a value of its own."""

    left_out_at_default = ("group", "names")


class UnprovenText(_Model):
    """A text class no recorded call sent in a member the plan stores as sent (``write-stored-text``):
    the capture cannot show how the application stores it (escaped, stripped, trimmed), so serving
    refuses a value of the member holding it, state unchanged."""

    member: str
    """The body member (top level) whose value's strings are checked."""
    rule_id: str
    pattern: str
    """A regular expression a string of the class holds (searched)."""
    described: str
    """How a refusal names the class (``markup characters (<, >, &)``)."""


class ChosenId(_Model):
    """The shape a create's client-chosen identity must have (``write-chosen-ids``): the identity
    comes from the call (a body member echoed or copied, the path segment naming it), and the
    capture shows only ids of this shape held; serving refuses another, state unchanged."""

    field: str
    """The identity field the call's value is stored in."""
    rule_id: str
    pattern: str
    """A regular expression the id, as text, must fit whole."""
    min_length: int | None = None
    max_length: int | None = None
    described: str
    """How a refusal names the accepted ids (``UUIDs``, ``ids drawing only on digits, '-'``)."""
    examples: tuple[str, ...] = ()
    """A few ids of the type the capture shows."""


class ProtectedEntity(_Model):
    """A kind of entity a delete is not served for (``delete-protected``): one whose member says it
    is a default or built-in one (a name holding the word ``default``, ``removable: false``), which
    applications refuse to delete (the default stack, a built-in group, the default profile) while
    the capture shows no delete of one; or an update is not served for (``update-protected``): one
    whose member says it may not be edited (``editable: false``)."""

    rule_id: str
    pointer: str
    """The JSON pointer of the member within the entity (``/name``, ``/body/is_default``)."""
    words: tuple[str, ...] = ()
    """For a text member: the words (lower case) that protect it, as ``separators`` split it."""
    separators: str = ""
    """A regular expression splitting the text into words."""
    value: bool | None = None
    """For a flag: the value that protects it."""
    described: str
    """How a refusal names it (``a name holding the word 'default'``)."""


class ObjectMerge(_Model):
    """A kind of object an update refuses in a member it stores whole (``update-object-merges``):
    one leaving out a key the held object holds, or holding an empty text or null, where no recorded
    call shows what the application does with it (Medusa merges ``metadata`` into the held object)."""

    member: str
    rule_id: str
    check: Literal["held-keys", "values"]
    values: tuple[Any, ...] = ()
    """For ``values``: the nested values refused."""
    described: str
    """What is accepted, as a refusal says it."""


class ParentState(_Model):
    """A state of the parent entity a create is served under (``create-parent-states``): the
    parent's member holds one of a few lowercase words (a visibility, a status), and every
    successful recorded create found its parent holding one of ``values``; a create under a parent
    holding another is refused, since the capture never shows the application accepting it there
    (Glance refuses members of an image that is not shared)."""

    rule_id: str
    parent_type: str
    member: str
    values: tuple[str, ...]
    """The words the parent held at the successful recorded creates."""
    described: str
    """What is accepted, as a refusal says it."""


class UpdateMask(_Model):
    """A query parameter naming the body members an update applies (``update-masks``): the members
    a call's mask leaves out change nothing; a mask naming a member the body does not send is refused."""

    param: str
    separator: str
    rule_id: str

    def named_in(self, query: Any) -> tuple[str, ...] | None:
        """The members a call's query (name, value pairs as sent) masks, percent-decoded; None when
        it sends no mask (every member it sends applies)."""
        for name, value in query:
            if unquote_plus(name) == unquote_plus(self.param):
                return tuple(n.strip() for n in unquote_plus(value).split(self.separator) if n.strip())
        return None

    def masked(self, body: dict[str, Any], query: Any, kept: str | None = None) -> dict[str, Any]:
        """The body members the call's mask names (all of them when it sends none), and ``kept``
        (the identity member, which the mask need not name: it is checked as the path's id)."""
        names = self.named_in(query)
        return body if names is None else {k: v for k, v in body.items() if k in names or k == kept}


class TagCheck(_Model):
    """A conditional header the application checks against one member of the entity
    (``precondition.checked-tag``): serving applies a call only when it names the entity's tag."""

    header: str
    """Lower case (``if-match``)."""
    member: str
    """The entity's member the tag spells (``version``)."""
    form: str
    """How the tag spells it, ``{}`` standing for its text (``"{}"``)."""

    def tag(self, entity: dict[str, Any]) -> str | None:
        """The tag of ``entity`` as held, None when it holds no string or number there."""
        value = entity.get(self.member)
        if value is None or isinstance(value, (bool, dict, list)):
            return None
        return self.form.replace("{}", value if isinstance(value, str) else dumps(value).decode())


class WritePlan(_Model, LeftOutAtDefault):
    tool: str
    method: str
    template: str
    effect: Literal["create", "update", "delete", "action", "bulk", "document", "none"]
    type: str | None = None
    address: Address | None = None
    collection: str | None = None
    """A tied collection, spelled as recorded: a create whose own path names no collection of the type, or
    whose field keeps a path value of its exemplar, creates only there. None: the collection each call names."""
    exemplar: int | None = None
    exemplar_args: dict[str, str] = Field(default_factory=dict)
    """The exemplar's raw path arguments (a tied create serves only these)."""
    min_members: int = 0
    """How many accepted members a call must send at least (PATCH and POST updates: one)."""
    body_envelope: str | None = None
    body_envelope_kind: Literal["array", "object"] = "array"
    """How the envelope wraps the object: a one-element array, or the object itself."""
    body_patch_ops: tuple[str, ...] = ()
    """The body is an RFC 6902 JSON Patch read as the members it sets (``bundle/json_patch``): the
    operations the capture's successful calls used, which alone serving takes. Empty: an object body."""
    query: Pairs = ()
    fields: tuple[FieldRule, ...] = ()
    members: tuple[MemberRule, ...] = ()
    insert: InsertRule | None = None
    document_path: str | None = None
    document_pointer: str | None = None
    """The JSON pointer of the document object a write merges into ("" for the root)."""
    replace: bool = False
    bulk_effect: Literal["delete", "update"] | None = None
    """What a bulk write does to each entity its body names."""
    response: ResponseRule | None = None
    observation: int | None = None
    """The record the written entity was observed in."""
    build_reason: str | None = None
    missing_refused: bool = False
    """An update at an item path whose method made what another tool's path named (an upsert
    there, ``effect.update-beside-upsert``), or a PUT one of whose calls named an entity nothing
    showed before it (``effect.update-of-unheld-put``): a call naming an entity the state does not
    hold is refused, since the application may make it, not answered missing."""
    absence_tool: str | None = None
    """For an update or delete whose tool recorded no 400/404/410: the sibling tool whose recorded
    one answers a call naming an entity the state does not hold (``write-absences``)."""
    answered_held: str | None = None
    """A create's recorded call that answered an entity the state already held (a get-or-create
    or an upsert by a key): served as a plain create it would make a duplicate (verdict
    ``get-or-create``)."""
    key: CreateKey | None = None
    """A create's key (a get-or-create): serving answers the held entity a call's key names."""
    unchecked_headers: tuple[str, ...] = ()
    """Conditional request headers (lower case, ``write-preconditions``) serving cannot check (an
    If-Match naming an ETag it does not hold): a call carrying one is refused, never applied."""
    update_mask: UpdateMask | None = None
    """An update's field-mask query parameter (``update-masks``); None: the recorded query only."""
    tag_check: TagCheck | None = None
    """An update's or delete's tag header, checked against the entity the call names: a call
    naming another tag is refused as stale (the application answers 412). Written only when set."""
    credential_headers: tuple[str, ...] = ()
    """Request headers (lower case, ``write-credentials``) every successful recorded call sent and
    that carry credentials: an HTTP call leaving one out is refused (the application answers it
    401/403); its value is checked only where it is static (``ReplayTable.static_credentials``).
    Written to a bundle only when there are some."""
    references: tuple[ReferenceRule, ...] = ()
    """Body members naming another type's entity (``plans/references``); written to a bundle only
    when there are some, so a plan with none keeps the bytes it had before they were learned."""
    validated_values: tuple[ValidatedValue, ...] = ()
    """Body members whose values the application validates (``plans/validated_values``); written
    to a bundle only when there are some, as ``references``."""
    unproven_values: tuple[UnprovenValue, ...] = ()
    """Classes of value serving refuses in body members (``plans/sent_values``); written to a
    bundle only when there are some, as ``references``."""
    either_key_named: bool = False
    """For a write at an item path that also takes another key member (``EitherKey``): whether a
    successful recorded call named its entity by that member; else serving refuses such a call
    (``plans/either_key_use``); written to a bundle only when set."""
    distinct_members: tuple[DistinctMember, ...] = ()
    """Members a second entity may not repeat a held value of (``plans/distinct_values``); written to
    a bundle only when there are some, as ``references``."""
    referrers: tuple[Referrer, ...] = ()
    """For a delete: members of other entities naming the deleted type's (``plans/referrers``);
    written to a bundle only when there are some, as ``references``."""
    reference_copies: tuple[ReferenceCopy, ...] = ()
    """For a create or update of a type holding copies through a reference (``plans/reference_copies``):
    each copied field is written from the entity its reference names, as held at call time; written
    to a bundle only when there are some, as ``references``."""
    copied_by: tuple[ReferenceCopy, ...] = ()
    """For an update of a type other entities copy a member of (``plans/reference_copies``): serving
    refuses a call changing that member while held entities name the entity; written to a bundle
    only when there are some, as ``references``."""
    copy_holders: tuple[str, ...] = ()
    """For an update or delete whose entity the capture shows copied by another state type's
    entities under its id (a group's member list holding its users, ``plans/copies``): those types.
    Serving refuses a call while a held entity of one of them copies the entity (for an update,
    showing a member it changes), as the application changes that copy too; written to a bundle
    only when there are some."""
    protected: tuple[ProtectedEntity, ...] = ()
    """For a delete or an update: the kinds of entity serving refuses to delete or update
    (``plans/protected``); written to a bundle only when there are some."""
    object_merges: tuple[ObjectMerge, ...] = ()
    """For an update: the objects serving refuses in members it stores whole (``plans/object_merges``);
    written to a bundle only when there are some."""
    parent_states: tuple[ParentState, ...] = ()
    """For a create under a parent entity: the parent states serving accepts it under
    (``plans/parent_states``); written to a bundle only when there are some."""
    chosen_id: ChosenId | None = None
    """For a create whose client chooses the identity: the shape it must have (``plans/chosen_ids``);
    written to a bundle only when set, as ``references``."""
    dispatch_params: tuple[str, ...] = ()
    """Path parameters whose values each name a kind of entity (``write-collection-segments``):
    every value has a plan of its own in ``variants``, and serving runs the one a call's values
    name, refusing values with none served. This plan's own rules are its first served variant's
    (or first variant's). Written to a bundle only when set, as ``references``."""
    dispatch_args: dict[str, str] = Field(default_factory=dict)
    """For a variant: the decoded values of ``dispatch_params`` it serves. Written only when set."""
    variants: tuple["WritePlan", ...] = ()
    """The per-value plans (each learned from and proven on its values' calls only)."""
    makes_collection: bool = False
    """For a create's variant: the capture showed a create of the tool making its value's
    collection (its first call came before any call naming the value: Parse makes a class on its
    first create), so serving creates into a value whose collection the state does not hold;
    otherwise such a call is refused (the value may have been made by a call no plan models, a
    schema write, which this environment never made). Written only when set."""
    unproven_text: tuple[UnprovenText, ...] = ()
    """Text classes serving refuses in members the plan stores as sent (``plans/stored_text``);
    written to a bundle only when there are some."""
    list_place: Literal["kept", "last-kept", "moved-last", "moved-first", "unproven"] | None = None
    """For an update or action: what the capture shows of an entity it changed keeping its place in
    its collection's lists (``update-list-places``, ``plans/list_places``): ``kept`` any entity,
    ``last-kept`` only the one listed last; ``moved-last`` (``moved-first``): an update moves the
    entity it changed last (first, a list newest written first), and serving moves it so; ``unproven`` none. Serving refuses a list of the
    collection once the plan changed an entity whose place it does not prove, in a collection of
    two or more (the application may list it elsewhere: PostgreSQL's storage order puts an updated
    row last, a list newest first puts it first). Written only when set."""
    reason: str | None = None
    served: bool = False
    contradicted_by: int | None = None
    checked_record_ordinals: tuple[int, ...] = ()
    rules_revision: str = ""
    traces: tuple[TraceEvent, ...] = ()

    left_out_at_default = ("credential_headers", "tag_check", "update_mask", "references", "validated_values",
                           "unproven_values", "either_key_named", "distinct_members", "referrers", "chosen_id",
                           "protected", "object_merges", "parent_states", "unproven_text", "list_place", "dispatch_params",
                           "dispatch_args", "variants", "makes_collection", "reference_copies", "copied_by",
                           "copy_holders")


ViewResult.model_rebuild()
WritePlan.model_rebuild()
