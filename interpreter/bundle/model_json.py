"""Bundle models written as JSON by orjson directly, the same bytes as ``dumps(model.model_dump())``.

A bundle holds tens of thousands of small models (trace events, plans, entities); turning each into
a dict with pydantic first, then writing the dicts, walked the whole bundle twice and cost three
times the writing itself. Here orjson walks the models and asks ``_as_members`` for each one's
fields as a shallow dict (in declaration order, as pydantic writes them). Members a model leaves out at
their default (``left_out``) are left out here too. A model whose class otherwise
changes what pydantic writes (a model or field serializer, a computed or excluded field, an alias,
extra members) is still dumped by pydantic, so its bytes stay the same.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel, PlainSerializer, RootModel, WrapSerializer

from .jsonvalue import dumps_default
from .left_out import LeftOutAtDefault, member_default

_PLAIN: dict[type, tuple[tuple[str, ...], tuple[tuple[str, Any], ...]] | None] = {}
"""Per model class, the names of its fields and the members it leaves out at their default
(``left_out.LeftOutAtDefault``) when pydantic writes them as they are otherwise, else None."""


def _plain_fields(cls: type[BaseModel]) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]] | None:
    if cls not in _PLAIN:
        decorators = cls.__pydantic_decorators__
        left_out = cls.left_out_at_default if issubclass(cls, LeftOutAtDefault) else ()
        serializers = set(decorators.model_serializers) - ({"_members_at_default_left_out"} if left_out else set())
        reshaped = (issubclass(cls, RootModel) or serializers or decorators.field_serializers
                    or cls.model_computed_fields or cls.model_config.get("extra") == "allow"
                    or any(f.exclude or f.serialization_alias
                           or any(isinstance(m, (PlainSerializer, WrapSerializer)) for m in f.metadata)
                           for f in cls.model_fields.values()))
        _PLAIN[cls] = None if reshaped else (tuple(cls.model_fields),
                                             tuple((name, member_default(cls, name)) for name in left_out))
    return _PLAIN[cls]


def _as_members(value: Any) -> Any:
    if isinstance(value, BaseModel):
        plain = _plain_fields(type(value))
        if plain is not None:
            names, left_out = plain
            members = {name: getattr(value, name) for name in names}
            for name, default in left_out:
                if members[name] == default:
                    del members[name]
            return members
    return dumps_default(value)


def dumps_models(value: Any, *, indent: bool = False) -> bytes:
    """``value`` (models, JSON values, ``JsonNumber``) as JSON, as ``jsonvalue.dumps`` writes the
    models' ``model_dump()``."""
    return orjson.dumps(value, default=_as_members, option=orjson.OPT_INDENT_2 if indent else 0)
