"""Hypothesis strategies for the JSON values a published input schema accepts (the subset of
Draft 2020-12 capenv's catalog writes). A keyword this module does not know fails loudly, so a
schema can never publish a constraint the property tests silently leave out.
(``hypothesis-jsonschema`` would do this, but it does not run on the Hypothesis this suite uses.)"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$schema", "$comment"})
KNOWN = ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "const", "enum", "minLength",
                       "maxLength", "minProperties", "minItems", "maxItems", "items", "anyOf", "pattern",
                       "minimum", "maximum", "allOf", "oneOf", "not", "uniqueItems"}
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**53, 2**53), st.text(max_size=12))
ANY_JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                        max_leaves=6)


def values_of(schema: dict[str, Any] | bool) -> st.SearchStrategy[Any]:
    """Every value this strategy draws is valid by ``schema`` (the test checks it with jsonschema too)."""
    if schema is True or schema == {}:
        return ANY_JSON
    if schema is False:
        raise ValueError("a false schema accepts nothing")
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"the catalog published keyword(s) {sorted(unknown)} this generator does not know")
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of(*(values_of(branch) for branch in schema["anyOf"]))
    if "oneOf" in schema:  # a write dispatching on a collection segment: one branch per served value
        return st.one_of(*(values_of(branch) for branch in schema["oneOf"])).filter(_valid_by(schema))
    if "not" in schema:  # text classes a member refuses (write-stored-text): drawn by the rest, kept out of them
        return values_of({k: v for k, v in schema.items() if k != "not"}).filter(_valid_by(schema))
    if "allOf" in schema:  # keywords kept apart (write-sent-values): drawn by the rest, kept to them all
        return values_of({k: v for k, v in schema.items() if k != "allOf"}).filter(_valid_by(schema))
    kinds = schema.get("type")
    if kinds is None:  # any kind, though bounds or element kinds may apply to some (write-sent-values)
        return ANY_JSON.filter(_valid_by(schema)) if set(schema) - ANNOTATIONS else ANY_JSON
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return st.one_of(*(_of_type(kind, schema) for kind in kinds))


def _valid_by(schema: dict[str, Any]):
    return Draft202012Validator(schema).is_valid


def _of_type(kind: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if kind == "string":
        if "pattern" in schema:
            least, most = schema.get("minLength", 0), schema.get("maxLength")
            return st.from_regex(schema["pattern"], fullmatch=True).filter(
                lambda text: len(text) >= least and (most is None or len(text) <= most))
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 16))
    if kind == "integer":
        return st.integers(schema.get("minimum", -2**53), schema.get("maximum", 2**53))
    if kind == "number":
        least, most = schema.get("minimum"), schema.get("maximum")
        return st.one_of(st.integers(-2**31 if least is None else least, 2**31 if most is None else most),
                         st.floats(least, most, allow_nan=False, allow_infinity=False, width=32))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = schema.get("items", True)
        drawn = st.lists(values_of(items), min_size=schema.get("minItems", 0),
                         max_size=schema.get("maxItems", max(3, schema.get("minItems", 0))))
        # distinct elements as JSON Schema compares them (1 and true differ; 1 and 1.0 do not)
        return drawn.filter(_valid_by({"uniqueItems": True})) if schema.get("uniqueItems") else drawn
    if kind == "object":
        return _objects(schema)
    raise ValueError(f"unknown JSON type {kind!r}")


def _objects(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties = schema.get("properties", {})
    required = [name for name in schema.get("required", ()) if name in properties]
    optional = [name for name in properties if name not in required]
    extra = schema.get("additionalProperties", True)
    least = schema.get("minProperties", 0)
    chosen = st.fixed_dictionaries({name: values_of(properties[name]) for name in required},
                                   optional={name: values_of(properties[name]) for name in optional})
    if extra is not False:
        more = st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: k not in properties),
                               values_of(extra), max_size=2)
        chosen = st.tuples(chosen, more).map(lambda pair: {**pair[1], **pair[0]})
    return chosen.filter(lambda value: len(value) >= least) if least else chosen


def minimal_value(schema: dict[str, Any] | bool, samples: dict[str, Any] | None = None) -> Any:
    """One small value ``schema`` accepts, without Hypothesis: the required members only, each the
    first ``examples`` entry when it validates, else the smallest value of its first type;
    ``samples`` gives a value for a member by name (a recorded path id)."""
    from jsonschema import Draft202012Validator

    if schema is True or schema == {}:
        return {}
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return minimal_value(schema["anyOf"][0], samples)
    for example in [schema.get("default")] + list(schema.get("examples", ())):
        if example is not None and Draft202012Validator(schema).is_valid(example):
            return example
    kinds = schema.get("type", "object")
    kind = kinds[0] if isinstance(kinds, list) else kinds
    if kind == "object":
        properties = schema.get("properties", {})
        names = list(schema.get("required", ()))
        names += [n for n in properties if n not in names][:max(0, schema.get("minProperties", 0) - len(names))]
        return {name: samples[name] if samples and name in samples else minimal_value(properties.get(name, True))
                for name in names}
    if kind == "array":
        return [minimal_value(schema.get("items", True)) for _ in range(schema.get("minItems", 0))]
    return {"string": "a" * max(1, schema.get("minLength", 0)) if schema.get("maxLength", 1) else "",
            "integer": 1, "number": 1, "boolean": False, "null": None}[kind]
