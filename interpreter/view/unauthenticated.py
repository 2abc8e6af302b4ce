"""Reads refused for the credentials they were sent without: authorization is not modelled, and
such an answer says nothing of what the state holds, so the read gate passes over it.

A 401 always says so. A 403 says so only when the call left out a request header that every
successful call of the capture carried (Parse's ``X-Parse-Application-Id`` and
``X-Parse-Master-Key``, an ``Authorization`` a client sends on every call), or sent it with an
empty value (OpenStack's noauth ``X-Roles``, ``X-User-Id``: a blank identity is none): sent with
them, a 403 may be about the entity asked for, and the read is checked. The statuses are the ``gate``
settings ``unauthenticated_statuses`` and ``credential_refusal_statuses``.
"""

from __future__ import annotations

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.rules_engine import RuleSet


def _names(record: Record) -> frozenset[str]:
    """The request header names (lower case) the call sent with a value: a blank one carries nothing."""
    return frozenset(name.lower() for name, value in record.request_headers if value.strip())


def carried_everywhere(records: list[Record]) -> frozenset[str]:
    """The request header names (lower case) every successful primary call carried."""
    succeeded = [_names(r) for r in records if r.primary and r.succeeded]
    return frozenset.intersection(*succeeded) if succeeded else frozenset()


def unauthenticated_reads(records: list[Record], ruleset: RuleSet) -> frozenset[int]:
    """The ordinals of the reads refused for credentials they were sent without."""
    always = set(ruleset.setting("gate", "unauthenticated_statuses"))
    without_credentials = set(ruleset.setting("gate", "credential_refusal_statuses"))
    carried = carried_everywhere(records)
    return frozenset(r.ordinal for r in records
                     if r.status in always or (r.status in without_credentials and carried - _names(r)))
