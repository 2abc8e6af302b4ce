"""An OpenAPI 3.1 description of a bundle's served HTTP surface (``capenv openapi``,
``GET /_capenv/openapi.json``).

It is written from what serving does, never from a second guess: one operation per catalog
entry (the read tools and the served write tools; a write the environment does not serve is
listed under ``x-capenv-not-served`` with its reason, since its path answers 405), each with
the parameters and request body of the tool's published input schema (the same JSON Schema
the MCP tool validates with, Draft 2020-12 being OpenAPI 3.1's dialect), and the responses
the capture recorded for that tool (``openapi_responses``). The document is deterministic:
the same bundle gives the same bytes.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from jsonschema import Draft202012Validator

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import Recording

from .openapi_responses import operation_responses
from .tool_meta import JSON_SCHEMA_DIALECT
from .tools import Catalog, CatalogEntry
from .withheld import withheld

OPENAPI_VERSION = "3.1.0"
OPERATION_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


def openapi_document(bundle: Bundle, catalog: Catalog) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``catalog`` (built from ``bundle``)."""
    paths: dict[str, dict[str, Any]] = {}
    left_out = []
    for entry in catalog.entries.values():
        method = entry.tool.method.lower()
        if method not in OPERATION_METHODS:
            left_out.append({"tool": entry.name, "method": entry.tool.method, "path": entry.tool.spelled_template,
                             "reason": "OpenAPI has no operation for this method"})
            continue
        paths.setdefault(entry.tool.spelled_template, {})[method] = _operation(entry, bundle)
    info = bundle.info
    document: dict[str, Any] = {
        "openapi": OPENAPI_VERSION,
        "jsonSchemaDialect": JSON_SCHEMA_DIALECT,
        "info": {
            "title": f"capenv environment of {info.source}",
            "version": info.evidence_id,
            "description": (
                "The application's own HTTP paths as this capenv environment serves them: reads answered "
                "from the served state or by replaying the capture, served writes changing that state. "
                f"Built from evidence {info.evidence_id} with rules {info.rules_revision}."),
        },
        "servers": [{"url": "/", "description": "the environment's HTTP listener (capenv serve --http)"}],
        "paths": dict(sorted(paths.items())),
    }
    not_served = _not_served(bundle, catalog) + left_out
    if not_served:
        document["x-capenv-not-served"] = not_served
    return document


def _operation(entry: CatalogEntry, bundle: Bundle) -> dict[str, Any]:
    schema = entry.inputs.schema()
    properties = schema.get("properties", {})
    operation: dict[str, Any] = {
        "operationId": entry.name,
        "summary": entry.spec().title or entry.name,
        "description": entry.description,
        "tags": [_tag(entry)],
    }
    parameters = _path_parameters(entry, properties) + _query_parameters(properties.get("query"))
    if parameters:
        operation["parameters"] = parameters
    body = properties.get("body")
    if body is not None:
        operation["requestBody"] = _request_body(entry, bundle, body, "body" in schema.get("required", ()))
    responses = operation_responses(entry, bundle.replay.tools.get(entry.name, ()), _absences(entry, bundle))
    if entry.tool.method == "HEAD":  # a HEAD answer carries no body, whatever its GET would (RFC 9110 9.3.2)
        responses = {code: {k: v for k, v in answer.items() if k != "content"} for code, answer in responses.items()}
    operation["responses"] = responses
    return operation


def _absences(entry: CatalogEntry, bundle: Bundle) -> tuple[Recording, ...]:
    """What serving answers a call naming an entity the state does not hold, where that answer may
    come from outside the tool's own recordings (``writes/execute``): a read view's learned absence,
    a write's learned one (``write-absence-answers``), its sibling's recorded 400/404/410
    (``WritePlan.absence_tool``), else its type's item view's."""
    found: list[Recording] = []
    if entry.view is not None:
        found += [r for r in (entry.view.absence.recording if entry.view.absence else None, entry.view.missing)
                  if r is not None]
    if entry.plan is not None:
        learned = bundle.view.write_absences.get(entry.name)
        if learned is not None:
            found.append(learned)
        if entry.plan.absence_tool:
            found += [c.response for c in bundle.replay.tools.get(entry.plan.absence_tool, ())
                      if c.response.status in bundle.view.budgets.absence_statuses]
        found += [v.missing for v in bundle.view.views
                  if v.kind == "item" and v.type and v.type == entry.plan.type and v.missing is not None]
    return tuple(found)


def _tag(entry: CatalogEntry) -> str:
    if entry.plan is not None and entry.plan.type:
        return entry.plan.type
    if entry.view is not None and entry.view.type:
        return entry.view.type
    return "other"


def _path_parameters(entry: CatalogEntry, properties: dict[str, Any]) -> list[dict[str, Any]]:
    names = dict(getattr(entry.inputs, "properties", ()))
    found = []
    for param in entry.tool.params:
        schema = dict(properties.get(names.get(param, param), {"type": "string"}))
        if "anyOf" in schema:  # over HTTP a path segment is text (MCP also takes an integer id)
            schema = {**next(b for b in schema["anyOf"] if b.get("type") == "string"),
                      **({"description": schema["description"]} if "description" in schema else {})}
        if isinstance(schema.get("type"), list):
            schema["type"] = "string"
        description = schema.pop("description", None)
        parameter = {"name": param, "in": "path", "required": True, "schema": schema}
        if description:
            parameter["description"] = description
        found.append(parameter)
    return found


def _query_parameters(query: dict[str, Any] | None) -> list[dict[str, Any]]:
    """One optional query parameter per name; a name recorded percent-encoded is given decoded."""
    if not query:
        return []
    named = query.get("properties", {})
    found = []
    for name in sorted(named):
        if unquote_plus(name) != name and unquote_plus(name) in named:
            continue  # the same parameter as its decoded spelling
        schema = dict(named[name])
        description = schema.pop("description", None)
        parameter = {"name": name, "in": "query", "required": False, "schema": schema}
        if _admits_empty_text(schema):
            parameter["allowEmptyValue"] = True  # a recorded call sent it empty (`?q=`): its schema takes ""
        if description:
            parameter["description"] = description
        found.append(parameter)
    return found


def _admits_empty_text(schema: dict[str, Any]) -> bool:
    """The schema takes the empty string (a query value sent as ``name=``)."""
    return Draft202012Validator(schema).is_valid("")


def _request_body(entry: CatalogEntry, bundle: Bundle, schema: dict[str, Any], required: bool) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": schema}
    recorded = next((c for c in bundle.replay.tools.get(entry.name, ()) if c.request_is_json), None)
    if recorded is not None and recorded.request_body is not None:
        media["example"] = withheld(recorded.request_body)  # never a credential a recorded call sent
    return {"required": required, "content": {"application/json": media}}


def _not_served(bundle: Bundle, catalog: Catalog) -> list[dict[str, Any]]:
    tools = {t.name: t for t in bundle.manifest.tools}
    found = []
    for plan in bundle.view.writes:
        if plan.tool in catalog.entries or plan.tool not in tools:
            continue
        tool = tools[plan.tool]
        reason = plan.reason or plan.build_reason or "not served here (--replay-only, or the state is unavailable)"
        found.append({"tool": tool.name, "method": tool.method, "path": tool.spelled_template, "reason": reason})
    return found
