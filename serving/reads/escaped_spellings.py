"""How an absence answer names a path value the call sent percent-escaped (``caf%C3%A9``): the
recorded answer shows the application writing the value it was sent, and only a recorded value
sent escaped shows which spelling it writes, as sent (Datasette's ``Record not found:
['caf%C3%A9']``) or decoded (``café``). Where the capture shows neither, an answer naming the
call's escaped value is refused rather than given in a spelling the application may not use."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote


class UnknownSpelling(Exception):
    """The answer names a value the call sent escaped, and no recorded value shows the spelling."""

    def __init__(self, sent: str, recorded: str) -> None:
        super().__init__(sent)
        self.sent, self.recorded = sent, recorded

    def message(self, path: str) -> str:
        return (f"the absence answer for {path} is not known: the application's absence answer names the path's "
                f"value (the recorded {self.recorded!r}), and this call sends it percent-escaped ({self.sent!r}, "
                f"decoded {unquote(self.sent)!r}), which no recorded absence shows, so whether the application "
                f"writes it as sent or decoded is not known; a value a path carries as it is (no character a URL "
                f"escapes) is answered with it")


def escaped(raw: str) -> bool:
    """Whether ``raw`` reads otherwise once percent-decoded."""
    return unquote(raw) != raw


def spelled_swap(recorded_raw: str, called_raw: str, answer_names: Callable[[str], bool]) -> tuple[str, str] | None:
    """(the text the recorded answer names the recorded value by, the text the call's value takes
    there); None when the answer names neither spelling. Raises ``UnknownSpelling`` for a call value
    sent escaped that the answer would name, when the recorded value was sent unescaped."""
    recorded = unquote(recorded_raw)
    if escaped(recorded_raw) and answer_names(recorded_raw):  # the application wrote what it was sent
        return recorded_raw, called_raw
    if not answer_names(recorded):
        return None
    if escaped(called_raw) and not escaped(recorded_raw):
        raise UnknownSpelling(called_raw, recorded)
    return recorded, unquote(called_raw)
