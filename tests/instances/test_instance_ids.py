"""Instance and snapshot ids: unguessable, and safe to pass on a command line."""

from __future__ import annotations

from capenv.serving.instances.registry import ID_BYTES, new_id


def test_ids_never_read_as_a_command_line_option() -> None:
    """An id is passed to ``capenv fleet delete ID``: one beginning with "-" was read as an option
    (URL-safe base64 ids begin so one time in 64)."""
    ids = {new_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(len(i) == 2 * ID_BYTES and set(i) <= set("0123456789abcdef") for i in ids)
