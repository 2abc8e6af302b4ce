"""Values a field takes from the call itself: ``echo``, ``copy``, ``path``, ``slug``, ``template``.

A create cannot be served without the source (the op refuses, naming it); an update that
does not send it keeps the field (``UNCHANGED``): the call could not take the rule.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from capenv.interpreter.bundle.jsonvalue import JsonNumber, dumps
from capenv.interpreter.bundle.op_params import CopyParams, EchoParams, PathParams, SlugParams, TemplateParams
from capenv.interpreter.bundle.text import slugify

from .context import UNCHANGED, OpContext, OpRefusal, absent, copy_json
from .pointers import MISSING, parse_pointer, resolve
from .registry import serving_op

TEMPLATE_SOURCES = ("field", "member", "slug_of", "param", "encoded_member", "segment_of")
"""The kinds of template part that are not literal text (one key per part)."""


@serving_op("echo")
def echo(params: EchoParams, ctx: OpContext) -> Any:
    """The body member of the same name, stored as sent (a string array sorted, when the
    application sorts it)."""
    if params.member not in ctx.body:
        return absent(ctx, f"body member {params.member!r}")
    value = ctx.body[params.member]
    if params.letter_case != "as-sent":
        value = _case_folded(value, params.letter_case, params.member)
    if params.sorted and isinstance(value, list) and all(isinstance(item, str) for item in value):
        return sorted(value)
    return copy_json(value)


def _case_folded(value: Any, letter_case: str, member: str) -> Any:
    """A text, or each text of a string array, in the letter case the application stores; any
    other value is refused: the capture showed the application folding text alone."""
    fold = str.lower if letter_case == "lower" else str.upper
    if isinstance(value, str):
        return fold(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [fold(item) for item in value]
    raise OpRefusal(f"body member {member!r} must be a text or a list of texts (the application stores "
                    f"them in {letter_case} case)")


@serving_op("copy")
def copy(params: CopyParams, ctx: OpContext) -> Any:
    """The body's value at a JSON pointer."""
    value = resolve(ctx.body, parse_pointer(params.pointer))
    if value is MISSING:
        return absent(ctx, f"a body value at {params.pointer!r}")
    return copy_json(value)


@serving_op("path")
def path(params: PathParams, ctx: OpContext) -> str:
    """A path parameter of the collection the call names, percent-decoded once."""
    try:
        return ctx.path_args[params.param]
    except KeyError:
        raise OpRefusal(f"field {ctx.field!r} needs path parameter {params.param!r}") from None


def _member_text(ctx: OpContext, member: str) -> str | None:
    """A body member that must be a string; None when the call did not send it."""
    if member not in ctx.body:
        return None
    value = ctx.body[member]
    if not isinstance(value, str):
        raise OpRefusal(f"body member {member!r} must be a string")
    return value


@serving_op("slug")
def slug(params: SlugParams, ctx: OpContext) -> Any:
    """The slug of a body string member."""
    text = _member_text(ctx, params.member)
    if text is None:
        return absent(ctx, f"body member {params.member!r}")
    value = slugify(text)
    held = ctx.entity_before is not None and ctx.entity_before.get(ctx.field) == value
    if not held and params.taken_suffix is not None and value in (taken := ctx.type_values(ctx.field)):
        number = params.taken_first
        while (unique := value + params.taken_suffix.replace("{}", str(number))) in taken:
            number += 1
        return unique
    if not held and value in ctx.type_values(ctx.field):
        # applications make a taken slug unique their own way (title-2, title-1a2b): the capture does not show it
        raise OpRefusal(f"field {ctx.field!r} would be {value!r}, which another held entity has; what the "
                        f"application makes of a taken slug is not recorded: send a {params.member!r} whose slug "
                        "no entity holds")
    return value


def template_text(value: Any) -> str:
    """How a value reads inside text: a string as is, a number as written, else its JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, JsonNumber):
        return value.text
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return dumps(value).decode()


def _template_source(part: dict[str, Any], ctx: OpContext, proven: str = "") -> Any:
    (kind, name), = part.items()
    if kind == "encoded_member":  # as the recorded links spelled it: percent-encoded
        value = _template_source({"member": name}, ctx)
        if value is UNCHANGED:
            return value
        unproven = sorted({c for c in template_text(value) if quote(c, safe="") != c and c not in proven})
        if unproven:
            raise OpRefusal(f"field {ctx.field!r} spells body member {name!r} percent-encoded, and how the "
                            f"application encodes {', '.join(repr(c) for c in unproven)} is not recorded "
                            f"(shown: {', '.join(repr(c) for c in proven) or 'none'}): send a value without them")
        return quote(template_text(value), safe="")
    if kind == "segment_of":  # the id drawn inside an identity that is the entity's own address
        value = _template_source({"field": name}, ctx)
        segment = template_text(value).rstrip("/").rsplit("/", 1)[-1]
        if not segment:
            raise OpRefusal(f"field {ctx.field!r} is built around the last segment of field {name!r}, which holds none")
        return segment
    if kind == "field":
        if name in ctx.generated:
            return ctx.generated[name]
        if ctx.entity_before is not None and name in ctx.entity_before:
            return ctx.entity_before[name]
        raise OpRefusal(f"field {ctx.field!r} is built around field {name!r}, which this write gave no value")
    if kind == "param":
        if name in ctx.path_args:
            return ctx.path_args[name]
        raise OpRefusal(f"field {ctx.field!r} needs path parameter {name!r}")
    text = ctx.body.get(name, MISSING) if kind == "member" else _member_text(ctx, name)
    if text is MISSING or text is None:
        return absent(ctx, f"body member {name!r}")
    return slugify(text) if kind == "slug_of" else text


@serving_op("template")
def template(params: TemplateParams, ctx: OpContext) -> Any:
    """Literal text rebuilt around generated, sent or path values (a URL ending in the new id)."""
    pieces = []
    for part in params.parts:
        if isinstance(part, str):
            pieces.append(part)
            continue
        value = _template_source(part, ctx, params.encoded_proven)
        if value is UNCHANGED:  # an update that did not send the source keeps the field
            return UNCHANGED
        pieces.append(template_text(value))
    return "".join(pieces)
