"""User corrections to the inferred manifest (``--overrides FILE``)::

    templates:                 # force these templates; a {name} segment is a parameter
      - /posts/{post_id}/comments
    tools:
      get_posts: {rename: list_posts}
      delete_profile: {drop: true}
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from capenv.interpreter.rules_engine.yaml_source import RuleFileError, load_yaml


class ToolOverride(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rename: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    drop: bool = False

    @model_validator(mode="after")
    def _one_thing(self) -> "ToolOverride":
        if self.rename and self.drop:
            raise ValueError("a tool is either renamed or dropped, not both")
        return self


class Overrides(BaseModel):
    model_config = ConfigDict(extra="forbid")

    templates: list[str] = Field(default_factory=list)
    tools: dict[str, ToolOverride] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _templates_are_paths(self) -> "Overrides":
        for template in self.templates:
            if not template.startswith("/"):
                raise ValueError(f"template {template!r} must start with /")
        return self


def load_overrides(path: str | Path) -> Overrides:
    """Read and validate an overrides file; errors name the file, line and key."""
    display = str(path)
    data = load_yaml(Path(path), display)
    try:
        return Overrides.model_validate(data or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        line = getattr(data, "line_of", lambda k: None)(str(first["loc"][0])) if first["loc"] else None
        raise RuleFileError(display, line, f"{first['msg']} (accepted keys: templates, tools.<name>.rename|drop)",
                            key=key or None) from None
