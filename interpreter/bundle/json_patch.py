"""An RFC 6902 JSON Patch body read as the merge update it amounts to.

A patch whose operations set top-level members (``replace``, ``add``) changes the entity exactly
as a merge body of those members does, so the plan, the gate and serving read it as that object:
every field rule learned for merge updates holds. What the operations may be is the plan's
(``WritePlan.body_patch_ops``: the ones the capture's calls used, among those the ``body-patches``
table reads); anything else, and a path below a top-level member, is no such body. The patch is
translated here rather than applied with a JSON Patch library: the state needs the members it
sets, field by field, not the patched document.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from jsonpointer import JsonPointer, JsonPointerException

SETTING_OPS = frozenset({"replace", "add"})
"""The operations RFC 6902 defines as setting the value at their path (``add`` on an object member
replaces it when held, §4.1): the only ones a merge of members can say."""


@dataclass(frozen=True)
class PatchReading:
    members: dict[str, Any] | None
    """The members the patch sets, in the order it sets them (a later operation on a member wins,
    as operations apply in sequence); None when the body is no patch the plan serves."""
    ops: tuple[tuple[str, str], ...] = ()
    """Each operation's name and member, in body order."""
    problem: str | None = None


def read_patch(body: Any, ops: Collection[str]) -> PatchReading:
    """``body`` as a patch of ``ops`` (among ``SETTING_OPS``) on top-level members, else the problem."""
    if not isinstance(body, list):
        return PatchReading(None, problem="a JSON Patch is an array of operations")
    if not body:
        return PatchReading(None, problem="the JSON Patch holds no operation")
    members: dict[str, Any] = {}
    named: list[tuple[str, str]] = []
    for index, operation in enumerate(body):
        where = f"operation {index}"
        if not isinstance(operation, dict):
            return PatchReading(None, problem=f"{where} is not an object")
        op, path = operation.get("op"), operation.get("path")
        if op not in ops or op not in SETTING_OPS:
            return PatchReading(None, problem=f"{where}: op {op!r} is not served (accepted: "
                                              f"{', '.join(sorted(set(ops) & SETTING_OPS))})")
        try:
            parts = JsonPointer(path).parts if isinstance(path, str) else None
        except JsonPointerException:
            parts = None
        if parts is None or len(parts) != 1 or parts[0] == "":
            return PatchReading(None, problem=f"{where}: path {path!r} names no top-level member "
                                              "(a path such as /title)")
        if "value" not in operation:
            return PatchReading(None, problem=f"{where}: {op} needs a value")
        extra = sorted(set(operation) - {"op", "path", "value"})
        if extra:
            return PatchReading(None, problem=f"{where}: members {extra} are not served")
        members.pop(parts[0], None)  # the later operation's place, as it applied last
        members[parts[0]] = operation["value"]
        named.append((op, parts[0]))
    return PatchReading(members, tuple(named))


def ops_text(ops: Collection[str]) -> str:
    return ", ".join(repr(op) for op in sorted(ops))
