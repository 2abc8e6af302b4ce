"""Predicates for reading response shapes: envelope members, identity fields, paging params.

Contexts: ``envelope-member`` (one member of a response object that may hold the list or the
entity), ``identity-field`` (one member shared by a list's objects, or of an item's object),
``query-param`` (one query parameter name of a list read).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import InflectionParams, is_plural_of
from .names import WordsParams, in_words
from .readonly_words import split_words


@context_model("envelope-member")
class EnvelopeMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    collection_word: str | None = None
    """The last literal segment of the read's template (``posts`` for ``/posts``)."""
    holds: str
    """What the member holds: object-array, object, singleton-object, array, scalar, null."""
    candidates: int = 1
    """How many members of the body hold the same kind of value."""
    names_path_word: bool = False
    """For a list read, whether the member holds one object in a one-element array that holds the path's
    last word as a member's value (``/servers/localhost`` answered ``{"servers": [{"id": "localhost"}]}``)."""
    lookup_words: tuple[str, ...] = ()
    """For an item read, the literal words of its path before the collection word, in the run of literal
    segments that ends there (``api``, ``flows`` for ``/api/flows/name/{name}``, whose collection word
    is ``name``): a path looking an entity up by a key member under its collection's path."""
    self_addressed: bool = False
    """The body holds, at its top, a member whose value is the very path the read was sent to (or an
    absolute URL of it): Pulp's ``pulp_href``, the body is the entity read at its own address."""
    lists_inside: tuple[str, ...] = ()
    """For an object member of a list read's body: the names of its own members holding arrays of
    objects (``results`` for Misago's ``post_set: {"results": [...], "page": 2}``)."""
    lists_beside: tuple[str, ...] = ()
    """For a member of a list read's body: the names of the arrays of objects the object members
    beside it hold at their own top (``results``, for the thread's ``path`` array beside ``post_set``)."""


class HoldsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: list[str]


@predicate("body_addresses_itself", context="envelope-member")
def body_addresses_itself(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """The body holds its own address: the path the read was sent to, at a member of its top."""
    if ctx.self_addressed:
        return Match()
    return Miss("no member of the body is the path it was read at")


@predicate("member_holds", context="envelope-member", params=HoldsParams)
def member_holds(ctx: EnvelopeMemberContext, params: HoldsParams) -> Outcome:
    """The member holds one of some kinds of value (object-array, object, singleton-object)."""
    if ctx.holds in params.kinds:
        return Match({"holds": ctx.holds})
    return Miss(f"holds {ctx.holds}, not {' or '.join(params.kinds)}")


@predicate("member_named", context="envelope-member", params=WordsParams)
def member_named(ctx: EnvelopeMemberContext, params: WordsParams) -> Outcome:
    """The member's name is one of a word list."""
    return in_words(ctx.member, params)


@predicate("member_holds_list_named", context="envelope-member", params=WordsParams)
def member_holds_list_named(ctx: EnvelopeMemberContext, params: WordsParams) -> Outcome:
    """The member is an object holding an array of objects at a member named by a word list."""
    for name in ctx.lists_inside:
        if isinstance(in_words(name, params), Match):
            return Match({"list": name})
    return Miss(f"{ctx.member!r} holds no array of objects named so"
                + (f" (it holds {', '.join(ctx.lists_inside)})" if ctx.lists_inside else ""))


@predicate("beside_object_holding_list_named", context="envelope-member", params=WordsParams)
def beside_object_holding_list_named(ctx: EnvelopeMemberContext, params: WordsParams) -> Outcome:
    """Beside the member, an object member of the body holds an array of objects at a member named
    by a word list: a list one level down that an envelope names."""
    for name in ctx.lists_beside:
        if isinstance(in_words(name, params), Match):
            return Match({"beside": name})
    return Miss("no object beside it holds an array of objects named so")


@predicate("member_named_as_collection", context="envelope-member")
def member_named_as_collection(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """The member is named as the collection the path names (``posts`` under ``/posts``), in any
    spelling of the same words (``tagTypes`` under ``/tag-types``)."""
    if ctx.collection_word and (ctx.member == ctx.collection_word or _same_words(ctx.member, ctx.collection_word)):
        return Match({"member": ctx.member})
    return Miss(f"{ctx.member!r} is not the path's collection word {ctx.collection_word!r}")


@predicate("member_named_as_singular_of_collection", context="envelope-member", params=InflectionParams)
def member_named_as_singular_of_collection(ctx: EnvelopeMemberContext, params: InflectionParams) -> Outcome:
    """The member is named as one of the collection the path names (``note`` under ``/notes``), in
    any spelling of the same words, the last one singular (``tagType`` under ``/tag-types``)."""
    if ctx.collection_word and (is_plural_of(ctx.collection_word, ctx.member, params)
                                or _singular_words(ctx.member, ctx.collection_word, params)):
        return Match({"member": ctx.member, "collection_word": ctx.collection_word})
    return Miss(f"{ctx.member!r} is no singular of the path's collection word {ctx.collection_word!r}")


@predicate("member_named_as_plural_of_collection", context="envelope-member", params=InflectionParams)
def member_named_as_plural_of_collection(ctx: EnvelopeMemberContext, params: InflectionParams) -> Outcome:
    """The member is named as the plural of the path's word (``notes`` under ``/note/{id}``)."""
    if ctx.collection_word and ctx.member != ctx.collection_word and is_plural_of(ctx.member, ctx.collection_word,
                                                                                  params):
        return Match({"member": ctx.member, "collection_word": ctx.collection_word})
    return Miss(f"{ctx.member!r} is no plural of the path's word {ctx.collection_word!r}")


@predicate("member_object_names_path_word", context="envelope-member")
def member_object_names_path_word(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """The member's one-element array holds one object holding the path's last word as a member's
    value: the path names that entity, the answer lists nothing."""
    if ctx.names_path_word:
        return Match({"member": ctx.member, "path_word": ctx.collection_word})
    return Miss(f"{ctx.member!r} holds no one object holding the path's last word {ctx.collection_word!r}")


@predicate("member_named_as_lookup_word", context="envelope-member")
def member_named_as_lookup_word(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """The member is named as one of the item path's words before its collection word (``flows``
    under ``/flows/name/{name}``), in any spelling of the same words."""
    for word in ctx.lookup_words:
        if ctx.member == word or _same_words(ctx.member, word):
            return Match({"member": ctx.member, "path_word": word})
    return Miss(f"{ctx.member!r} is none of the path's words before its collection word: "
                f"{', '.join(ctx.lookup_words) or 'none'}")


class SpelledOutParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_word_length: int
    """The shortest path word read as a shortening (shorter ones prefix too many names)."""


@predicate("member_named_as_spelled_out_path_word", context="envelope-member", params=SpelledOutParams)
def member_named_as_spelled_out_path_word(ctx: EnvelopeMemberContext, params: SpelledOutParams) -> Outcome:
    """The member's name is one word that begins with the path's word and goes on (``permission``
    under ``/perm/{id}``): the path shortens the name its answer spells out."""
    word, member = (ctx.collection_word or "").lower(), ctx.member.lower()
    if len(word) < params.min_word_length:
        return Miss(f"the path's word {ctx.collection_word!r} is shorter than {params.min_word_length}")
    if len(split_words(ctx.member, "_-.")) == 1 and member != word and member.startswith(word):
        return Match({"member": ctx.member, "collection_word": ctx.collection_word})
    return Miss(f"{ctx.member!r} is no one word spelling out the path's word {ctx.collection_word!r}")


def _same_words(member: str, collection: str) -> bool:
    """Two names of two or more words that are the same words, however each is spelled (camelCase,
    snake_case, kebab-case)."""
    words = split_words(member, "_-.")
    return len(words) > 1 and words == split_words(collection, "_-.")


def _singular_words(member: str, collection: str, params: InflectionParams) -> bool:
    """The member's words are the collection's, the last one its singular (two words or more)."""
    words, plural = split_words(member, "_-."), split_words(collection, "_-.")
    return (len(words) > 1 and len(words) == len(plural) and words[:-1] == plural[:-1]
            and is_plural_of(plural[-1], words[-1], params))


@predicate("member_named_as_qualified_collection", context="envelope-member")
def member_named_as_qualified_collection(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """The member's last word is the collection the path names, after a qualifier
    (``api_tokens`` or ``apiTokens`` under ``/tokens``)."""
    words = split_words(ctx.member, "_-.")
    collection = split_words(ctx.collection_word or "", "_-.")
    if collection and len(words) > len(collection) and words[-len(collection):] == collection:
        return Match({"member": ctx.member, "collection_word": ctx.collection_word})
    return Miss(f"{ctx.member!r} does not end in the path's collection word {ctx.collection_word!r}")


@predicate("member_is_sole_candidate", context="envelope-member")
def member_is_sole_candidate(ctx: EnvelopeMemberContext, params: BaseModel) -> Outcome:
    """No other member of the body holds the same kind of value."""
    if ctx.candidates == 1:
        return Match()
    return Miss(f"{ctx.candidates} members hold {ctx.holds}")


@context_model("identity-field")
class IdentityFieldContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    in_every_object: bool
    scalar: bool
    """Every value is a string or an integer."""
    distinct: bool
    """No two objects share a value."""
    equals_path_parameter: bool | None = None
    """For an item read: the value equals the path's last parameter (None for a list)."""
    carried_by_item_path: bool | None = None
    """For a list read: the field is the one the item reads of its collection carry in their
    path (None when no item read of the collection shows one)."""
    addresses_item_path: bool | None = None
    """For an item read: the value is the path it was read at, origin-relative or an absolute URL
    of it, with or without the path's trailing slash (None for a list)."""
    named_as_item_param: bool | None = None
    """For a list read: the field bears the name the manifest gives the path parameter of its
    collection's item reads (``study_id`` under ``/studies/{study_id}``); None when the collection has
    no item read."""
    lists_item_reads: bool | None = None
    """For a list read: every value its collection's successful item reads were made with is one of
    the field's listed values (an item read made with an email where the rows list opaque ids says
    the parameter names something else); None when the collection has no such read."""


@predicate("identity_field_named", context="identity-field", params=WordsParams)
def identity_field_named(ctx: IdentityFieldContext, params: WordsParams) -> Outcome:
    """The field's name is one of a word list."""
    return in_words(ctx.field, params)


@predicate("identity_field_usable", context="identity-field")
def identity_field_usable(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """Every object holds the field, as a string or integer, with no value repeated."""
    if not ctx.in_every_object:
        return Miss("not in every object")
    if not ctx.scalar:
        return Miss("a value is not a string or integer")
    if not ctx.distinct:
        return Miss("two objects share a value")
    return Match()


@predicate("identity_field_is_path_value", context="identity-field")
def identity_field_is_path_value(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """On an item read, the field's value is the one the path carries (a list read is no evidence)."""
    if ctx.equals_path_parameter:
        return Match({"equals_path": True})
    return Miss("a list read" if ctx.equals_path_parameter is None else "differs from the path parameter")


@predicate("identity_field_addresses_item_path", context="identity-field")
def identity_field_addresses_item_path(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """On an item read, the field's value is the path the read was sent to (the entity's own address)."""
    if ctx.addresses_item_path:
        return Match({"own_address": True})
    return Miss("a list read" if ctx.addresses_item_path is None else "is not the path it was read at")


@predicate("identity_field_carried_by_item_path", context="identity-field")
def identity_field_carried_by_item_path(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """On a list read, the field is the one its collection's item reads carry in their path."""
    if ctx.carried_by_item_path:
        return Match({"item_path": True})
    return Miss("no item read of the collection carries it" if ctx.carried_by_item_path is None
                else "the collection's item reads carry another field")


@predicate("identity_field_named_as_item_param", context="identity-field")
def identity_field_named_as_item_param(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """On a list read, the field is named as its collection's item path parameter."""
    if ctx.named_as_item_param:
        return Match({"item_param": ctx.field})
    return Miss("no item read of the collection" if ctx.named_as_item_param is None
                else "the collection's item path names its parameter otherwise")


@predicate("identity_field_lists_item_reads", context="identity-field")
def identity_field_lists_item_reads(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """On a list read, every value the collection's item reads were made with is a listed value of the field."""
    if ctx.lists_item_reads:
        return Match({"lists_item_reads": ctx.field})
    return Miss("no successful item read of the collection" if ctx.lists_item_reads is None
                else "an item read was made with a value the field never lists")


@predicate("identity_field_equals_path", context="identity-field")
def identity_field_equals_path(ctx: IdentityFieldContext, params: BaseModel) -> Outcome:
    """For an item read, the field's value equals the path's last parameter."""
    if ctx.equals_path_parameter is None:
        return Match({"list": True})
    if ctx.equals_path_parameter:
        return Match({"equals_path": True})
    return Miss("differs from the path parameter")


@context_model("query-param")
class QueryParamContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str


@predicate("query_param_named", context="query-param", params=WordsParams)
def query_param_named(ctx: QueryParamContext, params: WordsParams) -> Outcome:
    """The query parameter's name is one of a word list."""
    return in_words(ctx.name, params)
