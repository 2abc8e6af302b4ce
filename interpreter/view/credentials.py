"""Which request headers a write tool's successful calls all sent carry credentials (the
``write-credentials`` table), listed in ``WritePlan.credential_headers``: serving refuses an HTTP
call that leaves one out. Authorization is not modelled, but an application refuses a write sent
without its credentials (401/403), which the model would otherwise apply; and where the capture
shows the credential static (``write-credential-values``: one value or a few, never issued by a
recorded answer nor minted per call) a call sending another value is refused too (a wrong password
or API key), never one a fresh login would issue."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from itertools import accumulate

from capenv.interpreter.bundle.credential_values import (COMPARE_SESSION_COOKIE, COMPARE_VALUE, bound_digest,
                                                        cookie_values, credential_digest, secret_parts,
                                                        set_cookie_value)
from capenv.interpreter.bundle.models import StaticCredential, ViewResult
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.credential_values import (AnsweredApart, CookieCall, CookieCallers,
                                                            CredentialCall, RefusedCredential,
                                                            WriteCredentialValueContext, bound_parameters)
from capenv.interpreter.predicates.write_credentials import WriteCredentialContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "write-credentials"
VALUES_TABLE = "write-credential-values"
REFUSED = (401, 403)
CLIENT_ERRORS = (400, 500)
"""The statuses a refusal can have (``left_out_refused``; the table's rules say which count)."""


def credential_headers(tool_name: str, calls: list[Record], records: dict[int, Record],
                       ruleset: RuleSet, kept: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The headers (lower case, sorted) the table says a call of the tool must send; ``kept``: per
    header the values table keeps to a principal caller's value, the rule that does."""
    if TABLE not in ruleset.tables:
        return ()
    succeeded = [call for call in calls if call.succeeded]
    sent: dict[str, dict[int, str]] = {}
    for call in succeeded:
        for name, value in call.request_headers:
            if value.strip():
                sent.setdefault(name.lower(), {})[call.ordinal] = value
    refusals = [r for r in records.values() if r.status in REFUSED]
    # a guard the application demands of one method (its writes) tells nothing of another (its reads)
    methods = {call.method for call in calls}
    client_errors = [r for r in records.values() if CLIENT_ERRORS[0] <= r.status < CLIENT_ERRORS[1]]
    every = {name for name, by_call in sent.items() if len(by_call) == len(succeeded)}
    required = []
    for name, by_call in sorted(sent.items()):
        values = set(by_call.values())
        # a refusal tells of this header only when it left out (or changed) this one alone
        refused = [r.ordinal for r in refusals if _value(r, name) not in values
                   and all(_value(r, other) is not None for other in every - {name})]
        # a call that left out this header alone (and sent the others): which client error it got
        left_out = [(r.ordinal, r.status) for r in client_errors if r.method in methods and _value(r, name) is None
                    and all(_value(r, other) is not None for other in every - {name})]
        context = WriteCredentialContext(name=name, calls=len(succeeded), carried=sorted(by_call),
                                         refused_without=refused, left_out_refused=left_out,
                                         principal_rule=(kept or {}).get(name, ""))
        decision = evaluate(ruleset, TABLE, context, subject=f"{tool_name} header {name}")
        if decision.yields.get("required"):
            required.append(name)
    return tuple(required)


def _value(record: Record, name: str) -> str | None:
    if name == COOKIE:  # a client may send its cookies in several Cookie headers (HTTP/2): all of them
        value = "; ".join(v for k, v in record.request_headers if k.lower() == COOKIE and v.strip())
        return value or None
    value = record.header(name, response=False)
    return value if value and value.strip() else None


def read_credentials(manifest: Manifest, view: ViewResult, records: dict[int, Record],
                     ruleset: RuleSet) -> dict[str, tuple[str, ...]]:
    """Per read tool (and read-only POST), the headers its calls must send (``ReplayTable.credential_headers``)."""
    read_only = {p.tool for p in view.read_only_posts}
    found = {}
    for tool in manifest.tools:
        if tool.changes_state and tool.name not in read_only:
            continue
        required = credential_headers(tool.name, [records[o] for o in tool.record_ordinals], records, ruleset)
        if required:
            found[tool.name] = required
    return found


def with_callers_kept(credentials: dict[str, tuple[str, ...]], static: Mapping[str, StaticCredential],
                      manifest: Manifest, view: ViewResult, records: dict[int, Record],
                      ruleset: RuleSet) -> dict[str, tuple[str, ...]]:
    """``read_credentials`` asked again, for the read tools, knowing which headers the values table
    keeps to a principal caller (``static``): a read every successful call of which sent such a
    header answers by the caller (another's view, a 404 for what they may not see), so the table may
    require it of the read too (``credential.kept-to-principal``)."""
    kept = {name: c.rule_id for name, c in static.items() if c.rule_id and _keeps_principal(c.rule_id, ruleset)}
    if not kept:
        return credentials
    read_only = {p.tool for p in view.read_only_posts}
    found = dict(credentials)
    for tool in manifest.tools:
        if tool.changes_state and tool.name not in read_only:
            continue
        required = credential_headers(tool.name, [records[o] for o in tool.record_ordinals], records, ruleset, kept)
        if required:
            found[tool.name] = tuple(sorted(set(required) | set(credentials.get(tool.name, ()))))
    return found


def static_credentials(names: set[str], records: dict[int, Record], ruleset: RuleSet,
                       args_of: Mapping[int, dict[str, str]] | None = None
                       ) -> tuple[dict[str, StaticCredential], tuple[TraceEvent, ...]]:
    """Per credentials header of ``names`` whose value the ``write-credential-values`` table finds
    static across the capture, the digests of the values its successful calls sent; and the traces.
    ``args_of``: per record, its path arguments (its tool's template matched), which a credential
    bound to a path parameter is told by; without them no credential is found bound."""
    if VALUES_TABLE not in ruleset.tables:
        return {}, ()
    found: dict[str, StaticCredential] = {}
    events: list[TraceEvent] = []
    judged = _judged_headers(records, ruleset)
    for name in sorted(names):
        key = (name, args_of is not None)
        if key not in judged:
            judged[key] = _static_credential(name, records, ruleset, args_of or {})
        credential, decided = judged[key]
        events.extend(decided)
        if credential is not None:
            found[name] = credential
    return found, tuple(events)


_JUDGED: list = [None]
"""The last capture's judged headers: ``(records, ruleset, {header: (credential or None, events)})``.
A build asks of the same headers up to three times (the gate's other callers, the report's static
credentials and its other callers), each a scan of every answer for the values' secret parts."""


def _judged_headers(records: dict[int, Record], ruleset: RuleSet) -> dict:
    kept = tuple(records.values())
    judged = _JUDGED[0]  # read once: a build in another thread may replace it meanwhile
    if judged is None or judged[1] is not ruleset or len(judged[0]) != len(kept) \
            or any(a is not b for a, b in zip(judged[0], kept)):
        judged = _JUDGED[0] = (kept, ruleset, {})
    return judged[2]


def _static_credential(name: str, records: dict[int, Record], ruleset: RuleSet,
                       args_of: Mapping[int, dict[str, str]]) -> tuple[StaticCredential | None, tuple[TraceEvent, ...]]:
    """One header's ``static_credentials``: its credential when static, and the table's trace."""
    succeeded = [r for r in records.values() if r.succeeded]
    sending = [(r.ordinal, value) for r in succeeded if (value := _value(r, name)) is not None]
    values = [value for _, value in sending]
    parts = {part for value in set(values) for part in secret_parts(value)}
    issued = [r.ordinal for r in records.values() if _answer_holds(r, parts)] if parts else []
    refused = [RefusedCredential(ordinal=r.ordinal, status=r.status, value=value, args=args_of.get(r.ordinal, {}))
               for r in records.values() if r.answered and not r.succeeded and (value := _value(r, name)) is not None]
    callers = _cookie_callers(records) if name == COOKIE else {}
    calls = [CredentialCall(ordinal=ordinal, value=value, args=args_of.get(ordinal, {})) for ordinal, value in sending]
    context = WriteCredentialValueContext(name=name, values=values, issued_in=issued, refused=refused,
                                          cookies=_cookie_calls(records, callers), calls=calls,
                                          answered_apart=answered_apart(name, records))
    decision = evaluate(ruleset, VALUES_TABLE, context, subject=f"header {name}")
    if not decision.yields.get("static"):
        return None, decision.events
    compare = str(decision.yields.get("compare") or COMPARE_VALUE)
    if compare == COMPARE_SESSION_COOKIE:
        return _session_credential(str(decision.evidence.get("cookie") or ""), records, callers,
                                   str(decision.rule_id)), decision.events
    if decision.yields.get("bound"):
        return _bound_credential(calls, compare, str(decision.evidence.get("parameter") or ""),
                                 str(decision.rule_id)), decision.events
    kept = principal_values(values, compare) if decision.yields.get("principal") else values
    # each distinct value digested once (every call sends the same few)
    digests = {d for value in dict.fromkeys(kept) if (d := credential_digest(value, compare)) is not None}
    if digests:
        return StaticCredential(compare=compare, digests=tuple(sorted(digests)),
                                rule_id=str(decision.rule_id)), decision.events
    return None, decision.events


def _bound_credential(calls: list[CredentialCall], compare: str, parameter: str,
                      rule_id: str) -> StaticCredential | None:
    """The credential bound to ``parameter``: the digest of each recorded value paired with the one
    value of the parameter it was sent with."""
    bound = bound_parameters(calls).get(parameter)
    if not parameter or bound is None:
        return None
    digests = {d for call in calls
               if (d := bound_digest(call.value, compare, call.args[parameter])) is not None}
    return StaticCredential(compare=compare, digests=tuple(sorted(digests)), rule_id=rule_id,
                            bound_to=parameter) if digests else None


COOKIE = "cookie"


def answered_apart(name: str, records: dict[int, Record]) -> list[AnsweredApart]:
    """Pairs of reads of one address (method, path, query) sent with different values of header
    ``name`` (compared as credentials, so one token however its scheme's word is spelt), both
    answered and neither sending no value, with no write running at any time between the first's
    start and the second's end, answered with another status or another body: the application
    chose its answer by the value (a caller's own list, a 404 for another caller's item). Each
    read is paired with the last earlier read of its address sent with another value."""
    ordered = sorted(records.values(), key=lambda r: r.ordinal)
    writes = sorted((r.started_at, r.finished_at) for r in ordered if r.changes_state)
    starts = [start for start, _ in writes]
    latest_end = list(accumulate((end for _, end in writes), max))  # of the writes started so far
    last: dict[tuple, dict[str, Record]] = {}  # per address, the last read sent with each value
    found: list[AnsweredApart] = []
    for record in ordered:
        if record.changes_state or not record.answered or record.response.text is None:
            continue
        value = _value(record, name)
        if value is None:
            continue
        key = credential_digest(value, COMPARE_VALUE) or value
        seen = last.setdefault((record.method, record.path, record.query), {})
        earlier = [r for k, r in seen.items() if k != key]
        seen[key] = record
        if not earlier:
            continue
        other = max(earlier, key=lambda r: r.ordinal)
        if (other.status, other.response.text) == (record.status, record.response.text):
            continue
        # a write that started before this read ended and ended after the other began ran between
        begun = bisect_left(starts, record.finished_at)
        if begun and latest_end[begun - 1] > other.started_at:
            continue
        found.append(AnsweredApart(first=other.ordinal, second=record.ordinal))
    return found


def _cookies_sent(record: Record) -> dict[str, str]:
    """The cookies the call sent (every Cookie header, by name)."""
    found: dict[str, str] = {}
    for key, value in record.request_headers:
        if key.lower() == COOKIE:
            for cookie, sent in cookie_values(value).items():
                found.setdefault(cookie, sent)
    return found


def _cookies_set(record: Record) -> dict[str, str]:
    """The cookies the answer set (Set-Cookie), by name, leaving out the ones it cleared (empty)."""
    found: dict[str, str] = {}
    for key, value in record.response_headers:
        if key.lower() == "set-cookie" and (pair := set_cookie_value(value)) is not None and pair[1]:
            found[pair[0]] = pair[1]
    return found


def _cookie_callers(records: dict[int, Record]) -> dict[str, dict[str, int]]:
    """Per cookie name, the caller (session) of each of its values, numbered in first-seen order:
    a value an answer set (Set-Cookie) in place of the one its call sent renews that caller's
    session, so both are one caller's; a value set to a call that sent none (a login) or seen
    only as sent starts a caller of its own."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(key: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    for ordinal in sorted(records):
        record = records[ordinal]
        sent = _cookies_sent(record)
        for cookie, value in sent.items():
            root((cookie, value))
        for cookie, value in _cookies_set(record).items():
            new = root((cookie, value))
            if cookie in sent and sent[cookie] and sent[cookie] != value:
                old = root((cookie, sent[cookie]))
                if new != old:
                    parent[new] = old
    numbers: dict[tuple[str, str], int] = {}
    callers: dict[str, dict[str, int]] = {}
    for cookie, value in parent:  # first-seen order
        callers.setdefault(cookie, {})[value] = numbers.setdefault(root((cookie, value)), len(numbers))
    return callers


def _cookie_calls(records: dict[int, Record], callers: dict[str, dict[str, int]]) -> list[CookieCallers]:
    """Per cookie of ``callers`` (by name), the answered calls that sent it and their callers."""
    calls: dict[str, list[CookieCall]] = {cookie: [] for cookie in callers}
    for ordinal in sorted(records):
        record = records[ordinal]
        if not record.answered:
            continue
        for cookie, value in _cookies_sent(record).items():
            if value and cookie in callers:
                calls[cookie].append(CookieCall(ordinal=ordinal, method=record.method, status=record.status,
                                                caller=callers[cookie][value]))
    return [CookieCallers(name=cookie, calls=found) for cookie, found in sorted(calls.items()) if found]


def _session_credential(cookie: str, records: dict[int, Record], callers: dict[str, dict[str, int]],
                        rule_id: str) -> StaticCredential | None:
    """The principal's session (the caller most successful calls sent ``cookie`` as): the digests
    of every value of it, its renewals too; another caller's value is refused."""
    of_value = callers.get(cookie, {})
    counts: dict[int, int] = {}
    for ordinal in sorted(records):
        value = _cookies_sent(records[ordinal]).get(cookie)
        if records[ordinal].succeeded and value in of_value:
            counts[of_value[value]] = counts.get(of_value[value], 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    principal = next(caller for caller, n in counts.items() if n == top)  # the first sent among equals
    digests = {credential_digest(f"{cookie}={value}", COMPARE_SESSION_COOKIE, cookie)
               for value, caller in of_value.items() if caller == principal}
    digests.discard(None)
    return StaticCredential(compare=COMPARE_SESSION_COOKIE, digests=tuple(sorted(digests)), rule_id=rule_id,
                            cookie=cookie) if digests else None


def principal_values(values: list[str], compare: str) -> list[str]:
    """The values of the caller most successful calls were sent as (the principal, whose view the
    state holds); another caller's are left out, so serving refuses them."""
    digest_of = {value: credential_digest(value, compare) or value for value in dict.fromkeys(values)}  # once each
    counts: dict[str, int] = {}
    for value in values:
        digest = digest_of[value]
        counts[digest] = counts.get(digest, 0) + 1
    if not counts:
        return []
    top = max(counts.values())
    principal = next(d for d, n in counts.items() if n == top)  # the first sent among equals
    return [value for value in values if digest_of[value] == principal]


def write_credential_names(manifest: Manifest, records: Mapping[int, Record], read_only: set[str] | frozenset[str],
                           ruleset: RuleSet) -> frozenset[str]:
    """The credential headers (lower case) the write tools' calls must send (``write-credentials``)."""
    names: set[str] = set()
    for tool in manifest.tools:
        calls = [records[o] for o in tool.record_ordinals if o in records]
        if any(call.changes_state for call in calls) and tool.name not in read_only:
            names.update(credential_headers(tool.name, calls, records, ruleset))
    return frozenset(names)


def other_callers_records(records: list[Record], names: frozenset[str], ruleset: RuleSet, *,
                          unsent: bool = False) -> frozenset[int]:
    """The records sent as another caller than the principal, for each header of ``names`` the
    ``write-credential-values`` table keeps to the principal's value: what they were answered is
    that caller's view (authorization is not modelled), not the state's. ``unsent``: a record sending
    no such header counts too (an anonymous caller's view: fewer items, no name of its own)."""
    if VALUES_TABLE not in ruleset.tables:
        return frozenset()
    by_ordinal = {r.ordinal: r for r in records}
    found: set[int] = set()
    for name in sorted(names):
        static, _ = static_credentials({name}, by_ordinal, ruleset)
        credential = static.get(name)
        if credential is None or not credential.rule_id or not _keeps_principal(credential.rule_id, ruleset):
            continue
        digest_of: dict[str, str | None] = {}  # each distinct value digested once
        for record in records:
            value = _value(record, name)
            if value is not None and value not in digest_of:
                digest_of[value] = credential_digest(value, credential.compare, credential.cookie)
            if value is not None and digest_of[value] not in credential.digests or value is None and unsent:
                found.add(record.ordinal)
    return frozenset(found)


def _keeps_principal(rule_id: str, ruleset: RuleSet) -> bool:
    table = ruleset.tables[VALUES_TABLE]
    return any(rule.id == rule_id and rule.yields.get("principal") for rule in table.rules)


def _answer_holds(record: Record, parts: set[str]) -> bool:
    """Whether the record's answer (its body, or a header's value) holds one of ``parts``."""
    texts = [record.response.text or ""] + [value for _, value in record.response_headers]
    return any(part in text for part in parts for text in texts)
