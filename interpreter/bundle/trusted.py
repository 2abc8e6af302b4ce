"""Models built from values already of their fields' types, without validating them again.

``trusted(cls, values)`` is ``cls.model_construct(**values)`` for a model ``values`` gives every
field of, by name: the few attribute writes ``model_construct`` ends with, without its loop over
the fields for aliases and defaults (about 4 µs against 16 µs). A build makes one trace event per
rule it tries (tens of thousands for a large capture), so this is its hottest constructor.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__
_plain: set[type] = set()


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """An instance of ``cls`` holding ``values`` (every field, by name, of the field's type)."""
    if cls not in _plain:
        _check_plain(cls)
    model = cls.__new__(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", set(values))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def _check_plain(cls: type[BaseModel]) -> None:
    """Only a model ``model_construct`` would build the same way: no aliases, no post-init, no
    private attributes, no extra members kept."""
    aliased = [name for name, f in cls.model_fields.items() if f.alias is not None or f.validation_alias is not None]
    if aliased or cls.__pydantic_post_init__ or cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
        raise TypeError(f"{cls.__name__} is not a plain model: build it with model_construct")
    _plain.add(cls)
