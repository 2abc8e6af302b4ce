"""``direct_init``: a frozen dataclass built at the cost of a plain one.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its
own ``__setattr__`` refuses), a call per field: the values every served call builds (its
``ReadCall``, ``Answer``, ``Served``; a write's ``Decision`` and ``WriteMeta``) cost a few µs
a call that way. ``direct_init`` gives such a class an ``__init__`` of the same signature that
writes the fields into the instance's ``__dict__``, where ``object.__setattr__`` puts them too:
the instance is the same (equal, hashed, printed and frozen alike), only built without the calls.
A slotted class's fields are set through their slots' own setters, called directly.

It takes the plain case only (no ``__post_init__``, every field in ``__init__``), and refuses
any other class when it is applied, at import.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_NO_VALUE = object()
"""The default of a field made by ``default_factory``: the factory is called when it is left out."""


def direct_init(cls: type[T]) -> type[T]:
    params = dataclasses.fields(cls)  # type: ignore[arg-type]
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"direct_init takes a frozen dataclass, not {cls.__name__}")
    if hasattr(cls, "__post_init__") or not all(f.init for f in params):
        raise TypeError(f"direct_init takes a frozen dataclass with every field in __init__ and no "
                        f"__post_init__: {cls.__name__} is not one")
    scope: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    positional, keyword, lines = [], [], []
    for f in params:
        if f.default is not dataclasses.MISSING:
            scope[f"_default_{f.name}"] = f.default
            spelled = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            spelled = f"{f.name}=_NO_VALUE"
            lines.append(f"    if {f.name} is _NO_VALUE: {f.name} = _factory_{f.name}()")
        else:
            spelled = f.name
        (keyword if f.kw_only else positional).append(spelled)
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    if "__slots__" in cls.__dict__:
        for f in params:
            scope[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        lines += [f"    _set_{f.name}(self, {f.name})" for f in params]
    else:
        lines.append("    held = self.__dict__")
        lines += [f"    held[{f.name!r}] = {f.name}" for f in params]
    exec(f"def __init__({signature}):\n" + "\n".join(lines), scope)  # noqa: S102 (our own field names)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls
