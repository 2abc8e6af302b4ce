"""Whether a value of an answer names an entity a diverging write reached (``divergence``): by a string
id, an href ending with its path, a number under a member known to name it, or every member its body
sent; and the spellings a path's segments and texts take (as written, percent-decoded)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote


Named = tuple[frozenset[tuple[str, str]], ...]
"""Per write, the (member, string) pairs its body sent."""


def plain_segments(path: tuple[str, ...]) -> tuple[str, ...]:
    """A path's segments decoded, a segment holding ``/`` (``%2F``) split there."""
    return tuple(part for segment in path for part in unquote(segment).split("/") if part)


def spellings(texts: Any) -> set[str]:
    """Each text as written and percent-decoded: a path segment ``caf%C3%A9`` names the tag ``café``."""
    return {spelled for text in texts for spelled in (text, unquote(text))}


def a_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and value != ""


def a_number(value: Any) -> bool:
    """A number, or text spelling one: what names an entity only under a member known to (``id_members``)."""
    if isinstance(value, str):
        return value.isdigit()
    return isinstance(value, (int, float)) and not isinstance(value, bool)


Foreign = dict[str, frozenset[str]]
"""Numbers (as text) only writes to another collection reached, each with the members naming those writes'
own entities (their ``id_members``): in a list of the read's collection, such a member holding the number is
that collection's own id, another entity's (record 3 is no label 3)."""


def holds(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str] = frozenset(),
          foreign: Foreign | None = None) -> bool:
    """Whether an array item is one of the entities or names one: itself, a member of it, or of an
    object inside it (a wrapper), never an item of a list inside it (its children naming the entity).
    ``foreign``: numbers that name nothing at the item's own top level under the members given."""
    if isinstance(value, dict):
        return any(named_by(value, group) for group in named) or any(
            holds(member, entities, named, id_members) if isinstance(member, dict)
            else leaf_in(member, entities) and (name in id_members or not id_members or not a_number(member))
            and not (foreign and a_number(member) and name in foreign.get(str(member), ()))
            for name, member in value.items())
    return leaf_in(value, entities)


def named_by(value: dict[str, Any], group: frozenset[tuple[str, str]]) -> bool:
    """Whether an object is the entity a create's body named: every member of the body it holds has the
    value sent, and it holds one at least (an answer shows what was sent by other names too: a member's
    ``subscriber`` as its ``email``); a member it shows empty is one a list withholds (a key's secret), no
    other value, and one it shows as no text (a list, a number, a boolean) is what the text sent became there
    (a form's ``enabled=0``, ``users=carol``): neither contradicts, and neither names it."""
    held = [(name, sent) for name, sent in group if isinstance(value.get(name), str) and value[name] != ""]
    return bool(held) and all(value[name] == sent for name, sent in held)


def leaf_in(value: Any, entities: frozenset[Any]) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return False
    if isinstance(value, str):  # an entity given as a path (``/``...): an href ending so names it
        return value in entities or any(isinstance(e, str) and e.startswith("/") and (
            value.rstrip("/").endswith(e) or _tail_of(value, e)) for e in entities)
    return str(value) in entities or value in entities


def _tail_of(value: str, path: str) -> bool:
    """Whether ``value`` spells the last segments of a written ``path`` as a path itself: of two segments or
    more (``data/raw/sensor-04.csv``) or led by a slash (etcd's ``/archive`` of ``/v2/keys/archive``)."""
    tail = value.strip("/")
    return bool(tail) and ("/" in tail or value.startswith("/")) and path.rstrip("/").endswith("/" + tail)


def around(body: Any, tokens: tuple[str, ...]) -> list[Any]:
    """The values ``tokens`` pass through in ``body`` from its top, the leaf's holder last."""
    passed, value = [], body
    for token in tokens[:-1]:
        passed.append(value)
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return passed
    return [*passed, value]


def links_to(links: frozenset[str], path: tuple[str, ...]) -> bool:
    """Whether one of a write's links names the entity read at ``path`` (ends with its path)."""
    if not path:
        return False
    spelled = "/" + "/".join(path)
    return any(link.rstrip("/").endswith(spelled) for link in links)
