"""A ``file://`` part of an AgentEnv data/add: a document the operator staged on this machine.

Only regular files under the directory the operator named (``--data-root``) are read; without
one, file URIs are refused. The path is resolved (symbolic links and ``..`` included) before it
is compared with the root, so a link inside the root cannot reach outside it. The file is opened
without following a last link and without blocking (a FIFO never stalls the server), checked to
be a regular file on the open descriptor, and read in chunks up to the limit: ``st_size`` is never
trusted (``/dev/zero`` and ``/proc`` files say 0).

A refusal never says whether a path outside the root exists: every such URI gets one message.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import unquote, urlsplit

CHUNK_BYTES = 1 << 20


class FileRefused(Exception):
    """The URI names no file this server reads; ``too_large`` when the file is past the limit."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


INLINE = 'send the document inline ("bytes": base64, or a data part)'


def staged_path(uri: str, root: Path | None) -> Path:
    """The file ``uri`` names under ``root``, resolved; ``FileRefused`` for any other URI."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        raise FileRefused(f"the file part's URI is not a file:// URI on this machine; {INLINE}")
    if root is None:
        raise FileRefused(f"this server reads no file:// URIs (it was started without --data-root); {INLINE}")
    base = root.resolve()
    raw = unquote(parts.path)
    if "\x00" in raw or not raw.startswith("/"):
        raise FileRefused(f"the file part's URI names no absolute path; {INLINE}")
    path = Path(os.path.realpath(raw))
    if not path.is_relative_to(base):
        raise FileRefused(f"the file part's URI names no file under the data root {base}; stage the document "
                          f"there or {INLINE}")
    return path


def read_staged(uri: str, root: Path | None, limit: int) -> bytes:
    """The bytes of the regular file ``uri`` names under ``root``, at most ``limit`` of them."""
    path = staged_path(uri, root)
    shown = path.relative_to(root.resolve()) if root is not None else path
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise FileRefused(f"no readable file {shown} under the data root; {INLINE}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(f"{shown} under the data root is not a regular file; {INLINE}")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(CHUNK_BYTES, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > limit:
                raise FileRefused(f"{shown} is larger than {limit} bytes, past what data/add installs",
                                  too_large=True)
            chunks.append(chunk)
    except OSError:
        raise FileRefused(f"cannot read {shown} under the data root; {INLINE}") from None
    finally:
        os.close(fd)
