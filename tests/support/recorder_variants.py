"""Write a ``HarBuilder`` capture as other recorders keep bodies, for tests.

* ``attach`` (Playwright's ``content: "attach"``): every body text moves to a side file named
  by its sha1 and written beside the HAR, the entry keeping ``_file``;
* ``zip`` (Playwright's ``record_har_path=*.zip``): the same, in one archive holding ``har.har``
  and the side files;
* ``zhar`` (mitmproxy's ``hardump=*.zhar``): the HAR zlib-compressed.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import zipfile
import zlib
from pathlib import Path

from capenv.interpreter.bundle import jsonvalue

from .har_builder import HarBuilder


def attached(builder: HarBuilder) -> tuple[dict, dict[str, bytes]]:
    """The HAR document with its bodies moved out, and the side files by name."""
    har = copy.deepcopy(builder.har())
    files: dict[str, bytes] = {}
    for entry in har["log"]["entries"]:
        for holder in (entry["request"].get("postData"), entry["response"].get("content")):
            if not holder or "text" not in holder:
                continue
            text = holder.pop("text")
            raw = base64.b64decode(text) if holder.pop("encoding", None) == "base64" else text.encode()
            name = hashlib.sha1(raw).hexdigest() + (".json" if "json" in (holder.get("mimeType") or "") else ".dat")
            files[name] = raw
            holder["_file"] = name
    har["log"]["creator"] = {"name": "Playwright", "version": "1.49.0"}
    return har, files


def write_attached(builder: HarBuilder, folder: Path, name: str = "capture.har") -> Path:
    har, files = attached(builder)
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, raw in files.items():
        (folder / file_name).write_bytes(raw)
    path = folder / name
    path.write_bytes(jsonvalue.dumps(har))
    return path


def write_zip(builder: HarBuilder, path: Path, *, extra: dict[str, bytes] | None = None) -> Path:
    har, files = attached(builder)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("har.har", jsonvalue.dumps(har))
        for file_name, raw in {**files, **(extra or {})}.items():
            archive.writestr(file_name, raw)
    return path


def write_zhar(builder: HarBuilder, path: Path) -> Path:
    path.write_bytes(zlib.compress(builder.bytes(), 9))
    return path
