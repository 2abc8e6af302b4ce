"""Calling served tools in-process and checking what a call did to data/get."""

from __future__ import annotations

import json
from typing import Any

from capenv.serving.runtime import EnvironmentRuntime

def shown(value: Any, limit: int = 600) -> str:
    """A value for an assertion message, cut short (bodies here may be megabytes long)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


NEW_POST = {"title": "A new post", "author": "tester", "views": 11, "published": True, "tags": ["new"]}


def accepted(runtime: EnvironmentRuntime, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The structured answer of a call that must be served (not a tool error)."""
    answer = runtime.call_tool(name, arguments)
    assert answer.is_error is False, shown((name, arguments, answer.structured))
    return answer.structured


def refused(runtime: EnvironmentRuntime, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool error with a message, data/get byte for byte as before; the error's structure."""
    before = runtime.data_get()
    answer = runtime.call_tool(name, arguments)
    assert answer.is_error is True, shown((name, answer.structured))
    assert answer.structured["error"] == "refused", shown(answer.structured)
    assert isinstance(answer.structured["message"], str) and answer.structured["message"]
    assert runtime.data_get() == before, f"{name} was refused but changed the state"
    return answer.structured


def unchanged_answer(runtime: EnvironmentRuntime, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A served answer (not a tool error) that leaves data/get byte for byte as before."""
    before = runtime.data_get()
    structured = accepted(runtime, name, arguments)
    assert runtime.data_get() == before, f"{name} changed the state"
    return structured


def document(runtime: EnvironmentRuntime) -> dict[str, Any]:
    return json.loads(runtime.data_get())


def entities(runtime: EnvironmentRuntime, path: str) -> list[dict[str, Any]]:
    """The ``{"id", "value", "records"}`` items of the collection at ``path``."""
    return next(c["entities"] for c in document(runtime)["collections"] if c["path"] == path)


def with_state(runtime: EnvironmentRuntime, edit) -> None:
    """Install data/get edited by ``edit(document)`` through data/add."""
    state = document(runtime)
    edit(state)
    runtime.data_add(json.dumps(state).encode())
