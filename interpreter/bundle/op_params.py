"""The parameters of each serving op, as a plan stores them (``FieldRule.params``).

The build side produces these (validated with ``OP_PARAMS[op].model_validate``); the serving
ops consume them. This file is the contract between the two: change it on both sides at once.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.left_out import LeftOutAtDefault



class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClockFormat(_Params, LeftOutAtDefault):
    """How an instant is written: ISO-8601 (separator, fraction digits, zone spelling), epoch, an
    HTTP date (RFC 9110's IMF-fixdate, ``Thu, 03 Dec 2026 10:02:39 GMT``: whole seconds, in GMT), or
    JavaScript's Date text (``Thu Dec 03 2026 16:47:23 GMT+0000 (Coordinated Universal Time)``: whole
    seconds in the recorded zone, bundle/js_dates.py)."""

    style: Literal["iso", "epoch-seconds", "epoch-milliseconds", "http-date", "js-date"]
    separator: str = "T"
    fraction_digits: int = 0
    zone: str = "Z"
    """``Z``, ``+00:00``, ``+0000`` or ``""`` (no zone), as recorded (an HTTP date is in GMT: ``Z``;
    a JavaScript Date text's offset is ``+hhmm``)."""
    as_string: bool = True
    """Epoch values written as JSON strings rather than numbers."""
    zone_name: str = ""
    """The zone's name a JavaScript Date text ends in, as recorded (``Coordinated Universal Time``)."""

    left_out_at_default = ("zone_name",)


class EchoParams(_Params, LeftOutAtDefault):
    member: str
    """The body member whose value is stored as is."""
    sorted: bool = False
    """A string array stored sorted: the application sorts what it was sent."""
    letter_case: Literal["as-sent", "lower", "upper"] = "as-sent"
    """A text (or each text of a string array) stored case-folded: the application stores what it
    was sent in lower (upper) case (``field.case-folded-echo``)."""

    left_out_at_default = ("sorted", "letter_case")


class CopyParams(_Params):
    pointer: str
    """JSON pointer into the body (the shallowest match when learned)."""


class PathParams(_Params):
    param: str
    """The path parameter of the collection the call names, percent-decoded once."""


class SlugParams(_Params):
    member: str
    """Lower case, runs of other characters joined by ``-``."""
    taken_suffix: str | None = None
    """How a slug another entity holds is made unique, ``{}`` standing for the first number from
    ``taken_first`` that makes it free (``-{}``: call-ana-2); None: such a call is refused, as the
    capture does not show what the application makes of it (``field.slug``)."""
    taken_first: int = 2


class IdentityParams(_Params, LeftOutAtDefault):
    format: Literal["sequence", "uuid", "token"]
    as_string: bool = False
    """A sequence written as a string of digits."""
    scope: Literal["collection", "type"] = "collection"
    length: int | None = None
    classes: str | None = None
    """Token character classes: any of ``a`` (lower), ``A`` (upper), ``9`` (digits), plus literal extras."""
    separators: dict[int, str] = Field(default_factory=dict)
    """Token separator positions (index -> character)."""
    uppercase: bool = False
    """A UUID written in upper case."""
    encoded_prefix: str | None = None
    """A sequence written as the base64 of this prefix and its number, a Relay global id
    (``Project:`` and 5 give ``UHJvamVjdDo1``)."""
    fresh_after_delete: bool = False
    """A sequence identity's ``SequenceParams.fresh_after_delete``."""
    reuse_seen: int | None = None
    """A sequence identity's ``SequenceParams.reuse_seen``."""
    address_origin: str | None = None
    """Set where the identity is the entity's own address (``IdAddress``): the value drawn is its last
    segment, and the identity this origin (empty when origin-relative), the collection's path, a
    slash, the segment and, with ``address_slash``, a slash."""
    address_slash: bool = False

    left_out_at_default = ("fresh_after_delete", "reuse_seen", "address_origin", "address_slash")


class ClockParams(_Params):
    format: ClockFormat


class NestedClockParams(_Params):
    clocks: dict[str, ClockFormat]
    """JSON pointers (inside the field's object) of the members that take the write's clock."""
    base: dict[str, Any] | None = None
    """For a create: the exemplar's object, whose other members are kept (an update keeps the
    entity's own)."""


class GroupedMembersParams(_Params):
    clocks: dict[str, ClockFormat] = {}
    """JSON pointers (inside the group object) of the members that take the write's clock."""
    base: dict[str, Any] | None = None
    """For a create: the exemplar's object, whose other members are kept (an update keeps the
    entity's own)."""
    members: list[str] | None = None
    """For a create: the sent members the group takes (an update takes every sent member the
    entity's group holds and nothing else of the entity does)."""


class SequenceParams(_Params, LeftOutAtDefault):
    scope: Literal["collection", "type"] = "collection"
    groups: list[int] | None = None
    """Widths of ``-``-separated zero-padded digit groups (``000-005`` -> [3, 3]); None for a plain integer."""
    as_string: bool = False
    fresh_after_delete: bool = False
    """A recorded create after the delete of the entity holding the scope's largest value drew one
    more than that value (``sequence-reuse``): the sequence does not reuse it, as the spec's does
    not. Unset, a create after such a delete is refused: the application may give the value again
    (SQLite's rowid, json-server's max + 1)."""
    reuse_seen: int | None = None
    """The recorded create that drew the deleted largest value again (``sequence-reuse``), named by
    the refusal."""

    left_out_at_default = ("fresh_after_delete", "reuse_seen")


class UniqueParams(_Params):
    format: Literal["uuid", "token"]
    length: int | None = None
    classes: str | None = None
    separators: dict[int, str] = Field(default_factory=dict)
    uppercase: bool = False


class TemplateParams(_Params, LeftOutAtDefault):
    parts: list[str | dict[str, Any]]
    """Literal text and sources: ``{"field": "id"}`` (a value generated for another field),
    ``{"member": "title"}`` (a body member), ``{"slug_of": "title"}``, ``{"param": "post_id"}``,
    ``{"encoded_member": "name"}`` (a body member percent-encoded, as a URL spells it),
    ``{"segment_of": "pulp_href"}`` (the last segment of a value generated for another field, an
    identity that is the entity's own address: the id the application drew inside it)."""
    encoded_proven: str = ""
    """With ``encoded_member``: the characters outside RFC 3986's unreserved set whose encoding the
    capture shows (a space as %20); a sent value holding another is refused, its spelling unknown."""

    left_out_at_default = ("encoded_proven",)


class ConstantParams(_Params):
    value: Any
    member: str | None = None
    """An update's member the application stores otherwise than sent (seeds: "accepted only with
    the value a recorded call sent it with, and then stores the value that call recorded"): the
    value is written only by a call sending it; a call leaving it out keeps the field."""
    requires_from: bool = False
    """With ``member``: write the value only on an entity whose field holds ``from_value``, what
    the recorded call found there, since the stored value may mix in what the entity held
    (Syncthing merges a sent ``versioning`` with the held one's params); another is refused."""
    from_value: Any = None


class IncrementParams(_Params):
    by: int = 1


class StampParams(_Params):
    from_field: str
    """The entity's created…by counterpart holding the acting user's value."""


class DerivedParams(_Params):
    member: str
    """The body member whose text (markup aside) the field shows."""
    markup: Literal["html", "none"] = "html"
    requires_from: bool = False
    """Serve a call sending the member only on an entity whose field holds ``from_value``, the
    value the recorded call found (seeds: "served only on an entity holding … (from)")."""
    from_value: Any = None
    value: Any = None
    """The value the recorded call stored, when given: served as is (the member is accepted only
    with its recorded value, so the text is fixed); otherwise the member's text, markup aside."""


class RenewedParams(_Params):
    pointers: list[str]
    """Pointers (``*`` for any array index) whose UUIDs each call renews."""


class SetParams(_Params):
    value: Any
    """An action's value, set on every call."""


class HeldClockParams(_Params):
    member: str
    format: ClockFormat


class HeldVersionParams(_Params):
    member: str
    """The body member that must carry the number the entity holds (the field itself)."""
    by: int = 1


OP_PARAMS: dict[str, type[_Params]] = {
    "echo": EchoParams, "copy": CopyParams, "path": PathParams, "slug": SlugParams,
    "identity": IdentityParams, "clock": ClockParams, "nested-clock": NestedClockParams,
    "sequence": SequenceParams, "unique": UniqueParams, "template": TemplateParams,
    "constant": ConstantParams, "increment": IncrementParams, "stamp": StampParams,
    "derived": DerivedParams, "renewed": RenewedParams, "set": SetParams, "held-clock": HeldClockParams,
    "held-version": HeldVersionParams, "grouped-members": GroupedMembersParams,
}


# The op names a rule's ``serve:`` may name (serving's ops registry registers a function for each);
# here, in the hand-over, so the build side validates tables without importing serving.
DECLARED_OPS = (
    "echo", "copy", "path", "slug", "identity", "clock", "nested-clock", "sequence", "unique",
    "template", "constant", "increment", "stamp", "derived", "renewed", "set", "held-clock",
    "held-version", "grouped-members",
)


def json_params(params: BaseModel) -> dict[str, Any]:
    """An op's params as a plan writes them: JSON objects have string keys, so a token's separator
    positions are written ``{"8": "-"}`` (the contract's ``dict[int, str]`` reads them back)."""
    return _string_keys(params.model_dump(mode="python"))


def _string_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_string_keys(v) for v in value]
    return value
