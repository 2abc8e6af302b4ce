"""Ids the recorded absence is not given for because of their layout (``ReadView.unproven_id_shapes``,
``view-absence-id-shapes``, docs/absence.md).

The learned absence is proven for ids laid out as the ids the capture shows: an id holding a
feature none of them held (two separators side by side, a separator first or last) may be refused
by the application as malformed (PowerDNS answers ``seed-key..`` 422 where it answers a missing
well-formed name 404), so reads and writes of it are refused, saying which feature and what is
answered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from capenv.interpreter.bundle.models import UnprovenIdShape
from capenv.interpreter.bundle.values import decode_once


def unproven_layout(shapes: Iterable[UnprovenIdShape], raw_id: str, *, type_name: str) -> str | None:
    """Why no absence is given for ``raw_id``, or None when its layout is one the capture shows."""
    wanted = decode_once(raw_id)
    held = [shape for shape in shapes if re.search(shape.pattern, wanted)]
    if not held:
        return None
    features = "; ".join(shape.described for shape in held)
    return (f'the state holds no {type_name} "{wanted}", and its absence answer is not given: the id holds '
            f"{features}, which no {type_name} id the capture shows holds (held, read or answered as missing), so the "
            "application may refuse it as malformed rather than answer it missing, and the capture shows neither; an "
            "id laid out as the recorded ones is answered")
