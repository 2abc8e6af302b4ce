"""What seed.py scripts share (standard library only: start.sh runs them with the system Python):
a JSON call with the identity headers an application trusts, and fixed ids of what a seed names.

A seed imports it with ``sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))``.
"""
import json
import urllib.error
import urllib.request
import uuid


def fixed_uuid4(namespace: uuid.UUID, kind: str, name: str) -> str:
    """A uuid5 of what it names (``kind:name``), re-stamped as version 4: the shape of the ids the
    application makes (some answer 404 for an id that is no version 4 uuid), the same on every start."""
    return str(uuid.UUID(bytes=uuid.uuid5(namespace, f"{kind}:{name}").bytes, version=4))


def json_call(base, method, path, headers, body=None, raw=None, content_type="application/json"):
    """Send ``body`` as JSON (or ``raw``, text or bytes, as ``content_type``) and answer the parsed
    JSON object, or the text of an answer that is none; a status of 400 or more raises."""
    data = raw.encode() if isinstance(raw, str) else raw
    if data is None and body is not None:
        data = json.dumps(body).encode()
    sent = dict(headers)
    if data is not None:
        sent["Content-Type"] = content_type
    request = urllib.request.Request(base + path, data=data, method=method, headers=sent)
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read().decode()
        return json.loads(text) if text.strip().startswith("{") else text


def checked_call(base, method, path, headers=None, body=None, expect=(200, 201, 204)):
    """Send ``body`` as JSON with ``headers`` and answer the parsed JSON (None for an empty answer);
    a status outside ``expect`` stops the seed, naming the call and what the application answered."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    if status not in expect:
        raise SystemExit(f"seed: {method} {path} answered {status}: {raw[:300]!r}")
    return json.loads(raw) if raw else None
