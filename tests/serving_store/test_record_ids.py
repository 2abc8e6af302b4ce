"""Generated record ids (``commits.new_record_id``): their random parts are drawn from the OS many
at a time, and stay as unique as one draw per id made them: across threads, past a draw's end, and
in a forked child, which must not take the ids its parent goes on to take."""

from __future__ import annotations

import os
import re
import threading

import pytest

from capenv.serving.state import commits

SHAPE = re.compile(r"capenv-write-[0-9a-f]{16}-[0-9a-f]{32}")


def test_ids_keep_their_shape_and_never_repeat_across_threads_and_draws() -> None:
    made: list[list[str]] = [[] for _ in range(4)]

    def make(into: list[str]) -> None:
        for _ in range(commits._DRAWN_AT_ONCE * 2 + 7):
            into.append(commits.new_record_id("write"))

    threads = [threading.Thread(target=make, args=(into,)) for into in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = [record_id for into in made for record_id in into]
    assert all(SHAPE.fullmatch(record_id) for record_id in ids), ids[:3]
    random_parts = [record_id.rsplit("-", 1)[1] for record_id in ids]
    assert len(set(random_parts)) == len(random_parts)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_draws_its_own_random_parts() -> None:
    commits.new_record_id("write")  # the parent holds a draw with parts still to take
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        try:
            os.write(write, " ".join(commits.new_record_id("write") for _ in range(3)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        in_child = pipe.read().split()
    os.waitpid(child, 0)
    in_parent = [commits.new_record_id("write") for _ in range(3)]
    assert len(in_child) == 3
    assert not {i.rsplit("-", 1)[1] for i in in_child} & {i.rsplit("-", 1)[1] for i in in_parent}
