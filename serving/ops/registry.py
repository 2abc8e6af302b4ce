"""The registry of serving ops, by name (a rule's ``serve:`` must name one of these)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Callable

from capenv.interpreter.bundle.op_params import DECLARED_OPS

SERVING_OPS: dict[str, Callable[..., Any]] = {}


def serving_op(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        if name not in DECLARED_OPS:
            raise RuntimeError(f"serving op {name!r} is not declared in DECLARED_OPS")
        SERVING_OPS[name] = func
        return func

    return register


def known_ops() -> tuple[str, ...]:
    return DECLARED_OPS


def load_ops() -> None:
    package = importlib.import_module("capenv.serving.ops")
    for info in pkgutil.iter_modules(package.__path__):
        if info.name != "registry":
            importlib.import_module(f"{package.__name__}.{info.name}")
