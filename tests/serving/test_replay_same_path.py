"""Replay finds the recordings a call's path names through an index of their path arguments'
spellings (``replay.PathIndex``): it must find exactly those ``same_spelling`` names, verbatim
or both once percent-decoded, and keep their recorded order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from capenv.interpreter.bundle.models import RecordedCall, Recording, ReplayTable
from capenv.interpreter.bundle.values import same_spelling
from capenv.interpreter.manifest.models import Segment, Tool
from capenv.serving.read_call import ReadCall
from capenv.serving.reads.replay import Replayer

TOOL = Tool(name="get_item", method="GET", template="/a/{first}/b/{second}",
            segments=(Segment(literal="a"), Segment(param="first"), Segment(literal="b"), Segment(param="second")),
            params=("first", "second"), record_ordinals=(), changes_state=False)
SPELLINGS = ["1", "%31", "a b", "a%20b", "a%2520b", "%2520", "%20", "A", "%41", "%61", "x%2Fy", "x/y"]
spelling = st.sampled_from(SPELLINGS)


def recorded(ordinal: int, path: str) -> RecordedCall:
    return RecordedCall(ordinal=ordinal, method="GET", path=path, response=Recording(ordinal=ordinal, status=200))


def naming(calls: list[RecordedCall], args: dict[str, str]) -> list[RecordedCall]:
    """The definition: every argument of the call named by the recording's, in recorded order."""
    found = []
    for call in calls:
        held = TOOL.match(call.path) or {}
        if all(name in held and same_spelling(held[name], value) for name, value in args.items()):
            found.append(call)
    return found


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(spelling, spelling), max_size=8), spelling, spelling)
def test_the_recordings_a_path_names_are_those_same_spelling_names(pairs, first, second):
    calls = [recorded(i, f"/a/{a}/b/{b}") for i, (a, b) in enumerate(pairs)]
    calls.append(recorded(len(calls), "/elsewhere"))  # a path the template does not fit names nothing
    replayer = Replayer(ReplayTable(tools={TOOL.name: tuple(calls)}), values_quoted=8)
    args = {"first": first, "second": second}
    call = ReadCall(tool=TOOL, path=f"/a/{first}/b/{second}", path_args=args)
    assert replayer.same_path(call) == naming(calls, args)
    assert replayer.same_path(ReadCall(tool=TOOL, path="/a", path_args={})) == calls
