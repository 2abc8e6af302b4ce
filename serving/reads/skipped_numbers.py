"""Numbers the recorded absence is not given for because the ids held at the capture's start skip
them (``ReadView.skipped_numbers``, ``view-absence-sequence-gaps``; docs/absence.md)."""

from __future__ import annotations

from capenv.interpreter.bundle.models import SkippedNumbers
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.read_call import CallRefused


def refuse_skipped(skipped: SkippedNumbers | None, raw_id: str, *, type_name: str, held_initially: bool) -> None:
    """Refuse the absence of a number inside the held span that the state did not hold at its start
    (one it held and a served write removed is missing indeed)."""
    value = decode_once(raw_id)
    if skipped is None or held_initially or not (value.isdigit() and value.isascii()) \
            or (value.startswith("0") and value != "0") or not skipped.low < int(value) < skipped.high:
        return
    raise CallRefused(
        f"the state holds no {type_name} {value}, and its absence answer is not given: the {type_name} ids held "
        f"at the capture's start run from {skipped.low} to {skipped.high} and skip {value}, a number the "
        "application gave an entity the capture never shows (hidden from its lists, removed before the capture, "
        "or of another type sharing the sequence), so it may hold it", http_status=404)
