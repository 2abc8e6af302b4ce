"""Bundle models written as JSON by orjson directly, the same bytes as ``dumps(model.model_dump())``.

A bundle holds tens of thousands of small models (trace events, plans, entities); turning each into
a dict with pydantic first, then writing the dicts, walked the whole bundle twice and cost three
times the writing itself. Here orjson walks the models and asks ``_as_members`` for each one's
fields as a shallow dict (in declaration order, as pydantic writes them). A model whose class
changes what pydantic writes (a model or field serializer, a computed or excluded field, an alias,
extra members) is still dumped by pydantic, so its bytes stay the same.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel, PlainSerializer, RootModel, WrapSerializer

from .jsonvalue import dumps_default

_PLAIN: dict[type, tuple[str, ...] | None] = {}
"""Per model class, the names of its fields when pydantic writes them as they are, else None."""


def _plain_fields(cls: type[BaseModel]) -> tuple[str, ...] | None:
    if cls not in _PLAIN:
        decorators = cls.__pydantic_decorators__
        reshaped = (issubclass(cls, RootModel) or decorators.model_serializers or decorators.field_serializers
                    or cls.model_computed_fields or cls.model_config.get("extra") == "allow"
                    or any(f.exclude or f.serialization_alias
                           or any(isinstance(m, (PlainSerializer, WrapSerializer)) for m in f.metadata)
                           for f in cls.model_fields.values()))
        _PLAIN[cls] = None if reshaped else tuple(cls.model_fields)
    return _PLAIN[cls]


def _as_members(value: Any) -> Any:
    if isinstance(value, BaseModel):
        names = _plain_fields(type(value))
        if names is not None:
            return {name: getattr(value, name) for name in names}
    return dumps_default(value)


def dumps_models(value: Any, *, indent: bool = False) -> bytes:
    """``value`` (models, JSON values, ``JsonNumber``) as JSON, as ``jsonvalue.dumps`` writes the
    models' ``model_dump()``."""
    return orjson.dumps(value, default=_as_members, option=orjson.OPT_INDENT_2 if indent else 0)
