"""The settings of the convention application (``convention_app``): each a convention real REST
APIs use, combined freely by the tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote


@dataclass(frozen=True)
class Conventions:
    name: str
    prefix: str = "/api"
    generic_segment: bool = False
    """``/items/{collection}/{id}``: one path template whose word segment names the kind of entity."""
    slash: bool = False
    ids: Literal["sequence", "text-sequence", "uuid", "hex24", "name"] = "sequence"
    """``name``: the client chooses the identity (the ``name`` member of the create's body); ``hex24``:
    24 hex digits ascending with the clock (a MongoDB ObjectId: seconds, then a counter)."""
    list_shape: Literal["bare", "data", "success", "items_total", "plural_total", "plural_meta", "meta_pages", "drf",
                        "data_meta", "data_meta_total", "rails", "entries", "jsonapi", "jsonapi_ids"] = "bare"
    """``jsonapi_ids``: rows of resource identifiers alone (``{"data": [{"type", "id"}]}``), as Roundup's
    REST lists answer ``{id, link}`` rows: only item reads show an entity's attributes.
    ``meta_pages``: ``{notes, meta: {pagination: {page, limit, pages, total, next, prev}}}``."""
    item_shape: Literal["bare", "data", "success", "plural_one", "singular", "jsonapi"] = "bare"
    """``success``: ``{"success": true, "data": …}`` (lists too), a habit of Node.js APIs."""
    body_shape: Literal["bare", "data", "plural_one", "singular", "jsonapi"] = "bare"
    """``jsonapi``: ``application/vnd.api+json`` resource objects ``{"data": {"type", "id", "attributes"}}``;
    ``singular``: Rails' ``{"note": {…}}`` (see ``convention_shapes``)."""
    suffix: str = ""
    """A format extension every path ends in (Rails' ``/notes.json``, ``/notes/5.json``)."""
    absence: Literal["404_detail", "404_problem", "403_errors", "404_empty", "200_null", "404_html"] = "404_detail"
    clocks: Literal["iso-ms-z", "iso-us-offset", "epoch-seconds", "iso-whole-seconds-z", "http-date",
                    "js-date"] = "iso-ms-z"
    """``http-date``: RFC 9110's IMF-fixdate (``Thu, 03 Dec 2026 10:02:39 GMT``), as FlexGet's ``added_on``;
    ``js-date``: JavaScript's Date text (``Thu Dec 03 2026 10:02:39 GMT+0000 (Coordinated Universal
    Time)``), as Express Gateway's ``createdAt``."""
    delete_answer: Literal["204", "200_entity", "200_empty", "200_message"] = "204"
    """``200_message``: ``{"message": "deleted"}``."""
    update: Literal["PATCH", "PUT"] = "PATCH"
    """PATCH merges the members sent; PUT replaces (members not sent are dropped) unless ``put_merges``."""
    put_merges: bool = False
    update_answer: Literal["entity", "204", "200_success"] = "entity"
    """``200_success``: ``{"success": true}``, no entity."""
    page_size: int = 0
    """Lists answer at most this many entities without a ``limit`` (0: every one)."""
    create_answer: Literal["201_entity", "201_id", "200_entity"] = "201_entity"
    """What a create answers: 201 and the entity as an item read shows it, 201 and only its identity
    (``{"id": …}``), or 200 and the entity in the item envelope."""
    names: Literal["snake", "mongo-camel", "short"] = "snake"
    """What the identity and the clocks are called in answers: ``id``/``created_at``/``updated_at``,
    ``_id``/``createdAt``/``updatedAt`` (a MongoDB and JavaScript habit) or ``id``/``created``/``modified``."""
    links: Literal["none", "url", "hal"] = "none"
    """Each entity links to itself: DRF's hyperlinked ``url`` member, or HAL's ``_links.self.href``."""
    order: Literal["created", "newest-first", "recent-first"] = "created"
    """How lists are ordered: oldest first, newest first, or the most recently written first."""
    call_gap_ms: int = 100
    """How long after the previous call the recorded session makes each call (1100: every call in
    its own second, so whole-second clocks never tie within the session)."""
    spaced_names: bool = False
    """With ``ids="name"``: names hold spaces and non-ASCII letters (``Café list``), percent-encoded in paths."""
    rich_members: bool = False
    """Notes also hold an array, an object and a null (``labels``, ``extra``, ``due``), sent by creates and updates."""
    seed_item_reads: Literal["all", "first", "none"] = "all"
    """Which seeded entities the session reads at their item path before its writes (lists always)."""
    version_counter: bool = False
    """The application stamps a ``version`` every write bumps (without requiring it back)."""
    write_answer: Literal["entity", "split-sent", "split-fixed"] = "entity"
    """How a create and an update answer: the entity as an item read shows it, or Flask-AppBuilder's
    split of its identity from it: ``{"id": 7, "result": {…}}`` holding the members sent
    (``split-sent``), or every editable member whatever was sent (``split-fixed``, its update answering
    ``{"result": {…}}`` without the id, as Superset's CSS templates do)."""
    queries: bool = False
    """Lists filter by ``done`` (``?done=true``) and sort by ``sort`` (``title`` or ``-title``)."""
    comments: bool = False
    """Notes have comments at ``{note}/comments`` (a list and a create), and a note's
    ``comment_count`` counts them: a create there changes another entity."""
    settings: bool = False
    """A singleton document at ``{prefix}/settings`` (GET, PATCH merging the members sent)."""
    slugs: bool = False
    """A note carries a ``slug`` the application derives from its title at its create."""
    errors: Literal["detail", "problem", "errors"] = "detail"
    """How a refused body is answered: ``{"detail"}``, ``application/problem+json``, ``{"errors": [{"message"}]}``."""
    invalid_status: int = 422
    concurrency: Literal["none", "version", "updated_at", "if-match", "if-match-optional"] = "none"
    """An update must carry the entity's current ``version`` (bumped by every write) or ``updated_at``: 409 if
    stale; ``if-match``: its ``If-Match`` header must name the item read's ``ETag`` (the version): 412 if stale;
    ``if-match-optional``: the header is checked only when sent."""
    actions: Literal["none", "segment", "colon"] = "none"
    """``POST {note}/archive`` or ``POST {note}:archive`` sets the note's ``archived`` and answers it."""
    bulk_delete: bool = False
    """``DELETE {collection}?ids=1,2`` deletes the entities named."""
    nested: bool = False
    """Notes have comments at ``{note}/comments/{comment}`` (own id space): created, updated, deleted."""
    seed_comments: bool = True
    """With ``nested``: the first two notes start with a comment each."""
    split: bool = False
    """The prefix ends in ``/admin`` (every call); ``…/content`` answers reads of the same entities."""
    content_reads_after_writes: bool = True
    """With ``split``: the session reads the content API after its writes too (else only before them)."""
    update_mask: bool = False
    """An update applies only the members its ``update_mask`` query parameter lists."""
    put_creates: bool = False
    """With ``ids="name"`` and PUT updates: a PUT naming a name no entity holds creates it (201), an upsert."""
    query_style: Literal["none", "order_by", "sort_colon", "brackets", "plain_brackets", "json_filter", "fields",
                         "expand", "include"] = "none"
    """Lists sort by ``order_by=-title`` or ``sort=title:desc``, filter by ``filter[done][_eq]=true``,
    ``filter[done]=true`` or ``filter={"done":{"_eq":true}}``, project by ``fields=id,title`` or reshape
    by ``expand=stats`` or ``include=author`` (each note embeds its author)."""

    projection: Literal["none", "comma", "comma-keeps-id", "indexed", "appended", "typed"] = "none"
    """Reads take the members to answer: ``fields=title,done`` (``comma``; ``comma-keeps-id``: the id
    answered too), ``fields[0]=title&fields[1]=done`` (``indexed``, the id kept as Strapi keeps it),
    ``fields[]=title&fields[]=done`` (``appended``), JSON:API's sparse fieldsets ``fields[notes]=title,done``
    (``typed``, with JSON:API shapes: the attributes named, the resource's id kept); ``*`` answers every member, a member the entity
    lacks is a 400 (``convention_projection``)."""
    projection_wildcard_recorded: bool = False
    """The session reads with ``*`` too (else ``*`` is a form no recording proves)."""

    key_member: str = "name"
    """With ``ids="name"``: the body member naming the client-chosen key (``{"key": "my-var", …}``
    then ``/variables/my-var``)."""
    json_patch: bool = False
    """Updates (PATCH) send RFC 6902 JSON Patch (``application/json-patch+json``): ``replace``, ``add``
    and ``remove`` operations, applied in order; a ``replace`` or ``remove`` of a missing member is refused."""
    patch_media_type: str = "application/json-patch+json"
    """With ``json_patch``: the media type a patch is sent (and required) as; a vendor one such as
    Glance's ``application/openstack-images-v2.1-json-patch`` is a JSON Patch too."""
    slug_reads: bool = False
    """With ``slugs``: a slug already held takes ``-2`` (``-3``, …), and an item is read at its slug
    as well as at its id (``/notes/buy-milk`` beside ``/notes/1``)."""
    slug_path: str = ""
    """With ``slug_reads``: the literal segment of a path of the slug's own, reads by slug going there
    (``slug``: ``/notes/slug/buy-milk``, ``by-name``: ``/notes/by-name/buy-milk``) instead of the item path."""
    slug_renames: bool = False
    """With ``slugs``: an update sending ``slug`` renames the note's slug (409 when another note holds it);
    the session renames one and reads it at the new slug and the old."""
    soft_delete: bool = False
    """A delete sets the entity's ``deleted_at`` (``null`` until then): lists leave it out, its item
    read still answers it, an update or another delete of it answers the absence."""
    paging: Literal["offset", "page"] = "offset"
    """How a list call asks for a page: ``?limit=&offset=`` or ``?limit=&page=`` (1-based)."""
    item_singular: bool = False
    """Items are read, updated and deleted at the singular of their list's word (``/note/5`` beside
    ``/notes``, Alerta's ``/alert/{id}`` beside ``/alerts``); creates stay at the list's path."""

    def collection(self, kind: str) -> str:
        return f"{self.prefix}{'/items' if self.generic_segment else ''}/{kind}" + self.ending

    def item(self, kind: str, key: Any) -> str:
        key = key if str(key).startswith("{") else quote(str(key), safe="")  # a probe's {saved} name stays whole
        word = kind[:-1] if self.item_singular and kind.endswith("s") else kind
        return f"{self.prefix}{'/items' if self.generic_segment else ''}/{word}/{key}" + self.ending

    def by_slug(self, kind: str, slug: str) -> str:
        """Where a note is read by its slug: the item path, or the slug's own path."""
        if not self.slug_path:
            return self.item(kind, slug)
        return self.collection(kind)[: len(self.collection(kind)) - len(self.ending)] \
            + f"/{self.slug_path}/{quote(slug, safe='')}" + self.ending

    def under(self, kind: str, key: Any, tail: str) -> str:
        """A path under an item (``/notes/5/comments``), spelled with the paths' ending."""
        return self.item(kind, key)[: len(self.item(kind, key)) - len(self.ending)] + f"/{tail}" + self.ending

    def document(self, name: str) -> str:
        return f"{self.prefix}/{name}" + self.ending

    @property
    def ending(self) -> str:
        """What every path ends in: a trailing slash or a format suffix."""
        return "/" if self.slash else self.suffix
