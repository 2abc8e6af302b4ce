"""Predicates on one member of a list answer's envelope (everything beside the listed members).

Context ``list-member``: the member's JSON pointer and name, and what the view's recordings
show of it: in the recordings that listed all their query selects, no page cut ("whole"), whether it always
equalled the number of listed members or the sum of one of their fields; across recordings,
whether it stayed the same.
"""

from __future__ import annotations

import re

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import entity_tag_opaque

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import WordsParams, in_words


@context_model("list-member")
class ListMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pointer: str
    """Where the member sits in the answer (``/meta/pagination/total``)."""
    name: str
    """The pointer's last member name."""
    whole_recordings: int = 0
    """Recordings of the view that listed the whole collection and carried the member."""
    counts_listed: bool = False
    """An integer equal to the number of listed members in every whole recording (one at least)."""
    distinct_in_whole: int = 0
    """How many different values the whole recordings show."""
    counts_page_in_cut: int = 0
    """Recordings that cut a page (listed fewer than their query selects) where it equalled the
    number of listed members: it may count the page, not what the query selects."""
    sum_field: str | None = None
    """A field of the listed members whose integer sum it equals in every whole recording (not
    zero in one at least); None when no field does."""
    sums_same_named: bool = False
    """Every listed member has an integer field of the member's own name, and it equals their
    sum in every whole recording (zero included: ``total_predictions`` over tasks)."""
    constant: bool = False
    """The same value in every recording of the view that carried it."""
    constant_in_whole: bool = False
    """The same value in every whole recording (one at least)."""
    listing_changed: bool = False
    """The recordings carrying it listed different members (so a constant did not follow them)."""
    listing_changed_in_whole: bool = False
    """The same, among the whole recordings."""
    kinds: list[str] = Field(default_factory=list)
    """The JSON kinds of its values: number, string, boolean, null, empty (``{}`` or ``[]``), object, array."""
    kinds_in_whole: list[str] = Field(default_factory=list)
    page_position: str | None = None
    """What it says of the page a recording cut, from the start and size the query sent, in every
    recording: ``page-number`` (start / size + 1), ``first-page`` (start is 0), ``last-page`` (start
    + size reaches the count a sibling member holds) (NocoDB's pageInfo.page, isFirstPage, isLastPage)."""
    lists_field: str | None = None
    """A field of the listed members whose values, in the order listed, it holds in every recording
    whose listed members are objects (two such recordings at least, one listing two or more):
    Flask-AppBuilder's ``ids`` beside ``result``."""
    echoes_param: str | None = None
    """A query parameter (decoded name) whose integer value the member equals in every recording
    that sent it (one at least), while every recording that did not shows one value, its default
    (one at least): the page or page size the call asked (PocketBase's page and perPage)."""
    echoed_values: int = 0
    later_page_asked: bool = False
    """A recording asked a page past the first (a page number past 1, a start past 0)."""
    cut_recordings: int = 0
    """Recordings that cut a page (listed fewer than their query selects)."""
    page_link: Literal["next", "previous"] | None = None
    """A link to the next or previous page in every recording (``envelope_members._page_link``):
    the request's URL at its origin, every parameter as sent, the page parameter moved one page,
    null exactly where there is no such page (DRF's ``next`` and ``previous``)."""
    page_number_link: Literal["next", "previous"] | None = None
    """The number of the next or previous page in every recording (the page number sent, or 1,
    plus or less one), null exactly where there is none (privacyIDEA's next and prev)."""
    page_link_param: str | None = None
    """The page or start parameter the link moves."""
    page_link_origin: str | None = None
    """The origin the recorded links carried (every recording's own)."""
    page_link_origin_fixed: bool = False
    """The links name one origin other than the request's in every recording (a configured base URL)."""
    page_link_first_dropped: bool | None = None
    """A link back to the first page left the parameter out (True), named it (False), none seen (None)."""
    page_link_sorted: bool | None = None
    """The links' query sorted by name (True), in the request's order (False), not told apart (None)."""
    """How many different values of ``echoes_param`` the recordings sent."""
    texts: list[str] = Field(default_factory=list)
    """Its string values, each once, in the order first seen."""
    listings: int = 0
    """How many different listings (the listed members, in order) the recordings carrying it show."""
    follows_listing: bool = False
    """Recordings listing the same members show one value, and recordings listing different
    members different values: a tag of the content (an entity tag hashing the page)."""
    page_count_of: str | None = None
    """A sibling member (its pointer) holding a positive integer such that this one equals the
    number of listed members divided by it, rounded up, in every whole recording (one at least):
    the number of pages of that size the selection fills (Strapi's pageCount beside pageSize)."""


@predicate("list_member_counts_pages", context="list-member")
def list_member_counts_pages(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """It is the number of pages a sibling page size makes of the listed members, in every whole recording."""
    if ctx.page_count_of is None:
        return Miss("it is not the listed members divided by a sibling page size, rounded up, in every whole recording")
    return Match({"field": ctx.page_count_of, "whole_recordings": ctx.whole_recordings})


class EchoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=1)
    """Different values a parameter named otherwise than the member must have been sent with, each echoed."""
    sigils: str = ""
    """Characters a parameter's name may begin with and still be named as the member (``$`` of
    Feathers' ``$skip`` answered as ``skip``)."""


@predicate("list_member_echoes_query", context="list-member", params=EchoParams)
def list_member_echoes_query(ctx: ListMemberContext, params: EchoParams) -> Outcome:
    """It equals one query parameter's integer value where the call sent it, one default elsewhere;
    a parameter of another name than the member over ``min_values`` different values sent, since
    one value may equal it by chance (Mailman's ``start`` is 1 for ``count=1&page=2``, and 4 for
    ``count=2&page=3``)."""
    if ctx.echoes_param is None:
        return Miss("it echoes no query parameter in every recording that sent it, with one value elsewhere")
    named_alike = ctx.echoes_param.lstrip(params.sigils) == ctx.name if params.sigils else ctx.echoes_param == ctx.name
    if not named_alike and ctx.echoed_values < params.min_values:
        return Miss(f"it equals {ctx.echoes_param}, another name, for {ctx.echoed_values} value(s) sent, fewer than "
                    f"{params.min_values}: the equality may be a coincidence")
    return Match({"param": ctx.echoes_param})


@predicate("list_member_named", context="list-member", params=WordsParams)
def list_member_named(ctx: ListMemberContext, params: WordsParams) -> Outcome:
    """The member's name is one of a word list."""
    return in_words(ctx.name, params)


@predicate("list_member_counts_listed", context="list-member")
def list_member_counts_listed(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """It equals the number of listed members in every recording that listed the whole collection."""
    if ctx.whole_recordings == 0:
        return Miss("no recording listed the whole collection with it")
    if ctx.counts_listed:
        return Match({"whole_recordings": ctx.whole_recordings})
    return Miss("it differs from the number of listed members in a recording that listed them all")


@predicate("list_member_lists_field", context="list-member")
def list_member_lists_field(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """It holds one field's values of the listed members, in the order listed, in every recording
    that listed objects (two at least, one listing two or more)."""
    if ctx.lists_field is None:
        return Miss("it is not the list of one field's values of the listed members in every recording")
    return Match({"field": ctx.lists_field})


class PagePositionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    position: Literal["page-number", "first-page", "last-page", "last-page-unless-final"]


@predicate("list_member_page_position", context="list-member", params=PagePositionParams)
def list_member_page_position(ctx: ListMemberContext, params: PagePositionParams) -> Outcome:
    """It says ``position`` of the page each recording's start and size cut, in every recording."""
    if ctx.page_position != params.position:
        return Miss(f"it is not the {params.position} the start and size of every recording give"
                    + (f" (it is the {ctx.page_position})" if ctx.page_position else ""))
    return Match({"position": params.position})


class PageLinkParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    position: Literal["next", "previous"]


@predicate("list_member_page_link", context="list-member", params=PageLinkParams)
def list_member_page_link(ctx: ListMemberContext, params: PageLinkParams) -> Outcome:
    """It is a link to the ``position`` page in every recording: the request's own URL with its page
    parameter moved one page, null exactly where there is none."""
    if ctx.page_link != params.position or ctx.page_link_param is None:
        return Miss(f"it is not a link to the {params.position} page in every recording"
                    + (f" (it links to the {ctx.page_link} page)" if ctx.page_link else ""))
    return Match({"param": ctx.page_link_param, "position": params.position})


class PagesSeenParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cut: bool
    """Whether a recording must have cut a (first) page (True), or none may have (False)."""


@predicate("list_member_first_pages_only", context="list-member", params=PagesSeenParams)
def list_member_first_pages_only(ctx: ListMemberContext, params: PagesSeenParams) -> Outcome:
    """No recording asked a page past the first, and one cut a first page (``cut``) or none cut a
    page at all: what the member holds on a later page is not shown (DRF's ``previous``, null on
    every first page)."""
    if ctx.later_page_asked:
        return Miss("a recording asked a page past the first")
    if params.cut and not ctx.cut_recordings:
        return Miss("no recording cut a page")
    if not params.cut and ctx.cut_recordings:
        return Miss(f"{ctx.cut_recordings} recording(s) cut a page")
    return Match({"cut_recordings": ctx.cut_recordings})


@predicate("list_member_page_number_link", context="list-member", params=PageLinkParams)
def list_member_page_number_link(ctx: ListMemberContext, params: PageLinkParams) -> Outcome:
    """It is the number of the ``position`` page in every recording, null where there is none."""
    if ctx.page_number_link != params.position or ctx.page_link_param is None:
        return Miss(f"it is not the number of the {params.position} page in every recording"
                    + (f" (it numbers the {ctx.page_number_link} page)" if ctx.page_number_link else ""))
    return Match({"param": ctx.page_link_param, "position": params.position})


@predicate("list_member_not_page_count", context="list-member")
def list_member_not_page_count(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """No recording that cut a page shows it equal to the number of members on the page (a count
    of what the query selects is larger there)."""
    if ctx.counts_page_in_cut:
        return Miss(f"{ctx.counts_page_in_cut} recording(s) that cut a page show it equal to the members on the page:"
                    " it may count the page, not what the query selects")
    return Match()


@predicate("list_member_counts_page", context="list-member")
def list_member_counts_page(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """A recording that cut a page shows it equal to the number of members on the page."""
    if ctx.counts_page_in_cut:
        return Match({"cut_recordings": ctx.counts_page_in_cut})
    return Miss("no recording that cut a page shows it equal to the members on the page")


class VariesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=2)


@predicate("list_member_varies_in_whole", context="list-member", params=VariesParams)
def list_member_varies_in_whole(ctx: ListMemberContext, params: VariesParams) -> Outcome:
    """The whole recordings show it with at least ``min_values`` different values."""
    if ctx.distinct_in_whole >= params.min_values:
        return Match({"values": ctx.distinct_in_whole})
    return Miss(f"the whole recordings show {ctx.distinct_in_whole} value{'s' if ctx.distinct_in_whole != 1 else ''},"
                f" fewer than {params.min_values}")


@predicate("list_member_sums_field", context="list-member")
def list_member_sums_field(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """It equals the sum of one integer field of the listed members in every whole recording."""
    if ctx.sum_field is None:
        return Miss("it equals the sum of no field of the listed members in every whole recording")
    return Match({"field": ctx.sum_field})


@predicate("list_member_sums_same_named_field", context="list-member")
def list_member_sums_same_named_field(ctx: ListMemberContext, params: BaseModel) -> Outcome:
    """It equals the sum of the listed members' field of its own name in every whole recording."""
    if ctx.sums_same_named:
        return Match({"field": ctx.name})
    return Miss(f"it is not the sum of the listed members' {ctx.name!r} in every whole recording")


class AmongParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    among: Literal["all", "whole"]
    """Every recording of the view, or only those that listed the whole collection."""


@predicate("list_member_constant", context="list-member", params=AmongParams)
def list_member_constant(ctx: ListMemberContext, params: AmongParams) -> Outcome:
    """It shows the same value in every recording (``all``) or every whole recording (``whole``)."""
    if params.among == "all":
        return Match() if ctx.constant else Miss("its value differs between recordings")
    if ctx.constant_in_whole:
        return Match({"whole_recordings": ctx.whole_recordings})
    return Miss("its value differs between recordings that listed the whole collection")


@predicate("list_member_outlived_a_change", context="list-member", params=AmongParams)
def list_member_outlived_a_change(ctx: ListMemberContext, params: AmongParams) -> Outcome:
    """The recordings (``all``, or the ``whole`` ones) carrying it listed different members: a
    value that stayed the same did not follow the listing."""
    changed = ctx.listing_changed if params.among == "all" else ctx.listing_changed_in_whole
    if changed:
        return Match()
    return Miss("every recording carrying it listed the same members: nothing shows it does not follow them")


class KindsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: list[str] = Field(min_length=1)
    among: Literal["all", "whole"] = "all"


@predicate("list_member_kinds_within", context="list-member", params=KindsParams)
def list_member_kinds_within(ctx: ListMemberContext, params: KindsParams) -> Outcome:
    """Every value it showed (in every recording, or the whole ones) is of one of some JSON kinds."""
    kinds = ctx.kinds if params.among == "all" else ctx.kinds_in_whole
    if kinds and set(kinds) <= set(params.kinds):
        return Match({"kinds": sorted(kinds)})
    return Miss(f"it shows {' and '.join(sorted(kinds)) or 'nothing'}, not only {' or '.join(params.kinds)}")


class ContentTagParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    token_pattern: str = Field(min_length=1)
    """What the value (an HTTP entity tag's part inside its quotes) must be in full: hex digits a
    digest spells, so serving can spell its own digest alike."""
    min_listings: int = Field(ge=2)
    """Different listings the value must have followed: one shows no link to the content."""


@predicate("list_member_tags_content", context="list-member", params=ContentTagParams)
def list_member_tags_content(ctx: ListMemberContext, params: ContentTagParams) -> Outcome:
    """A hex token (bare, or an HTTP entity tag) that takes one value per listing and another for
    every other listing, over ``min_listings`` listings or more: a digest of what the answer lists."""
    if ctx.kinds != ["string"]:
        return Miss(f"its values are {ctx.kinds}, not strings only")
    pattern = re.compile(params.token_pattern)
    odd = next((t for t in ctx.texts if not pattern.fullmatch(entity_tag_opaque(t) or t)), None)
    if odd is not None:
        return Miss(f"{odd!r} is not a token of the digest shape")
    if not ctx.follows_listing:
        return Miss("it does not take one value per listing and another for every other listing")
    if ctx.listings < params.min_listings:
        return Miss(f"it followed {ctx.listings} listing(s), fewer than {params.min_listings}")
    return Match({"listings": ctx.listings})
