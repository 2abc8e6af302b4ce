"""Predicates on an update's request bodies: whether they are JSON Patches read as merges.

Context ``body-patch``: the media type of the tool's successful calls and, per call, the
operations its body names (an RFC 6902 array of ``{op, path, value}``) or why it names none.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import SuffixParams


@context_model("body-patch")
class BodyPatchContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    media_types: tuple[str, ...]
    """The media type of each successful call's request body (lower case, no parameters)."""
    calls: tuple[tuple[tuple[str, int], ...] | str, ...]
    """Per successful call, its operations as (op, depth of its path in members), or why its body
    is no array of operation objects with a string path."""


class PatchOpsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ops: list[str] = Field(min_length=1)
    max_depth: int = Field(ge=1)


@predicate("body_media_type_ends", context="body-patch", params=SuffixParams)
def body_media_type_ends(ctx: BodyPatchContext, params: SuffixParams) -> Outcome:
    """Every successful call's body is of a media type ending with one of the suffixes."""
    if not ctx.media_types:
        return Miss("no successful call sent a body")
    other = sorted({m for m in ctx.media_types if not any(m.endswith(s) for s in params.suffixes)})
    if other:
        return Miss(f"calls sent {', '.join(repr(m) for m in other[:3])}, not a media type ending "
                    f"{' or '.join(params.suffixes)}")
    return Match({"media_type": ctx.media_types[0]})


@predicate("body_patch_ops_within", context="body-patch", params=PatchOpsParams)
def body_patch_ops_within(ctx: BodyPatchContext, params: PatchOpsParams) -> Outcome:
    """Every successful call's body is an operation array of only these ops, each on a path no
    deeper than ``max_depth`` members."""
    used: list[str] = []
    for index, operations in enumerate(ctx.calls):
        if isinstance(operations, str):
            return Miss(f"successful call {index}: {operations}")
        for op, depth in operations:
            if op not in params.ops:
                return Miss(f"successful call {index} sends op {op!r}, not one of {params.ops}")
            if not 1 <= depth <= params.max_depth:
                return Miss(f"successful call {index} sends {op!r} at a path {depth} members deep "
                            f"(at most {params.max_depth})")
            used += [op] if op not in used else []
    if not used:
        return Miss("no successful call sent an operation")
    return Match({"ops": sorted(used)})
