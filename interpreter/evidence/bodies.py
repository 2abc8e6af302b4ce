"""Request and response bodies of a HAR entry, as ``Body`` records (DESIGN.md §3).

Decisions this module makes (the design leaves them open):

- **Which bodies are parsed as JSON.** A body whose media type the ``body-media-types`` table
  reads as JSON-like (``application/json``, a ``+json`` suffix, a vendor subtype naming json as a
  word) is parsed; when it does not parse, ``json_error`` says why. A body with *no* media type or ``text/plain`` is parsed only when its text starts with
  ``{`` or ``[`` (servers and clients that forget the header are common), and a failure there
  is not an error (the body never claimed to be JSON). Every other declared type (HTML, form
  data, XML…) is taken at its word and not parsed. An empty or blank text is no JSON and no
  error: an empty answer is absent, not malformed.
- **Retained.** ``retained=False`` means a body was sent but the HAR kept no text for it.
  A request sent a body when it has ``postData`` (with or without text), a ``Content-Length``
  above 0, chunked ``Transfer-Encoding`` or a HAR ``bodySize`` above 0. A response had a body
  when ``content.size`` or ``bodySize`` is above 0 (not ``Content-Length``: HEAD and 304 answers
  carry one without a body). Otherwise the body is absent: ``text=None``, ``retained=True``.
- **Encoding.** ``base64`` text is decoded strictly (ASCII whitespace ignored); bytes that are
  not UTF-8 give ``binary=True`` and ``text=None``. ``postData.encoding`` (not in HAR 1.2, but
  some recorders write it) is honoured the same way. Any other encoding is a body problem.
- **Side files.** Playwright's ``attach`` mode keeps a body in a side file named by ``_file``
  (``postData._file``, ``content._file``) instead of ``text``; its bytes are the body, read
  through ``containers.SideFiles`` (which refuses names leaving the HAR's place).
- **Kept only in part.** A request whose ``postData`` has ``params`` but no text (DevTools-style
  form fields), or an empty text while the request declares a body (Playwright's ``omit``
  mode), was not retained; ``note`` says so, for the messages that refuse such a call.
"""

from __future__ import annotations

import base64
import binascii
import functools
from typing import Any

from ..bundle import jsonvalue
from .containers import SideFiles
from .errors import EntryProblem, show
from .records import Body

Headers = tuple[tuple[str, str], ...]

ABSENT = Body()
"""No body at all: nothing was sent or answered."""

NO_SIDE_FILES = SideFiles()
PARAMS_ONLY = "the recorder kept only its form parameters (postData.params), not the body text"
TEXT_OMITTED = "the recorder left its text empty although the request sent a body"
NO_POST_DATA = ("the recorder wrote no postData although the request declares a body (mitmproxy, for one, keeps"
                " only the bodies of POST, PUT and PATCH)")

MEDIA_TYPES_TABLE = "body-media-types"
_SNIFFED_MEDIA_TYPES = frozenset({"", "text/plain"})
_ASCII_WHITESPACE = str.maketrans("", "", " \t\n\r\f\v")


def media_type(mime_type: Any) -> str:
    """``Application/JSON; charset=utf-8`` → ``application/json``; anything not a string → ``""``."""
    if not isinstance(mime_type, str):
        return ""
    return mime_type.split(";", 1)[0].strip().lower()


def is_json_media_type(mime_type: Any) -> bool:
    """Whether the ``body-media-types`` table reads the media type as JSON-like (JSON, a ``+json``
    suffix, a vendor subtype naming json as a word). Decided once per media type and process."""
    return _json_like(media_type(mime_type))


@functools.lru_cache(maxsize=256)
def _json_like(kind: str) -> bool:
    from capenv.interpreter.predicates.media_types import BodyMediaTypeContext
    from capenv.interpreter.rules_engine import evaluate, load_rules

    ruleset = load_rules()
    if MEDIA_TYPES_TABLE not in ruleset.tables:
        return False
    decision = evaluate(ruleset, MEDIA_TYPES_TABLE, BodyMediaTypeContext(media_type=kind), subject=f"media type {kind}")
    return bool(decision.yields.get("json"))


def header_value(headers: Headers, name: str) -> str | None:
    """First header of that name (case-insensitive)."""
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def request_body(request: dict[str, Any], headers: Headers, side_files: SideFiles = NO_SIDE_FILES) -> Body:
    declared_type = header_value(headers, "content-type")
    post = request.get("postData")
    if post is None:
        if _request_declares_body(request, headers):
            return Body(mime_type=declared_type, retained=False, note=NO_POST_DATA)
        return ABSENT
    if not isinstance(post, dict):
        raise EntryProblem(f"request.postData is {show(post)}, not an object", body_only=True)
    mime_type = post.get("mimeType") or declared_type
    if post.get("_file") is not None and not post.get("text"):
        return _side_file_body(mime_type, post["_file"], side_files, "request.postData._file")
    if post.get("text") is None and post.get("params"):
        return Body(mime_type=mime_type, retained=False, note=PARAMS_ONLY)
    if post.get("text") == "" and _request_declares_body(request, headers):
        return Body(mime_type=mime_type, retained=False, note=TEXT_OMITTED)
    return _body(mime_type, post.get("text"), post.get("encoding"), "request.postData")


def response_body(response: dict[str, Any], headers: Headers, side_files: SideFiles = NO_SIDE_FILES) -> Body:
    content = response.get("content")
    if content is None:
        content = {}
    if not isinstance(content, dict):
        raise EntryProblem(f"response.content is {show(content)}, not an object", body_only=True)
    mime_type = response_media_type(response, headers)
    if mime_type is not None and not isinstance(mime_type, str):
        raise EntryProblem(f"response.content.mimeType is {show(mime_type)}, not a string", body_only=True)
    if content.get("_file") is not None and content.get("text") is None:
        return _side_file_body(mime_type, content["_file"], side_files, "response.content._file")
    if content.get("text") is None:
        if _positive(content.get("size")) or _positive(response.get("bodySize")):
            return Body(mime_type=mime_type, retained=False)
        return Body(mime_type=mime_type) if mime_type else ABSENT
    return _body(mime_type, content.get("text"), content.get("encoding"), "response.content")


def _side_file_body(mime_type: Any, name: Any, side_files: SideFiles, where: str) -> Body:
    if mime_type is not None and not isinstance(mime_type, str):
        raise EntryProblem(f"{where.rsplit('.', 1)[0]}.mimeType is {show(mime_type)}, not a string", body_only=True)
    if not isinstance(name, str):
        raise EntryProblem(f"{where} is {show(name)}, not a string", body_only=True)
    raw = side_files.read(name, where)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Body(mime_type=mime_type, size=len(raw), binary=True)
    is_json, value, error = _parse_json(mime_type, text)
    return Body(mime_type=mime_type, text=text, size=len(raw), is_json=is_json, json_value=value, json_error=error)


def response_media_type(response: dict[str, Any], headers: Headers) -> Any:
    """``content.mimeType``, or the Content-Type header when the HAR left it empty."""
    content = response.get("content")
    declared = content.get("mimeType") if isinstance(content, dict) else None
    return declared or header_value(headers, "content-type")


def _body(mime_type: Any, text: Any, encoding: Any, where: str) -> Body:
    if mime_type is not None and not isinstance(mime_type, str):
        raise EntryProblem(f"{where}.mimeType is {show(mime_type)}, not a string", body_only=True)
    if text is None:
        return Body(mime_type=mime_type, retained=False)
    if not isinstance(text, str):
        raise EntryProblem(f"{where}.text is {show(text)}, not a string", body_only=True)
    if encoding in (None, ""):
        size = len(text) if text.isascii() else len(text.encode("utf-8"))
    elif encoding == "base64":
        text, size = _decode_base64(text, where)
        if text is None:
            return Body(mime_type=mime_type, size=size, binary=True)
    else:
        raise EntryProblem(f"{where}.encoding {show(encoding)} is not supported (only base64)", body_only=True)
    is_json, value, error = _parse_json(mime_type, text)
    return Body(mime_type=mime_type, text=text, size=size, is_json=is_json, json_value=value, json_error=error)


def _decode_base64(text: str, where: str) -> tuple[str | None, int]:
    """Decoded text and byte size; text is ``None`` when the bytes are not UTF-8."""
    try:
        raw = base64.b64decode(text.translate(_ASCII_WHITESPACE), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise EntryProblem(f"{where}.text is not valid base64 ({exc})", body_only=True) from None
    try:
        return raw.decode("utf-8"), len(raw)
    except UnicodeDecodeError:
        return None, len(raw)


def _parse_json(mime_type: str | None, text: str) -> tuple[bool, Any, str | None]:
    """(is_json, value, json_error) per the media-type decision in the module docstring."""
    declared_json = is_json_media_type(mime_type)
    if not declared_json:
        if media_type(mime_type) not in _SNIFFED_MEDIA_TYPES or text.lstrip()[:1] not in ("{", "["):
            return False, None, None
    if not text.strip():
        return False, None, None
    try:
        return True, jsonvalue.loads(text), None
    except (ValueError, RecursionError) as exc:  # JsonError is a ValueError
        return False, None, (str(exc) or type(exc).__name__) if declared_json else None


def _request_declares_body(request: dict[str, Any], headers: Headers) -> bool:
    if _positive(header_value(headers, "content-length")) or _positive(request.get("bodySize")):
        return True
    encoding = header_value(headers, "transfer-encoding")
    return encoding is not None and "chunked" in encoding.lower()


def _positive(value: Any) -> bool:
    """A size (number or numeric header text) above zero; anything unreadable counts as no size."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return value > 0
    if isinstance(value, str):
        try:
            return int(value.strip()) > 0
        except ValueError:
            return False
    return False
