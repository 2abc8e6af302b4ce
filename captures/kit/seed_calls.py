"""What seed.py scripts share (standard library only: start.sh runs them with the system Python):
a JSON call with the identity headers an application trusts, and fixed ids of what a seed names.

A seed imports it with ``sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))``.
"""
import json
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
