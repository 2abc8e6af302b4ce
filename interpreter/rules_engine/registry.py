"""Registries of predicates and predicate contexts, filled by the plugin modules.

A predicate is a small function registered by name. It takes the table's context (a
pydantic model the interpreter builds from evidence; fixtures build it from YAML) and its
typed params, and returns a ``Match`` with evidence or a ``Miss`` with a reason — never a
bare bool, so the reason a rule did not fire is never lost.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.bundle.op_params import DECLARED_OPS


@dataclass(frozen=True)
class Match:
    """The predicate holds; ``evidence`` says what it saw (JSON-able)."""

    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Miss:
    """The predicate does not hold; ``reason`` says why, in a short phrase."""

    reason: str


Outcome = Match | Miss


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    func: Callable[[Any, Any], Outcome]
    context: str
    params_model: type[BaseModel]
    doc: str
    source: str

    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""


PREDICATES: dict[str, PredicateSpec] = {}
CONTEXTS: dict[str, type[BaseModel]] = {}


def context_model(name: str) -> Callable[[type[BaseModel]], type[BaseModel]]:
    """Register the pydantic model a table's predicates read (``context: NAME`` in the table)."""

    def register(cls: type[BaseModel]) -> type[BaseModel]:
        if name in CONTEXTS and CONTEXTS[name] is not cls:
            raise RuntimeError(f"context {name!r} registered twice")
        CONTEXTS[name] = cls
        return cls

    return register


def predicate(name: str, *, context: str, params: type[BaseModel] | None = None
              ) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Register ``func(context, params) -> Match | Miss`` under ``name``."""

    def register(func: Callable[..., Outcome]) -> Callable[..., Outcome]:
        if name in PREDICATES and PREDICATES[name].func is not func:
            raise RuntimeError(f"predicate {name!r} registered twice")
        # The code object's first line is the line inspect.getsourcelines reports (the first
        # decorator's), without reading and tokenising the source file at every import.
        code = getattr(inspect.unwrap(func), "__code__", None)
        if code is not None:
            file = code.co_filename
            marker = file.rfind("/interpreter/")
            source = f"{file[marker + 1:] if marker >= 0 else file}:{code.co_firstlineno}"
        else:
            source = func.__module__
        PREDICATES[name] = PredicateSpec(name, func, context, params or NoParams, func.__doc__ or "", source)
        return func

    return register


_loaded = False


def load_plugins() -> None:
    """Import every module of ``capenv.interpreter.predicates`` so their registrations run."""
    global _loaded
    if _loaded:
        return
    package = importlib.import_module("capenv.interpreter.predicates")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        importlib.import_module(f"{package.__name__}.{info.name}")
    _loaded = True


def known_serving_ops() -> set[str]:
    """Names of the serving ops a rule may name with ``serve:`` (declared with their parameters in
    the hand-over, ``bundle/op_params.py``; serving's ops register one function for each)."""
    return set(DECLARED_OPS)
