"""How a HAR file arrives: plain, gzip, zlib (mitmproxy's ``.zhar``) or a ``.zip`` archive
(Playwright's ``record_har_path=*.zip``), with the side files Playwright's ``attach`` mode
writes bodies to (``_file``), told apart by their first bytes, never by the name.

Side files are read relative to the HAR: beside a plain file, the archive's other members for
a ``.zip``. A name that would leave that place (an absolute path, ``..``, a link pointing out)
is refused: a capture never makes capenv read a file it did not bring.
"""

from __future__ import annotations

import gzip
import io
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .errors import CaptureError, EntryProblem, show

_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_ZIP_EMPTY_MAGIC = b"PK\x05\x06"
_HAR_IN_ZIP = "har.har"
"""The member Playwright writes the log to in a ``.zip`` HAR."""


@dataclass
class SideFiles:
    """Where ``_file`` names are read from: a directory, or a zip archive's members."""

    directory: Path | None = None
    archive: zipfile.ZipFile | None = None
    where: str = "the HAR's directory"
    _cache: dict[str, bytes] = field(default_factory=dict)

    def read(self, name: str, member: str) -> bytes:
        """The bytes of side file ``name`` (``member`` names the HAR member in problems)."""
        if name in self._cache:
            return self._cache[name]
        relative = PurePosixPath(name.replace("\\", "/"))
        parts = relative.parts
        if not parts or relative.is_absolute() or ".." in parts or ":" in parts[0]:
            raise EntryProblem(f"{member} {show(name)} leaves {self.where}: refused")
        if self.archive is not None:
            try:
                data = self.archive.read(str(relative))
            except KeyError:
                raise EntryProblem(f"{member} {show(name)} is not in {self.where}", body_only=True) from None
            except (zipfile.BadZipFile, OSError, zlib.error, EOFError) as exc:
                raise EntryProblem(f"{member} {show(name)} cannot be read from {self.where} ({exc})",
                                   body_only=True) from None
        elif self.directory is not None:
            root = self.directory.resolve()
            path = (root / relative).resolve()
            if not path.is_relative_to(root):
                raise EntryProblem(f"{member} {show(name)} leaves {self.where}: refused")
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise EntryProblem(f"{member} {show(name)} cannot be read beside the HAR"
                                   f" ({exc.strerror or exc})", body_only=True) from None
        else:
            raise EntryProblem(f"{member} {show(name)} names a side file, and this capture has no directory"
                               " to read it from", body_only=True)
        self._cache[name] = data
        return data


def unpack(data: bytes, source: str, directory: Path | None) -> tuple[bytes, SideFiles]:
    """The HAR's own bytes and where its side files are, whatever container holds them."""
    if data.startswith(_GZIP_MAGIC):
        try:
            return gzip.decompress(data), SideFiles(directory)
        except (EOFError, OSError, zlib.error) as exc:  # BadGzipFile is an OSError
            raise CaptureError(source, None, f"gzip data is truncated or corrupt ({exc})") from None
    if _is_zlib(data):
        try:
            return zlib.decompress(data), SideFiles(directory)
        except zlib.error as exc:
            raise CaptureError(source, None, f"zlib data is truncated or corrupt ({exc})") from None
    if data.startswith(_ZIP_MAGIC) or data.startswith(_ZIP_EMPTY_MAGIC):
        return _from_zip(data, source)
    return data, SideFiles(directory)


def _is_zlib(data: bytes) -> bool:
    """A zlib stream header (deflate, 32K window, valid check bits): never the start of JSON text."""
    return len(data) >= 2 and data[0] == 0x78 and (data[0] * 256 + data[1]) % 31 == 0


def _from_zip(data: bytes, source: str) -> tuple[bytes, SideFiles]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = [n for n in archive.namelist() if n.lower().endswith(".har")]
    except (zipfile.BadZipFile, OSError) as exc:
        raise CaptureError(source, None, f"is not a readable zip archive ({exc})") from None
    chosen = _HAR_IN_ZIP if _HAR_IN_ZIP in names else (names[0] if len(names) == 1 else None)
    if chosen is None:
        found = f"{len(names)} .har files ({', '.join(sorted(names)[:5])})" if names else "no .har file"
        raise CaptureError(source, None, f"is a zip archive with {found}; it needs one (Playwright writes"
                                         f" {_HAR_IN_ZIP})")
    try:
        har = archive.read(chosen)
    except (zipfile.BadZipFile, OSError, zlib.error, EOFError) as exc:
        raise CaptureError(source, None, f"zip member {chosen} cannot be read ({exc})") from None
    return har, SideFiles(archive=archive, where="the zip archive")
