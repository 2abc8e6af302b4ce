"""``bundle.model_json.dumps_models``: a bundle's models written by orjson directly are the bytes
``jsonvalue.dumps(model.model_dump())`` wrote, without pydantic turning every model into a dict
first; a model whose class reshapes what pydantic writes is still dumped by pydantic."""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, computed_field, model_serializer

from capenv.interpreter.bundle.jsonvalue import JsonNumber, dumps
from capenv.interpreter.bundle.model_json import dumps_models


class Colour(str, enum.Enum):
    RED = "red"


class Leaf(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    exact: Any = None
    tags: tuple[str, ...] = ()
    colour: Colour = Colour.RED
    at: datetime | None = None


class WithoutEmpty(BaseModel):
    members: tuple[str, ...] = ()
    kind: str = "x"

    @model_serializer(mode="wrap")
    def _without_empty(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if not self.members:
            data.pop("members", None)
        return data


class Hidden(BaseModel):
    shown: int = 1
    hidden: Any = Field(default=None, exclude=True)


class Computed(BaseModel):
    base: int = 2

    @computed_field
    @property
    def double(self) -> int:
        return self.base * 2


class Extra(BaseModel):
    model_config = ConfigDict(extra="allow")

    known: int = 0


class Root(BaseModel):
    leaves: tuple[Leaf, ...]
    by_name: dict[str, Leaf]
    anything: Any
    others: list[Any]


def sample() -> Root:
    leaf = Leaf(name="a", exact=JsonNumber("1.50"), tags=("x", "y"), at=datetime(2024, 5, 1, 12, tzinfo=timezone.utc))
    other = Leaf(name="b", exact={"n": [JsonNumber("1e400"), 2**70 - 1 - 2**70 + 3]})
    return Root(leaves=(leaf, other), by_name={"a": leaf}, anything={"nested": other, "set": frozenset({"s"})},
                others=[WithoutEmpty(), WithoutEmpty(members=("m",)), Hidden(hidden="secret"), Computed(),
                        Extra(known=1, surplus="kept")])


@pytest.mark.parametrize("indent", [True, False])
def test_the_bytes_model_dump_then_dumps_wrote(indent: bool):
    root = sample()
    assert dumps_models(root, indent=indent) == dumps(root.model_dump(mode="python"), indent=indent)


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the reference dump warns of the copy
def test_a_changed_copy_writes_what_pydantic_writes():
    copy = sample().model_copy(update={"leaves": [Leaf(name="c")], "others": (Computed(base=5),)})
    assert dumps_models(copy, indent=True) == dumps(copy.model_dump(mode="python"), indent=True)


def test_plain_models_are_not_dumped_by_pydantic(monkeypatch: pytest.MonkeyPatch):
    dumped: list[str] = []
    original = BaseModel.model_dump

    def counting(self: BaseModel, *args: Any, **kwargs: Any) -> Any:
        dumped.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BaseModel, "model_dump", counting)
    dumps_models(sample())
    assert sorted(dumped) == ["Computed", "Extra", "Hidden", "WithoutEmpty", "WithoutEmpty"]
