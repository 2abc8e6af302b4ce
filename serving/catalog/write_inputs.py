"""A served write tool's inputs (write-effects "Catalog"): the input schema and turning MCP
arguments or an HTTP request into a call.

Each query parameter the recording sent is optional and defaults at execution to its recorded
value, with a nonempty value as the only enum member (an empty value is described and enforced
at execution, as some clients reject empty literals). A body that wraps its object requires
that member, an array of one object. A member accepted only with its recorded value carries
that value as ``const`` when it is short and neither a boolean nor an empty string, else a
description saying it must equal the recorded value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from jsonpointer import escape

from capenv.interpreter.bundle.jsonvalue import JsonError, dumps, loads
from capenv.interpreter.bundle.body_members import chosen_member
from capenv.interpreter.bundle.json_patch import ops_text
from capenv.interpreter.bundle.models import Budgets, StaticCredential, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.value_shapes import shape_schema, value_shape
from capenv.serving.catalog.withheld import credential_member
from capenv.interpreter.bundle.values import decode_once, spelling_pattern
from capenv.interpreter.manifest.models import Tool
from capenv.serving.read_call import CallRefused, ReadCall, path_for, quoted
from capenv.serving.runtime_api import HttpRequest
from capenv.serving.catalog.header_checks import refused_headers
from capenv.serving.writes.calls import unchecked_header_refusal, unchecked_header_sent
from capenv.serving.writes.chosen_ids import accepted_sentence, chosen_param, schema_pattern
from capenv.serving.writes.stored_text import schema as text_classes_schema

from .argument_schema import SCHEMA_CANNOT_SAY, ArgumentSchema, integer_like, path_param_schema, path_value

_JSON_TYPES = {"integer": "integer", "number": "number", "string": "string", "boolean": "boolean",
               "array": "array", "object": "object", "null": "null"}


def _as_int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def recorded_text(value: Any, most: int) -> str | None:
    """``value``'s JSON text when it is ``most`` characters or shorter (the budget
    ``recorded_value_characters``): then the description quotes it in full."""
    text = dumps(value).decode()
    return text if len(text) <= most else None


def with_keywords(prop: dict[str, Any], keywords: list[dict[str, Any]]) -> dict[str, Any]:
    """``prop`` with more JSON Schema keywords; one it already holds, or that two of them give,
    is kept apart under ``allOf`` rather than overwritten."""
    merged, apart = dict(prop), []
    for more in keywords:
        if set(more) & set(merged):
            apart.append(more)
        else:
            merged.update(more)
    if apart:
        merged["allOf"] = apart
    return merged


@dataclass(frozen=True)
class WriteInputs:
    tool: Tool
    plan: WritePlan
    path_samples: dict[str, tuple[str, ...]]
    budgets: Budgets
    """The bundle's: how many values its descriptions and refusals list (``path_values_quoted``,
    ``names_quoted``, ``values_quoted``)."""
    pinned: tuple[tuple[str, str], ...] = ()
    """(header, value) an HTTP call must send as recorded (``ReplayTable.pinned_headers``)."""
    static_credentials: tuple[tuple[str, StaticCredential], ...] = ()
    """(header, values) of the credentials headers static across the capture
    (``ReplayTable.static_credentials``)."""
    guarded: tuple[tuple[str, str], ...] = ()
    """(header, value) an HTTP call must send as recorded (``ReplayTable.guarded_headers``)."""

    @property
    def takes_body(self) -> bool:
        return self.tool.method != "DELETE" or bool(self.plan.members) or self.is_bulk

    @property
    def is_bulk(self) -> bool:
        """A bulk tool takes its body as recorded, a DELETE included (write-effects "Bulk and action calls")."""
        return self.plan.effect == "bulk" and self.plan.address is not None

    def bulk_array_schema(self) -> dict[str, Any] | None:
        """A bulk body naming its entities at the root: an array of ids of the recorded kind, or of
        objects (None when the body is an object naming them in one member)."""
        address = self.plan.address
        if not self.is_bulk or address.member is not None:
            return None
        return self.bulk_items_schema()

    def bulk_items_schema(self) -> dict[str, Any]:
        """The array a bulk body names its entities in: ids of the recorded kind, or objects."""
        address = self.plan.address
        items = {"type": _JSON_TYPES[address.kind]} if address.by == "ids" and address.kind in _JSON_TYPES \
            else {"type": "object"}
        return {"type": "array", "minItems": 1, "items": items}

    def tied_path_schemas(self) -> dict[str, dict[str, Any]]:
        """A create tied to one collection takes each path parameter only as that collection's
        (``writes/create_collections``: ``same_spelling``, whose pattern ``spelling_pattern`` is;
        an integer id also as that number)."""
        if self.plan.effect != "create" or not self.plan.collection:
            return {}
        tied: dict[str, dict[str, Any]] = {}
        for name, recorded in self.plan.exemplar_args.items():
            if name not in self.tool.params:
                continue
            said = (f"path parameter {{{name}}}: the capture shows this create only with "
                    f'"{decode_once(recorded)}" (recorded call {self.plan.exemplar}, creating in '
                    f"{self.plan.collection}), not what another value would store, answer or where it goes, "
                    f'so only "{decode_once(recorded)}" (in any percent-encoding)')
            text = {"type": "string", "minLength": 1, "pattern": spelling_pattern(recorded), "description": said}
            number = _as_int(decode_once(recorded))
            if integer_like(self.path_samples.get(name, ())) and number is not None \
                    and str(number) == decode_once(recorded):
                tied[name] = {"anyOf": [text, {"const": number}], "description": said + " or that number"}
            else:
                tied[name] = text
        return tied

    @cached_property
    def checked_references(self) -> dict[str, Any]:
        """The members serving refuses a value of when it names no held entity (``writes/references``)."""
        return {r.member: r for r in self.plan.references if r.checked}

    @cached_property
    def validated_values(self) -> dict[str, Any]:
        """The members serving accepts only the recorded successful values of (``writes/validated_values``)."""
        return {v.member: v for v in self.plan.validated_values}

    @cached_property
    def item_parameter(self) -> str:
        """The path parameter naming the written entity (the item segment of the template)."""
        pieces = split_path(self.plan.template)
        depth = self.plan.address.segments_after_item() if self.plan.address is not None else 0
        piece = pieces[len(pieces) - 1 - depth] if len(pieces) > depth else ""
        return piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece

    def member_schema(self) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required = []
        for member in self.plan.members:
            if member.admission == "not-accepted":
                continue
            prop: dict[str, Any] = {}
            if member.kind in _JSON_TYPES:
                prop["type"] = [_JSON_TYPES[member.kind], "null"] if member.nullable else _JSON_TYPES[member.kind]
            address = self.plan.address
            if self.is_bulk and address.member == member.member:  # serving refuses another (writes/bulk.bulk_items)
                prop.update(self.bulk_items_schema())
            if member.admission == "recorded-only":
                prop["const"] = member.recorded_value  # the schema says it, so validation enforces it
                prop["description"] = "accepted only with its recorded value"
            if member.path_id_only:  # serving refuses another value (writes/execute.refuse_other_identity)
                prop["description"] = f"the id the path names ({self.item_parameter}): another value is refused"
            if member.nested_members is not None:  # the schema says it, so validation enforces it
                prop.update({"properties": {name: {} for name in member.nested_members},
                             "required": list(member.nested_members), "additionalProperties": False})
                prop["description"] = (f"an object holding exactly {', '.join(member.nested_members)}: what the "
                                       "application stores for one left out no recording shows")
            reference = self.checked_references.get(member.member)
            if reference is not None:
                said = (("ids, each" if reference.many else "the id") + f' of a "{reference.type}" entity the state '
                        f"holds ({reference.collection_template}); a value naming none is refused")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            validated = self.validated_values.get(member.member)
            shape = shape_schema(validated.accepted, validated.refused_value) or {} \
                if validated is not None and validated.by_shape else \
                _layout_schema(validated, self.budgets.described_values) if validated is not None and validated.layout else {}
            if credential_member(member.member):  # a password's recorded texts are shown to no agent
                shape = {key: value for key, value in shape.items() if key != "examples"}
            kind_type = _JSON_TYPES.get(member.kind or "")
            if kind_type is not None and shape.get("type", kind_type) != kind_type:
                # values shaped on another tool of the type, of another kind than this tool's calls
                # sent: the member's own kind decides (serving refuses the other kind)
                validated = None
            if validated is not None and validated.by_element:  # the schema says it, so validation enforces it
                prop["items"] = {"enum": list(validated.accepted)}
                said = (f"the application validates its elements (recorded call {validated.record} was refused "
                        f"{validated.status}); accepted only with elements a recorded call succeeded with")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            elif validated is not None and validated.layout:  # the schema says it, so validation enforces it
                prop.update(shape)  # the pattern, and the texts recorded calls succeeded with as examples
                said = (f"the application validates its layout (recorded call {validated.record} was refused "
                        f"{validated.status}); accepted only as text matching {validated.layout}, as every value a "
                        "recorded call succeeded with did")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            elif validated is not None and validated.max_length is not None:  # the schema says it, so validation enforces it
                prop["maxLength"] = validated.max_length
                said = (f"the application bounds its length (recorded call {validated.record} was refused "
                        f"{validated.status}); accepted only as text of {validated.max_length} characters or fewer")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            elif validated is not None and validated.by_shape:  # the schema says it, so validation enforces it
                prop.update(shape)
                said = (f"the application validates it (recorded call {validated.record} was refused "
                        f"{validated.status}); accepted only shaped like a value a recorded call succeeded with")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            elif validated is not None and validated.accepted:  # the schema says it, so validation enforces it
                prop["enum"] = list(validated.accepted)
                said = (f"the application validates it (recorded call {validated.record} was refused "
                        f"{validated.status}); accepted only with a value a recorded call succeeded with")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            if member.member == chosen_member(self.plan) and self.plan.chosen_id is not None:
                prop["pattern"] = schema_pattern(self.plan.chosen_id)  # the schema says it, so validation enforces it
                said = accepted_sentence(self.plan.chosen_id)
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            unproven = [u for u in self.plan.unproven_values if u.member == member.member]
            if unproven:  # the schema says it, so validation enforces it
                prop = with_keywords(prop, [u.schema_keywords for u in unproven])
                said = (f"accepted only as {', and as '.join(u.described for u in unproven)}, as every recorded call "
                        f"sent it: what the application does with another value the capture cannot show")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            unproven = [u for u in self.plan.unproven_text if u.member == member.member]
            if unproven:
                said = (f"refused when its text holds {', or '.join(u.described for u in unproven)}: no recorded "
                        f"call sent such text, so how the application stores it is unknown")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
                # the schema says it, so validation enforces it: of the text, or of each text element of an array
                prop["not"] = text_classes_schema(unproven)
                kinds = prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]
                if "array" in kinds and isinstance(prop.get("items", {}), dict):
                    items = prop["items"] = dict(prop.get("items", {}))
                    refused = text_classes_schema(unproven)  # its own object: no schema shares a node
                    if "not" in items:  # the element's own refusal stays; this one joins it
                        items["allOf"] = [*items.get("allOf", ()), {"not": refused}]
                    else:
                        items["not"] = refused
            joined = next((d.names for d in self.plan.distinct_members if d.member == member.member), None)
            if joined is not None:
                said = (f"refused when it names a {joined} entity another held {self.plan.type} entity names: every "
                        f"{joined} entity the capture shows is named by one only, so whether the application takes a "
                        "second it cannot show")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            elif any(d.member == member.member for d in self.plan.distinct_members):
                said = (f"refused when another held {self.plan.type} entity has the same value: every value of it the "
                        f"capture shows is distinct, so whether the application takes a repeat it cannot show")
                prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            for merge in self.plan.object_merges:
                if merge.member == member.member and merge.check == "values":
                    # the schema says it, so validation enforces it (writes/object_merges refuses the rest):
                    # under allOf, every key of the object is an additional one
                    refused = {"not": {"enum": list(merge.values)}, "description": merge.described}
                    prop["allOf"] = [*prop.get("allOf", ()), {"additionalProperties": refused}]
                    said = f"accepted only as {merge.described}"
                    prop["description"] = f'{prop["description"]}; {said}' if "description" in prop else said
            if member.required:
                required.append(member.member)
            properties[member.member] = prop
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            schema["required"] = required
        if self.plan.min_members and not required:
            schema["minProperties"] = self.plan.min_members
        return schema

    def patch_schema(self) -> dict[str, Any]:
        """A JSON Patch body: an array of the plan's operations, each on one accepted member with the
        value that member takes (``bundle/json_patch``)."""
        members = self.member_schema()
        operations = [{"type": "object", "properties": {"op": {"enum": list(self.plan.body_patch_ops)},
                                                        "path": {"const": "/" + escape(name)}, "value": value},
                       "required": ["op", "path", "value"], "additionalProperties": False}
                      for name, value in members["properties"].items()]
        schema: dict[str, Any] = {"type": "array", "minItems": max(1, self.plan.min_members),
                                  "items": {"anyOf": operations} if operations else False,
                                  "description": f"a JSON Patch (RFC 6902) of {ops_text(self.plan.body_patch_ops)} "
                                                 "operations on top-level members"}
        required = members.get("required", ())
        if required:  # each required member set by some operation
            schema["allOf"] = [{"contains": {"properties": {"path": {"const": "/" + escape(name)}}}}
                               for name in required]
        return schema

    def served_variants(self) -> list["WriteInputs"]:
        """For a plan dispatching on a collection segment: each served value's own inputs."""
        return [WriteInputs(self.tool, v, self.path_samples, self.budgets) for v in self.plan.variants if v.served]

    def dispatch_schema(self) -> dict[str, Any]:
        """One choice per served value: the value as a constant, the members that value's plan accepts."""
        choices = []
        for inputs in self.served_variants():
            one = inputs.schema()
            for name, value in inputs.plan.dispatch_args.items():
                one["properties"][name] = {"const": value, "description": (
                    f"path parameter {{{name}}} {value!r}: its own kind of entity, written as "
                    f"{inputs.tool.method} {inputs.tool.spelled_template} was recorded with it")}
            choices.append(one)
        values = "; ".join(", ".join(f"{n} {v!r}" for n, v in i.plan.dispatch_args.items())
                           for i in self.served_variants())
        said = (f"each value of {', '.join(self.plan.dispatch_params)} names its own kind of entity, with the "
                f"members its recorded calls show; served: {values}; another value is refused")
        # the choices together, for a client reading only the top level (and OpenAPI's parameters and body)
        properties: dict[str, Any] = {}
        for name in choices[0]["properties"] if choices else ():
            found = [c["properties"][name] for c in choices if name in c["properties"]]
            if name == "body":
                properties[name] = {"oneOf": found, "description": said}
            elif all("const" in f for f in found):
                properties[name] = {"type": "string", "enum": [f["const"] for f in found], "description": said}
            else:
                properties[name] = found[0]
        required = [n for n in (choices[0].get("required", ()) if choices else ())
                    if all(n in c.get("required", ()) for c in choices)]
        return {"type": "object", "properties": properties, **({"required": required} if required else {}),
                "oneOf": choices, "description": said}

    def schema(self) -> dict[str, Any]:
        if self.plan.dispatch_params:
            return self.dispatch_schema()
        properties: dict[str, Any] = {}
        tied = self.tied_path_schemas()
        for param in self.tool.params:
            samples = self.path_samples.get(param, ())
            properties[param] = tied.get(param) or path_param_schema(
                samples, f"path parameter {{{param}}}; recorded: {quoted(samples, self.budgets.path_values_quoted)}")
            if param == chosen_param(self.plan) and self.plan.chosen_id is not None and param not in tied:
                properties[param] = {"type": "string", "pattern": schema_pattern(self.plan.chosen_id),
                                     "description": f"path parameter {{{param}}}, "
                                                    f"{accepted_sentence(self.plan.chosen_id)}"}
        if self.plan.query:
            query_props = {}
            for name, value in self.plan.query:
                prop: dict[str, Any] = {"type": "string"}
                mask = self.plan.update_mask
                if mask is not None and mask.param == name:
                    prop["description"] = (f"the body members the update applies, separated by {mask.separator!r} "
                                           f"(recorded: {value!r}); the others change nothing")
                    prop["default"] = value
                elif value:
                    prop["enum"] = [value]
                    prop["default"] = value
                else:
                    prop["maxLength"] = 0  # not an empty literal, which some clients reject
                    prop["description"] = "must be empty, as recorded (the default)"
                query_props[name] = prop
            properties["query"] = {"type": "object", "properties": query_props, "additionalProperties": False,
                                   "description": "the query the recording sent; each parameter defaults to it"}
        required = list(self.tool.params)
        if self.takes_body and (self.tool.method != "DELETE" or self.is_bulk):
            body = self.bulk_array_schema() or (self.patch_schema() if self.plan.body_patch_ops
                                                else self.member_schema())
            if self.plan.body_envelope:
                wrapped = body if self.plan.body_envelope_kind == "object" else {
                    "type": "array", "minItems": 1, "maxItems": 1, "items": body}
                body = {"type": "object", "properties": {self.plan.body_envelope: wrapped},
                        "required": [self.plan.body_envelope], "additionalProperties": False}
            properties["body"] = body
            if self.plan.members and any(m.required for m in self.plan.members) or self.plan.min_members \
                    or self.plan.body_envelope or self.is_bulk:
                required.append("body")
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            schema["required"] = required
        return schema

    def accepted(self) -> str:
        if self.plan.dispatch_params:
            return "; or ".join(", ".join(f"{n} {v!r}" for n, v in i.plan.dispatch_args.items()) + ": " + i.accepted()
                                for i in self.served_variants()) or "no arguments"
        members = [m.member for m in self.plan.members if m.admission != "not-accepted"]
        parts = [f'"{p}" (a string)' for p in self.tool.params]
        if self.plan.query:
            parts.append(f'"query" ({dict(self.plan.query)})')
        array = self.bulk_array_schema()
        if array is not None:
            parts.append(f'"body" (an array of {array["items"]["type"]}s naming the entities)')
        elif self.takes_body and (self.tool.method != "DELETE" or self.is_bulk):
            wrap = f" wrapped as {envelope_text(self.plan)}" if self.plan.body_envelope else ""
            if self.plan.body_patch_ops:
                parts.append(f'"body" (a JSON Patch array of {ops_text(self.plan.body_patch_ops)} operations on '
                             f'{quoted(["/" + escape(m) for m in members], self.budgets.names_quoted)})')
            else:
                parts.append(f'"body" (an object of {quoted(members, self.budgets.names_quoted)}{wrap})')
        return ", ".join(parts) or "no arguments"

    @cached_property
    def checked(self) -> ArgumentSchema:
        """The published schema, compiled: what validation enforces."""
        return ArgumentSchema(self.schema(), self.tool.name)

    @cached_property
    def known_arguments(self) -> frozenset[str]:
        """The argument names the tool takes: its path parameters, the query and the body."""
        return frozenset(self.tool.params) | {"query", "body"}

    def parse(self, arguments: Any) -> ReadCall:
        if not isinstance(arguments, dict):
            raise CallRefused(f"arguments must be an object; {self.tool.name} accepts {self.accepted()}")
        if arguments.get("query", 0) is None:
            arguments = {k: v for k, v in arguments.items() if k != "query"}
        self.checked.check(arguments, self.accepted)
        known = self.known_arguments
        unknown = None
        for name in arguments:  # loops, not comprehensions (each a function made per call): every call parses
            if name not in known:
                unknown = [k for k in arguments if k not in known]
                break
        if unknown:
            raise CallRefused(f"{self.tool.name} does not take {quoted(unknown, self.budgets.values_quoted)}; "
                              f"it accepts {self.accepted()}")
        args = {}
        for param in self.tool.params:
            value = path_value(arguments[param]) if arguments.get(param) is not None else None
            if not isinstance(value, str) or not value:
                raise CallRefused(f'path parameter "{param}" must be a non-empty string; '
                                  f"{self.tool.name} accepts {self.accepted()}")
            args[param] = value
        query = arguments.get("query") or {}
        strings = isinstance(query, dict)
        if strings:
            for value in query.values():
                if not isinstance(value, str):
                    strings = False
                    break
        if not strings:
            raise CallRefused(f'"query" must be an object of strings: {dict(self.plan.query) or "none recorded"}')
        recorded = self.plan.query
        pairs = tuple(query.items())
        if recorded:
            pairs += tuple((n, v) for n, v in recorded if n not in query)
        has_body = "body" in arguments
        return ReadCall(self.tool, path_for(self.tool, args), args, pairs, arguments.get("body"), has_body)

    @cached_property
    def _credential_names(self) -> tuple[str, ...]:
        """The credentials headers of the plan and its variants: worked out once, not per call."""
        return self.plan.credential_headers + tuple(h for v in self.plan.variants for h in v.credential_headers)

    @cached_property
    def _static_by_header(self) -> dict[str, StaticCredential]:
        return dict(self.static_credentials)

    def from_http(self, request: HttpRequest, args: dict[str, str]) -> ReadCall:
        refused = refused_headers(self._credential_names, self.pinned, request.header, self._static_by_header,
                                  request.header_values, args, self.guarded)
        if refused is not None:
            raise CallRefused(f"{refused[0]}; {self.tool.name} accepts {self.accepted()}", http_status=refused[1])
        sent = unchecked_header_sent(self.plan, request.header)
        if sent is not None:
            raise CallRefused(f"{unchecked_header_refusal(sent)}; {self.tool.name} accepts {self.accepted()}",
                              http_status=428)
        given = {name for name, _ in request.query}
        pairs = tuple(request.query) + tuple((n, v) for n, v in self.plan.query if n not in given)
        body, has_body = None, bool(request.body)
        if has_body:
            try:
                body = loads(request.body, allow_proto=False)
            except JsonError as exc:
                raise CallRefused(f"the request body is not JSON this tool accepts: {exc}") from None
        checked = self.plan.tag_check.header if self.plan.tag_check else None
        tag = request.header(checked) if checked else None
        return ReadCall(self.tool, request.path, args, pairs, body, has_body,
                        headers=((checked, tag),) if checked and tag is not None else ())


def describe_write(plan: WritePlan, inputs: WriteInputs, not_modelled: list[str], budgets: Budgets) -> list[Any]:
    """The description's parts: effect and type, members, envelope, query, what is not modelled;
    a recorded value is quoted when its JSON text is ``budgets.recorded_value_characters`` or
    shorter, a member's name when it is ``budgets.quoted_value_characters`` or shorter."""
    from .descriptions import Sample, quote_all

    quoted_characters, longest = budgets.recorded_value_characters, budgets.quoted_value_characters

    effect = {"create": f'Creates a "{plan.type}" entity', "update": f'Updates a "{plan.type}" entity',
              "action": f'Applies "{plan.address.segment if plan.address else ""}" to a "{plan.type}" entity',
              "delete": f'Deletes a "{plan.type}" entity', "document": f"Writes the document at {plan.document_path}",
              "bulk": f'Writes several "{plan.type}" entities'}.get(plan.effect, "Writes")
    parts: list[Any] = [f"{effect} in the served state ({plan.method} {inputs.tool.spelled_template}); later reads and data/get "
                        "show the change."]
    if plan.tag_check is not None:
        name = "-".join(part.capitalize() for part in plan.tag_check.header.split("-"))
        parts.append(f"Over HTTP, send the {name} header naming the entity's ETag as a read of it answers (its "
                     f'"{plan.tag_check.member}" as {plan.tag_check.form.replace("{}", "…")}): a stale tag is refused '
                     "(412), as the application refuses it, and a call without the header too.")
    if plan.address is not None and plan.address.by == "path" and plan.address.member:
        parts.append(f'The path names the entity by its "{plan.address.member}": the one entity holding that value '
                     "(none answers as the application answers a missing one; several are refused).")
    if plan.dispatch_params:  # each value its own kind of entity, with its own members
        for variant in (v for v in plan.variants if v.served):
            values = ", ".join(f"{n} {v!r}" for n, v in variant.dispatch_args.items())
            members = [m.member for m in variant.members if m.admission != "not-accepted"]
            wrap = f" (wrapped as {envelope_text(variant)})" if variant.body_envelope else ""
            parts.append(Sample(f"With {values}: body members ", quote_all(members, longest) or ("none",), f"{wrap}.",
                                noun="members"))
        parts.append(f"Each value of {', '.join(plan.dispatch_params)} names its own kind of entity: a value not "
                     "listed here is refused, as no recorded call shows what the application does there.")
        parts.append(SCHEMA_CANNOT_SAY)
        return parts
    accepted = [m for m in plan.members if m.admission == "accepted"]
    required = [m.member for m in accepted if m.required]
    if required:
        parts.append(Sample("Required body members: ", quote_all(required, longest), ".", noun="members"))
    optional = [m.member for m in accepted if not m.required]
    if optional:
        parts.append(Sample("Accepted body members: ", quote_all(optional, longest), ".", noun="members"))
    if plan.min_members:
        parts.append(f"Send at least {plan.min_members} member.")
    found_before = {f.params.get("member"): f.field for f in plan.fields
                    if f.op == "constant" and f.params.get("requires_from")}
    for member in plan.members:
        if member.admission == "recorded-only":
            text = recorded_text(member.recorded_value, quoted_characters)
            parts.append(f'"{member.member}" is accepted only with its recorded value'
                         + (f" {text}" if text else "")
                         + (f', and only on an entity whose "{found_before[member.member]}" holds what the recorded '
                            "call found (the application stored another value than the one sent)."
                            if member.member in found_before else "."))
    for reference in plan.references:
        if reference.checked:
            parts.append(f'"{reference.member}" must ' + ("hold ids, each" if reference.many else "be the id")
                         + f' of a held "{reference.type}" entity ({reference.collection_template}); a value naming '
                         "none is refused.")
    if plan.referrers:
        named = ", ".join(sorted({f'"{r.type}" ({r.spelled})' for r in plan.referrers}))
        parts.append(f"A delete of an entity a held {named} entity names is refused: the application may delete "
                     "those with it, clear their reference or refuse.")
    for copied in plan.reference_copies:
        parts.append(f'"{copied.field}" is a copy of the "{copied.source}" of the held "{copied.source_type}" entity '
                     f'"{copied.member}" names, as the state holds it at call time.')
    # one sentence per source and naming member, its holders sampled: a type many others copy
    # (their counters equal to it by coincidence) would else fill the description one copy a sentence
    copies: dict[tuple[str, str], dict[str, list[str]]] = {}
    for copied in plan.copied_by:
        fields = copies.setdefault((copied.source, copied.member), {}).setdefault(copied.holder, [])
        if copied.field not in fields:
            fields.append(copied.field)
    for (source, member), holders in copies.items():
        held = tuple(f'"{holder}" (as {", ".join(quote_all(fields, longest))})' for holder, fields in holders.items())
        parts.append(Sample(f'A change of "{source}" while a held entity names this one by "{member}" is refused, '
                            "as the application rewrites the copy it holds: ", held, ".", noun="types"))
    if plan.copy_holders:
        holders = ", ".join(f'"{holder}"' for holder in plan.copy_holders)
        parts.append(f"A call is refused while a held {holders} entity copies this entity under its id (an update: "
                     "showing a member it changes; a delete: any such copy), as the application changes that copy "
                     "too; other calls are served.")
    for validated in plan.validated_values:
        if validated.by_element:
            accepted = ", ".join(t for v in validated.accepted if (t := recorded_text(v, quoted_characters))) or "none"
            parts.append(f'"{validated.member}" is validated by the application element by element (recorded call '
                         f"{validated.record} was refused {validated.status}): accepted only with elements a recorded "
                         f"call succeeded with: {accepted}.")
            continue
        if validated.layout:
            parts.append(f'"{validated.member}" is validated by the application (recorded call {validated.record} '
                         f"was refused {validated.status}): accepted only as text matching {validated.layout}, the "
                         "layout every value a recorded call succeeded with kept to.")
            continue
        if validated.max_length is not None:
            parts.append(f'"{validated.member}" is validated by the application (recorded call {validated.record} '
                         f"was refused {validated.status} for a longer text): accepted only as text of "
                         f"{validated.max_length} characters or fewer, the longest a recorded call succeeded with.")
            continue
        if validated.by_shape:
            shapes = ", ".join(sorted({s for v in validated.accepted if (s := value_shape(v))})) or "none"
            parts.append(f'"{validated.member}" is validated by the application (recorded call {validated.record} '
                         f"was refused {validated.status}): accepted only shaped like a value a recorded call "
                         f"succeeded with ({shapes}).")
            continue
        accepted = ", ".join(t for v in validated.accepted if (t := recorded_text(v, quoted_characters))) or "none"
        parts.append(f'"{validated.member}" is validated by the application (recorded call {validated.record} was '
                     f"refused {validated.status}): accepted only with a value a recorded call succeeded with: "
                     f"{accepted}.")
    if plan.chosen_id is not None:
        sent_in = chosen_member(plan)
        where = f'"{sent_in}"' if sent_in else "The path's id"
        parts.append(f"{where} names {accepted_sentence(plan.chosen_id)}; another is refused.")
    if plan.body_envelope:
        parts.append(f"The body wraps its object as {envelope_text(plan)}.")
    if plan.key is not None:
        key = ", ".join(f'"{m}"' for m in plan.key.members)
        parts.append(f'A call whose {key} names a held "{plan.type}" entity ' + (
            f"gets that entity unchanged ({plan.key.response.status})" if plan.key.branch == "get" else
            f"is refused as a conflict ({plan.key.response.status})") + " and creates nothing.")
    if plan.update_mask is not None:
        parts.append(f'The query parameter "{plan.update_mask.param}" names the body members the update applies; '
                     "the others change nothing.")
    if plan.query:
        parts.append("The recorded query " + ", ".join(f'{n}="{v}"' for n, v in plan.query) + " is always sent.")
    parts.extend(not_modelled)
    parts.append(SCHEMA_CANNOT_SAY)
    return parts


def envelope_text(plan: WritePlan) -> str:
    if plan.body_envelope_kind == "object":
        return f'{{"{plan.body_envelope}": {{…}}}}'
    return f'{{"{plan.body_envelope}": [ {{…}} ]}}'


def _layout_schema(validated: Any, described: int) -> dict[str, Any]:
    """A text of the validated layout, with the texts recorded calls succeeded with as examples
    (an agent and a generator of valid calls take one as it is), ``described`` at most (the
    budget ``described_values``)."""
    examples = [v for v in validated.accepted if isinstance(v, str)][:described]
    return {"type": "string", "pattern": validated.layout, **({"examples": examples} if examples else {})}
