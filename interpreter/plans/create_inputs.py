"""What a create's explanation reads (seeds, write-effects.txt, "Field rules for creates"): the
exemplar's entity, body and path, and what the state held when it ran. ``create_fields`` and
``create_members`` both read it, so it lives below them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.models import IdAddress


class CreateInputs(BaseModel):
    """What a create's explanation reads, all taken from the capture around its exemplar."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    type_name: str
    id_field: str
    address: IdAddress | None = None
    """The type's identity is the entity's own address (``EntityType.address``)."""
    collection: str = ""
    """The collection the create wrote into, spelled as its held path."""
    observed: dict[str, Any]
    """The written entity as observed, field order kept."""
    body: dict[str, Any]
    """The exemplar's request body, its envelope already unwrapped."""
    path_args: dict[str, str] = Field(default_factory=dict)
    """The exemplar's path parameters, raw as recorded (decoded here where the seed says so)."""
    started_at: datetime
    """When the exemplar began."""
    type_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's other entities held when the call ran."""
    collection_entities: list[dict[str, Any]] = Field(default_factory=list)
    """Those of them in the collection the create wrote into."""
    other_calls: list[dict[str, Any]] = Field(default_factory=list)
    """Bodies of the tool's other recorded calls (envelopes unwrapped)."""
    other_succeeded: list[dict[str, Any]] = Field(default_factory=list)
    """Those of them whose call succeeded (what the application accepted)."""
    later_successes: list[tuple[dict[str, Any], list[dict[str, Any]]]] = Field(default_factory=list)
    answered_calls: list[tuple[dict[str, Any], dict[str, Any] | None]] = Field(default_factory=list)
    """Each other successful call's body beside the entity its own answer holds (None when the
    answer holds none): what every recorded call shows the application stored of what it sent."""
    """Each other successful call's body (envelope unwrapped) beside the type's entities held when
    it ran: a call sending what another entity held shows what the application makes of a clash."""
    made_identities: list[Any] = Field(default_factory=list)
    """The identities of the type's other entities made while the capture ran (the initial state
    held none of them): what the application's generator drew besides the exemplar's."""
    type_paths: dict[str, list[str]] = Field(default_factory=dict)
    """Each state type's path templates: a member named after a type names that type's entities."""
    type_id_fields: dict[str, str] = Field(default_factory=dict)
    """Each state type's identity field (for a member naming another entity by its id)."""
    held_entities: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    """Each state type's entities the copy held when the call ran (the named-constant derivation)."""
