"""Deterministic UUIDs and tokens (seeds, "Clock and generators").

Every value is drawn from a SHA-256 of the state Evidence id, the tool, the field and the
write counter, so the same calls after a reset give the same values while each write gets
new ones. A value the type already holds is skipped by hashing again with the next attempt
number. Renewed UUIDs hash the UUID's order in the call instead of the field, and skip nothing.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Container, Mapping

from .context import OpParamsError, OpRefusal

MAX_ATTEMPTS = 10_000
"""Attempts before a generator gives up: only a tiny token space nearly all held gets there."""

UUID_SHAPE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

# x and X: hexadecimal digits of one case (an ObjectId, a digest), a class of their own rather
# than letters and digits, which would draw g-z.
CLASS_LETTERS = {"a": string.ascii_lowercase, "A": string.ascii_uppercase, "9": string.digits,
                  "x": string.digits + "abcdef", "X": string.digits + "ABCDEF"}


def _digest(*parts: Any) -> bytes:
    # A NUL separates the parts, so ("ab", "c") and ("a", "bc") never hash alike.
    return hashlib.sha256("\x00".join(map(str, parts)).encode("utf-8")).digest()


def _uuid_from(digest: bytes) -> str:
    """A version-4, RFC 4122 variant UUID (lower case) from the digest's first 16 bytes."""
    raw = bytearray(digest[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def is_uuid(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 36 and UUID_SHAPE.fullmatch(value) is not None


def _uuid_held(candidate: str, held: Container[Any]) -> bool:
    return candidate in held or candidate.upper() in held


def derive_uuid(evidence_id: str, tool: str, field: str, write_counter: int,
                held: Container[Any] = (), *, uppercase: bool = False) -> str:
    """The write's UUID for ``field``: the first attempt not held (in either letter case)."""
    for attempt in range(MAX_ATTEMPTS):
        candidate = _uuid_from(_digest(evidence_id, tool, field, write_counter, attempt))
        if not _uuid_held(candidate, held):
            return candidate.upper() if uppercase else candidate
    raise OpRefusal(f"field {field!r} found no UUID the type does not hold")  # pragma: no cover


def renewal_uuid(evidence_id: str, tool: str, write_counter: int, order: int) -> str:
    """The UUID that replaces the call's ``order``-th renewed UUID (lower case; held values are
    not skipped, as the seeds say)."""
    return _uuid_from(_digest(evidence_id, tool, write_counter, order))


@dataclass(frozen=True, slots=True)
class TokenShape:
    """A token's length, the characters it draws from, the classes it must show (each of
    lower, upper and digits its recorded classes name, when it has room) and its separators."""

    length: int
    alphabet: str
    required: tuple[frozenset[str], ...]
    separators: tuple[tuple[int, str], ...]
    free: tuple[int, ...]
    """The positions drawn from the alphabet (every position but the separators')."""


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a bundle's generated ids have a few shapes).
@lru_cache(maxsize=256)
def _token_shape(length: int, classes: str, separators: tuple[tuple[int, str], ...]) -> TokenShape:
    if length < 1:
        raise OpParamsError(f"a token needs a length of at least 1, not {length}")
    alphabet: list[str] = []
    required: list[frozenset[str]] = []
    for symbol in classes:
        members = CLASS_LETTERS.get(symbol, symbol)
        if symbol in CLASS_LETTERS:
            required.append(frozenset(members))
        alphabet.extend(char for char in members if char not in alphabet)
    if not alphabet:
        raise OpParamsError("a token needs character classes (a, A, 9, x, X or literal characters)")
    for index, separator in separators:
        if not 0 <= index < length or len(separator) != 1:
            raise OpParamsError(f"token separator {separator!r} at {index} does not fit a length of {length}")
    taken = {index for index, _ in separators}
    free = tuple(index for index in range(length) if index not in taken)
    if len(required) > len(free):  # no room to show every class: draw freely
        required = []
    return TokenShape(length, "".join(alphabet), tuple(required), separators, free)


def token_shape(length: int | None, classes: str | None, separators: Mapping[int, str]) -> TokenShape:
    """The shape a token rule's params name (``classes`` defaults to letters and digits)."""
    if length is None:
        raise OpParamsError("a token rule needs its length")
    return _token_shape(length, classes or "aA9", tuple(sorted(separators.items())))


def _draw(shape: TokenShape, seed: tuple[Any, ...]) -> str:
    stream = b""
    block = 0
    while len(stream) < len(shape.free):
        stream += _digest(*seed, block)
        block += 1
    chars = [""] * shape.length
    size = len(shape.alphabet)
    for position, byte in zip(shape.free, stream):
        chars[position] = shape.alphabet[byte % size]
    for index, separator in shape.separators:
        chars[index] = separator
    return "".join(chars)


def derive_token(evidence_id: str, tool: str, field: str, write_counter: int, shape: TokenShape,
                 held: Container[Any] = ()) -> str:
    """The write's token for ``field``: the first attempt that shows the shape's classes and
    that the type does not hold."""
    for attempt in range(MAX_ATTEMPTS):
        candidate = _draw(shape, (evidence_id, tool, field, write_counter, attempt))
        if all(not members.isdisjoint(candidate) for members in shape.required) and candidate not in held:
            return candidate
    raise OpRefusal(f"field {field!r} found no token of {shape.length} characters the type does not hold")
