"""Predicates on the request headers and body members a write tool's successful calls sent
(context ``write-precondition``): a conditional header (``If-Match`` naming the ETag a read
answered), or a body member carrying that version (Roundup's ``@etag``), makes the application
check the entity's version before it writes, which a plan does not model.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class TagSighting(BaseModel):
    """One call of the tool that sent a tag header, beside the last read of its own path."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    record: int
    status: int
    sent: str
    """The header's value as the call sent it."""
    read_tag: str | None = None
    """The ``ETag`` the last successful read of the call's path answered before the call began."""
    held: dict[str, str] = Field(default_factory=dict)
    """That read's scalar members (strings and numbers, as text; the shallowest of a name), which
    the tag may be derived from."""


@context_model("write-precondition")
class WritePreconditionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: int = 0
    """How many successful calls the tool recorded."""
    sent: dict[str, list[int]] = Field(default_factory=dict)
    """Request header names (lower case) the tool's successful calls sent, with those calls' records."""
    members: dict[str, list[int]] = Field(default_factory=dict)
    """Top-level members of the JSON object bodies the tool's successful calls sent, as sent, with
    those calls' records."""
    held_query: tuple[tuple[str, str, str, int], ...] = ()
    """(parameter, member, value, record): a query parameter a successful call sent with the value a
    string member of the entity at its path held when it began (the last read of the path;
    ``plans/preconditions.held_query_values``)."""
    tags: dict[str, tuple[TagSighting, ...]] = Field(default_factory=dict)
    """Per request header (lower case), every recorded call of the tool, successful or not, that
    sent it, beside what its path held (``plans/preconditions.tag_sightings``)."""


class HeaderNamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, matched case-insensitively."""


@predicate("every_call_sent_precondition_header", context="write-precondition", params=HeaderNamesParams)
def every_call_sent_precondition_header(ctx: WritePreconditionContext, params: HeaderNamesParams) -> Outcome:
    """Every successful call of the tool sent one of the conditional headers (the application may
    require it: no recorded call shows it writing without one)."""
    for name in (n.lower() for n in params.names):
        sent = ctx.sent.get(name, [])
        if sent and len(set(sent)) >= ctx.calls:
            return Match({"header": name, "records": sorted(set(sent))[:3]})
        if sent:
            return Miss(f"{len(set(sent))} of {ctx.calls} successful calls sent {name}: the others wrote without it")
    return Miss(f"no call sent {', '.join(params.names)}")


class HeaderOrMemberParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, matched case-insensitively."""
    members: list[str] = Field(min_length=1)
    """Body member words, matched case-insensitively once the leading characters in ``sigils`` are
    dropped (``@etag`` and ``_etag`` are ``etag``)."""
    sigils: str = ""


@predicate("every_call_sent_precondition", context="write-precondition", params=HeaderOrMemberParams)
def every_call_sent_precondition(ctx: WritePreconditionContext, params: HeaderOrMemberParams) -> Outcome:
    """Every successful call of the tool sent one of the conditional headers or a body member
    named as an entity's version, and at least one sent such a member (some calls may carry the
    version in the body, others in the header: the application checks either)."""
    headers = {n.lower() for n in params.names}
    words = {w.lower() for w in params.members}
    by_header = {o for name, records in ctx.sent.items() if name in headers for o in records}
    named = sorted(m for m in ctx.members if m.lstrip(params.sigils).lower() in words)
    by_member = {o for m in named for o in ctx.members[m]}
    if not by_member:
        return Miss(f"no call sent a body member named {', '.join(params.members)}")
    carried = by_header | by_member
    if len(carried) < ctx.calls:
        return Miss(f"{len(carried)} of {ctx.calls} successful calls sent a precondition: the others wrote without one")
    return Match({"members": named, "records": sorted(by_member)[:3]})


class HeldValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """The shortest held value taken for the entity's state rather than a coincidence."""


@predicate("a_call_sent_a_held_value_in_the_query", context="write-precondition", params=HeldValueParams)
def a_call_sent_a_held_value_in_the_query(ctx: WritePreconditionContext, params: HeldValueParams) -> Outcome:
    """A successful call sent, in its query, a value of ``min_length`` characters or more that the
    entity at its path held when it began (``?rev=`` naming the revision the last read showed).
    Serving takes a query parameter only with its recorded value, which another entity, or the same
    one after a write, does not hold: the application refuses such a call (a stale revision, 409)."""
    held = [(name, member, record) for name, member, value, record in ctx.held_query
            if len(value) >= params.min_length]
    if held:
        name, member, _ = held[0]
        return Match({"parameter": name, "member": member, "records": sorted({r for _, _, r in held})[:3]})
    if ctx.held_query:
        return Miss(f"the held values sent in the query are shorter than {params.min_length} characters")
    return Miss("no call sent in its query a value the entity at its path held")


class TagCheckParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    header: str
    """The tag header, matched case-insensitively (``If-Match``)."""
    forms: list[str] = Field(min_length=1)
    """How a tag spells a member's value, ``{}`` standing for it (``"{}"``, a weak ``W/"{}"``)."""
    stale_status: int
    """The status a call naming a stale tag was answered with."""


def _derives(form: str, member: str, sighting: TagSighting) -> bool:
    return member in sighting.held and sighting.sent == form.replace("{}", sighting.held[member])


@predicate("tag_header_derived_and_checked", context="write-precondition", params=TagCheckParams)
def tag_header_derived_and_checked(ctx: WritePreconditionContext, params: TagCheckParams) -> Outcome:
    """Every successful call sent the tag header naming one member of the entity as the last read of
    its path held it, spelled in one of ``forms``, at least one read answered that tag as its
    ``ETag``, and a call naming another tag than the entity's was answered ``stale_status``: the
    capture shows both how the tag is derived and that the application checks it, so serving can
    check it on the entity the state holds."""
    tags = ctx.tags.get(params.header.lower(), ())
    succeeded = [s for s in tags if 200 <= s.status < 300]
    if not succeeded or len({s.record for s in succeeded}) < ctx.calls:
        return Miss(f"{len(succeeded)} of {ctx.calls} successful calls sent the tag header: the others wrote without it")
    stale = [s for s in tags if s.status == params.stale_status]
    if not stale:
        return Miss(f"no call naming a stale tag was recorded answered {params.stale_status}: the check is not shown")
    found = sorted({(form, member) for form in params.forms for member in succeeded[0].held
                    if all(_derives(form, member, s) for s in succeeded)
                    and any(s.read_tag == s.sent for s in succeeded)
                    and any(member in s.held and not _derives(form, member, s) for s in stale)})
    if len(found) != 1:
        return Miss(f"{len(found)} members of the entity spell every sent tag, and a stale one answered "
                    f"{params.stale_status}, not one" + (f" ({', '.join(m for _, m in found[:3])})" if found else ""))
    (form, member), = found
    return Match({"header": params.header.lower(), "member": member, "form": form, "records": sorted(s.record for s in succeeded)[:3],
                  "stale_records": sorted(s.record for s in stale)[:3]})
