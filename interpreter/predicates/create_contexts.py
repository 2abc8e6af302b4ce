"""What the create tables read: one observed field (``create-field``), one body member (``create-member``).

``capenv.interpreter.plans.create_fields`` builds these from a create's exemplar; fixtures
build them from YAML, so every member defaults and a case names only what it is about.
Values are exact JSON (``JsonNumber`` for floats); timestamps in fixtures are quoted strings.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import context_model

_CONFIG = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


@context_model("create-field")
class CreateFieldContext(BaseModel):
    """One field of the entity a create wrote, with the call and the state around it."""

    model_config = _CONFIG

    field: str
    value: Any = None
    """The field's observed value."""
    id_field: str = "id"
    """The type's identity field."""
    entity: dict[str, Any] = Field(default_factory=dict)
    """The whole observed entity (field order kept); empty in a fixture means ``{field: value}``."""
    body: dict[str, Any] = Field(default_factory=dict)
    """The exemplar's request body, its envelope unwrapped."""
    path_args: dict[str, str] = Field(default_factory=dict)
    """The call's path parameters, raw as recorded (percent-escapes kept)."""
    started_at: datetime | None = None
    """When the exemplar began."""
    type_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's other entities held when the call ran."""
    collection_entities: list[dict[str, Any]] = Field(default_factory=list)
    """Those of them in the collection the create wrote into."""
    later_successes: list[tuple[dict[str, Any], list[dict[str, Any]]]] = Field(default_factory=list)
    """The tool's other successful calls: each body beside the type's entities held when it ran."""
    answered_calls: list[tuple[dict[str, Any], dict[str, Any] | None]] = Field(default_factory=list)
    """The tool's other successful calls: each body beside the entity its own answer holds (None
    when the answer holds none)."""
    made_identities: list[Any] = Field(default_factory=list)
    """The identities of the type's other entities made while the capture ran: values the same
    generator drew, beside those held when the call ran."""
    generated: dict[str, Any] = Field(default_factory=dict)
    """Other fields of the entity whose values the application generates (identity, sequence,
    unique, slug), with their values: the sources a template is rebuilt around."""
    address_head: str | None = None
    """Where the identity is the entity's own address (``IdAddress``): the text every identity of
    the create's collection begins with (the origin, when absolute, and the collection's path and a
    slash); None otherwise."""
    address_tail: str = ""
    """The text such an identity ends with after its last segment (a slash, or nothing)."""
    address_origin: str = ""
    """The scheme and authority such an identity begins with (empty when origin-relative)."""

    def address_segment(self, value: Any) -> str | None:
        """The last segment of an identity of the create's collection (None: not such an address)."""
        if self.address_head is None or not isinstance(value, str):
            return None
        if not value.startswith(self.address_head) or not value.endswith(self.address_tail):
            return None
        segment = value[len(self.address_head):len(value) - len(self.address_tail)]
        return segment if segment and "/" not in segment else None

    @property
    def whole_entity(self) -> dict[str, Any]:
        return self.entity or {self.field: self.value}

    def others_holding(self, entities: list[dict[str, Any]]) -> list[Any]:
        """This field's values among ``entities`` that hold it."""
        return [e[self.field] for e in entities if self.field in e]


class ExplainedField(BaseModel):
    """A field of the entity as the field table explained it: its serving op and params."""

    model_config = _CONFIG

    field: str
    op: str
    params: dict[str, Any] = Field(default_factory=dict)
    rule_id: str = ""


class HeldType(BaseModel):
    """A state type as the copy held it when the call ran: where its paths are, what it holds."""

    model_config = _CONFIG

    name: str
    id_field: str = "id"
    paths: list[str] = Field(default_factory=list)
    entities: list[dict[str, Any]] = Field(default_factory=list)


@context_model("create-member")
class CreateMemberContext(BaseModel):
    """One member of a create's request body, with the fields the create explained."""

    model_config = _CONFIG

    member: str
    value: Any = None
    """The value the exemplar sent."""
    id_field: str = "id"
    entity: dict[str, Any] = Field(default_factory=dict)
    """The observed entity."""
    fields: list[ExplainedField] = Field(default_factory=list)
    """How each observed field is served."""
    type_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's other entities held when the call ran."""
    other_calls: list[dict[str, Any]] = Field(default_factory=list)
    """Bodies of the tool's other recorded calls (envelopes unwrapped)."""
    held_types: list[HeldType] = Field(default_factory=list)
    """Every state type, for a member naming another entity by its id."""

    def fields_by(self, op: str) -> list[ExplainedField]:
        return [f for f in self.fields if f.op == op]
