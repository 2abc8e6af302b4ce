"""Running a plan's field rules: validate each rule's params once, then dispatch by op name.

``compile_rule`` validates a ``FieldRule`` against ``OP_PARAMS`` (and what pydantic cannot
see: clock zones, token shapes, pointers, template parts), raising ``OpParamsError`` for a
plan bug; the runtime can compile every plan at load. ``apply_field_rule`` runs one rule on a
write's context (compiling on first use, then from a cache), ``apply_field_rules`` a plan's
rules in an order where templates follow the values they are built around.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from pydantic import BaseModel, ValidationError

# The op modules register themselves on import; listed so a missing one fails loudly here.
from capenv.interpreter.bundle.op_params import DECLARED_OPS, OP_PARAMS

from . import call_values, clocks, entity_values, fixed_values, identity_ops, renewed, sequences  # noqa: F401
from .call_values import TEMPLATE_SOURCES
from .clocks import check_clock_format
from .context import UNCHANGED, OpContext, OpParamsError, copy_json
from .generated_ids import token_shape
from .pointers import parse_pointer
from .registry import SERVING_OPS

if TYPE_CHECKING:
    from capenv.interpreter.bundle.models import FieldRule


@dataclass(frozen=True, slots=True)
class CompiledRule:
    """A field rule with its params validated and its op resolved."""

    field: str
    op: str
    params: BaseModel
    run: Callable[[Any, OpContext], Any]
    echoed: str | None = None
    """For a plain ``echo`` (not sorted): the body member, which ``apply_field_rules`` copies
    itself when the call sent it (the op's own result, without its two calls per field)."""

    def __call__(self, ctx: OpContext) -> Any:
        ctx.field = self.field
        value = self.run(self.params, ctx)
        if value is not UNCHANGED:
            ctx.generated[self.field] = value
        return value


def _check(op: str, params: Any) -> None:
    """What the params models cannot say: formats and shapes an op could not serve."""
    if op in ("clock", "held-clock"):
        check_clock_format(params.format)
    elif op in ("nested-clock", "grouped-members"):
        for pointer, clock_format in params.clocks.items():
            if not parse_pointer(pointer):
                raise OpParamsError("a nested clock names members inside the field, not the field itself")
            check_clock_format(clock_format)
    elif op in ("identity", "unique") and params.format == "token":
        token_shape(params.length, params.classes, params.separators)
    elif op == "copy":
        parse_pointer(params.pointer)
    elif op == "renewed":
        for pointer in params.pointers:
            parse_pointer(pointer)
    elif op == "sequence" and params.groups is not None:
        if not params.groups or any(width < 1 for width in params.groups):
            raise OpParamsError(f"sequence groups must be positive widths, not {params.groups}")
    elif op == "template":
        for part in params.parts:
            if isinstance(part, dict) and (len(part) != 1 or next(iter(part)) not in TEMPLATE_SOURCES
                                           or not isinstance(next(iter(part.values())), str)):
                raise OpParamsError(f"a template part is text or one of {TEMPLATE_SOURCES} naming a string: {part!r}")


def compile_rule(rule: FieldRule) -> CompiledRule:
    """Validate ``rule`` (``OpParamsError`` naming the field and op when it breaks the contract)."""
    if rule.op not in DECLARED_OPS or rule.op not in SERVING_OPS:
        raise OpParamsError(f"field {rule.field!r}: no serving op {rule.op!r}")
    try:
        params = OP_PARAMS[rule.op].model_validate(rule.params)
        _check(rule.op, params)
    except (ValidationError, OpParamsError) as exc:
        raise OpParamsError(f"field {rule.field!r}, op {rule.op!r}: {exc}") from exc
    echoed = params.member if rule.op == "echo" and not params.sorted and params.letter_case == "as-sent" else None
    return CompiledRule(rule.field, rule.op, params, SERVING_OPS[rule.op], echoed)


_CACHE_LIMIT = 4096
# id(rule) -> (rule, compiled); holding the rule keeps its id from being reused by another.
_compiled: dict[int, tuple[Any, CompiledRule]] = {}


def _by_identity(cache: dict[int, tuple[Any, Any]], key: Any, build: Any) -> Any:
    """``build(key)``, computed once per object (plans' rules are immutable): the cache holds the
    key itself, so its id cannot be reused by another object while the entry lives."""
    entry = cache.get(id(key))
    if entry is not None and entry[0] is key:
        return entry[1]
    result = build(key)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[id(key)] = (key, result)
    return result


def compiled(rule: FieldRule) -> CompiledRule:
    return _by_identity(_compiled, rule, compile_rule)


def apply_field_rule(rule: FieldRule, ctx: OpContext) -> Any:
    """The value ``rule`` gives its field in this write, or ``UNCHANGED``; records it in
    ``ctx.generated``. Raises ``OpRefusal`` for a call it cannot serve."""
    return compiled(rule)(ctx)


def _template_fields(rule: CompiledRule) -> set[str]:
    if rule.op != "template":
        return set()
    return {part.get("field") or part["segment_of"] for part in rule.params.parts
            if isinstance(part, dict) and ("field" in part or "segment_of" in part)}


def order_rules(rules: Iterable[FieldRule]) -> list[CompiledRule]:
    """The plan's rules with every template after the rules of the fields it is built around
    (otherwise in plan order, which fixes the order renewed UUIDs are drawn in)."""
    pending = [compiled(rule) for rule in rules]
    produced = {rule.field for rule in pending}
    ordered: list[CompiledRule] = []
    done: set[str] = set()
    while pending:
        ready = [r for r in pending if not ((_template_fields(r) & produced) - done - {r.field})]
        if not ready:  # a cycle: a bad plan, but serve it in plan order rather than hang
            ready = pending
        for rule in ready:
            ordered.append(rule)
            done.add(rule.field)
        taken = {id(r) for r in ready}
        pending = [r for r in pending if id(r) not in taken]
    return ordered


# id(plan.fields) -> (plan.fields, ordered): a plan's rules are ordered once, not per write.
_ordered: dict[int, tuple[Any, list[CompiledRule]]] = {}


def ordered_rules(rules: Iterable[FieldRule]) -> list[CompiledRule]:
    """``order_rules``, cached for a tuple of rules (a plan's ``fields``)."""
    if not isinstance(rules, tuple):
        return order_rules(rules)
    return _by_identity(_ordered, rules, order_rules)


def apply_field_rules(rules: Iterable[FieldRule], ctx: OpContext) -> dict[str, Any]:
    """Every field's value for one write (fields left ``UNCHANGED`` are absent)."""
    return apply_ordered(ordered_rules(rules), ctx)


def apply_ordered(ordered: Iterable[CompiledRule], ctx: OpContext) -> dict[str, Any]:
    """``apply_field_rules`` of rules ``ordered_rules`` compiled and ordered (a plan's, kept)."""
    values: dict[str, Any] = {}
    body = ctx.body
    for rule in ordered:
        member = rule.echoed
        if member is not None and member in body:  # what ``echo`` answers, inline
            ctx.field = rule.field
            value = body[member]
            kind = type(value)
            if kind is not str and kind is not int and kind is not bool and value is not None:
                value = copy_json(value)  # a container (an immutable scalar is shared, as copy_json shares it)
            ctx.generated[rule.field] = values[rule.field] = value
            continue
        value = rule(ctx)
        if value is not UNCHANGED:
            values[rule.field] = value
    return values
