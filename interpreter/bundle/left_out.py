"""Model members written only when they differ from their default.

A member added to a bundle model after bundles were first written is left out of the JSON while it
holds its default, so every bundle and plan written before it existed reads, and hashes, as it
always did. A model lists such members in ``left_out_at_default``; ``model_json`` writes the same
bytes without asking pydantic.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer


def member_default(cls: type[BaseModel], name: str) -> Any:
    return cls.model_fields[name].get_default(call_default_factory=True)


class LeftOutAtDefault(BaseModel):
    left_out_at_default: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _members_at_default_left_out(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            cls = type(self)
            for name in cls.left_out_at_default:
                if getattr(self, name) == member_default(cls, name):
                    data.pop(name, None)
        return data
