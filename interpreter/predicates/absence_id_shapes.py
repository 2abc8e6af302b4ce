"""Predicates on the ids an item view's recorded absence covers: context ``absence-id-shape``,
table ``view-absence-id-shapes``.

An application may refuse an id as malformed before looking it up (PowerDNS answers 422 to a
TSIG key name with an empty label, ``seed-key..``, and 404 to a missing well-formed name). The
capture shows the learned absence only for ids laid out as the ids it recorded: an id holding a
feature of layout (two separators side by side, a separator first or last) that none of them
held may be refused otherwise, so the absence is not given for it. The feature is the rule's
``pattern``; a match's evidence is what serving checks (``pattern``, ``described``).
"""

from __future__ import annotations

import base64
import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-id-shape")
class AbsenceIdShapeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: list[str] = Field(default_factory=list)
    """Every id (percent-decoded) the capture shows for the view: the type's held ids, the ids
    its reads answered with success and those it answered as missing."""


class IdFeatureParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression an id holds when it has the feature (searched, not fitted whole)."""
    described: str
    """How a refusal names the feature (``two separators side by side``)."""


@predicate("known_ids_never_hold", context="absence-id-shape", params=IdFeatureParams)
def known_ids_never_hold(ctx: AbsenceIdShapeContext, params: IdFeatureParams) -> Outcome:
    """No id the capture shows holds the feature (at least one id is known): how the application
    answers an id holding it is unproven."""
    if not ctx.ids:
        return Miss("the capture shows no id of the view to compare with")
    compiled = re.compile(params.pattern)
    held = next((value for value in ctx.ids if compiled.search(value)), None)
    if held is not None:
        return Miss(f"the capture shows the id {held!r}, which holds it")
    return Match({"pattern": params.pattern, "described": params.described})


class EncodedTypeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    marker: str
    """A regular expression fitted at the start of every decoded id: the type name and the
    separator a global id spells before the entity's own key (``Type:``)."""
    min_ids: int = Field(ge=1)
    """How many ids the capture must show, all naming the one type."""
    described: str
    """How a refusal names the feature; ``{marker}`` is filled in."""


_BASE64_ALPHABETS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
                     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@predicate("known_ids_encode_one_type", context="absence-id-shape", params=EncodedTypeParams)
def known_ids_encode_one_type(ctx: AbsenceIdShapeContext, params: EncodedTypeParams) -> Outcome:
    """Every id the capture shows is base64 of text starting with one and the same type name
    (a global id, ``RGF0YXNldExhYmVsOjE=`` of ``DatasetLabel:1``): an id encoding no such start
    (another type's, or no base64 at all) may be refused as invalid rather than looked up. The
    evidence's pattern matches an id whose encoded start is not the type's (exactly, bit for bit)."""
    if len(ctx.ids) < params.min_ids:
        return Miss(f"the capture shows {len(ctx.ids)} id(s) of the view, fewer than {params.min_ids}")
    markers: set[str] = set()
    for value in ctx.ids:
        text = _base64_text(value)
        if text is None:
            return Miss(f"the id {value!r} is no base64 of text")
        found = re.match(params.marker, text)
        if found is None:
            return Miss(f"the id {value!r} encodes {text!r}, which starts with no type name")
        markers.add(found.group(0))
    if len(markers) > 1:
        return Miss(f"the ids encode {len(markers)} type names: {', '.join(sorted(markers))}")
    marker = markers.pop()
    for alphabet in _BASE64_ALPHABETS:
        encoded = _encoded_start(marker.encode(), alphabet)
        if all(re.match(encoded, value) for value in ctx.ids):
            return Match({"pattern": f"^(?!{encoded})", "described": params.described.format(marker=marker)})
    return Miss(f"the ids encode {marker!r} in neither base64 alphabet")


def _base64_text(value: str) -> str | None:
    """The text ``value`` is the (standard or URL-safe, padded or not) base64 of, or None."""
    if not re.fullmatch(r"[A-Za-z0-9+/_-]{4,}={0,2}", value) or ("+" in value or "/" in value) and \
            ("-" in value or "_" in value):
        return None
    bare = value.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        text = base64.b64decode(bare + "=" * (-len(bare) % 4), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return text if text.isprintable() else None


def _encoded_start(start: bytes, alphabet: str) -> str:
    """A regular expression fitted at the start of the base64 of every text beginning with
    ``start``: its whole 3-byte groups literally, then the characters of the partial group its
    last one or two bytes fix (wholly, or as the classes of what the next byte may add)."""
    whole = len(start) // 3 * 3
    groups = [start[i:i + 3] for i in range(0, whole, 3)]
    literal = "".join(alphabet[g[0] >> 2] + alphabet[(g[0] & 3) << 4 | g[1] >> 4]
                      + alphabet[(g[1] & 15) << 2 | g[2] >> 6] + alphabet[g[2] & 63] for g in groups)
    rest = start[whole:]
    if len(rest) == 1:
        tail = re.escape(alphabet[rest[0] >> 2]) + _char_class(alphabet, [(rest[0] & 3) << 4 | k for k in range(16)])
    elif len(rest) == 2:
        tail = (re.escape(alphabet[rest[0] >> 2]) + re.escape(alphabet[(rest[0] & 3) << 4 | rest[1] >> 4])
                + _char_class(alphabet, [(rest[1] & 15) << 2 | k for k in range(4)]))
    else:
        tail = ""
    return re.escape(literal) + tail


def _char_class(alphabet: str, indexes: list[int]) -> str:
    return "[" + "".join(re.escape(alphabet[i]) for i in indexes) + "]"
