"""Predicates on path parameters that span segments (``manifest-path-spans``, ``manifest-span-words``).

Context ``path-span``: a path prefix and what the answers under it show: the depths (segment
counts) of the path tails that an answer member equalled, decoded and joined by ``/``.
Context ``span-word``: a literal-looking segment under such a prefix and the proven values it
follows (tails an answer member equalled).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("path-span")
class PathSpanContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    prefix: str
    member: str = ""
    """The answer member whose values equalled the tails (the one proving most depths)."""
    depths: list[int] = Field(default_factory=list)
    """The distinct segment counts of the tails it equalled."""
    values: int = 0
    """How many distinct tails it equalled."""


class DepthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_depths: int = Field(ge=2)
    """Distinct depths the member must equal the tail at (one depth is a fixed shape: owner/repo)."""


@predicate("span_member_equals_tail", context="path-span", params=DepthParams)
def span_member_equals_tail(ctx: PathSpanContext, params: DepthParams) -> Outcome:
    """An answer member equals the whole path tail after the prefix at several depths, one of
    them two segments or more (a path of any depth, not a fixed ``owner/repo`` pair)."""
    if not ctx.depths or max(ctx.depths) < 2:
        return Miss("no answer member equals a tail of two segments or more")
    if len(ctx.depths) < params.min_depths:
        return Miss(f"{ctx.member!r} equals tails of {len(ctx.depths)} depth ({ctx.depths}), fewer than "
                    f"{params.min_depths}")
    return Match({"member": ctx.member, "depths": ctx.depths, "values": ctx.values})


@context_model("span-word")
class SpanWordContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    prefix: str
    word: str
    follows: int = 0
    """Distinct proven values (tails an answer member equalled) the word follows, in paths no answer
    proves a value."""
    is_value_end: bool = False
    """Some proven value ends with this word (it names an entity, not a sub-path)."""


class FollowsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=1)


@predicate("span_word_follows_values", context="span-word", params=FollowsParams)
def span_word_follows_values(ctx: SpanWordContext, params: FollowsParams) -> Outcome:
    """The word follows several proven values, in paths that no answer proves a value."""
    if ctx.follows >= params.min_values:
        return Match({"word": ctx.word, "follows": ctx.follows})
    return Miss(f"follows {ctx.follows} proven value{'s' if ctx.follows != 1 else ''}, fewer than {params.min_values}")


@predicate("span_word_ends_a_value", context="span-word")
def span_word_ends_a_value(ctx: SpanWordContext, params: BaseModel) -> Outcome:
    """Some proven value ends with the word (an entity of that name)."""
    if ctx.is_value_end:
        return Match({"word": ctx.word})
    return Miss("no proven value ends with it")
