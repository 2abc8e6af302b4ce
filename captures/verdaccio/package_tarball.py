"""Small npm packages built in memory, for seed.py and driver.py: a package's tarball (gzip, fixed
times, so the same files give the same bytes and the same shasum on every run) and the packument a
`npm publish` sends for it (the version's manifest, its dist, the tarball as a base64 attachment)."""
import base64
import gzip
import hashlib
import io
import json
import tarfile

FIXED_MTIME = 1_793_577_600  # 2026-11-02T00:00:00Z: every file in every tarball


def tarball(manifest: dict, files: dict[str, str]) -> bytes:
    """The .tgz npm packs: package/package.json and the given files under package/."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, text in {"package.json": json.dumps(manifest, indent=2) + "\n", **files}.items():
            data = text.encode()
            info = tarfile.TarInfo("package/" + name)
            info.size, info.mtime, info.mode = len(data), FIXED_MTIME, 0o644
            tar.addfile(info, io.BytesIO(data))
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return packed.getvalue()


def publish_body(base: str, name: str, version: str, description: str, *, tag: str = "latest",
                 dependencies: dict | None = None, keywords: list | None = None,
                 readme: str | None = None) -> dict:
    """The body of `PUT /{name}` that npm 10 sends to publish one version of ``name``."""
    manifest = {"name": name, "version": version, "description": description, "main": "index.js",
                "license": "MIT", "keywords": keywords or [], "dependencies": dependencies or {}}
    readme = readme if readme is not None else f"# {name}\n\n{description}\n"
    data = tarball(manifest, {"index.js": f"module.exports = {json.dumps(name + '@' + version)};\n",
                              "README.md": readme})
    file_name = f"{name.split('/')[-1]}-{version}.tgz"
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    shown = {**manifest, "_id": f"{name}@{version}", "readme": readme,
             "dist": {"integrity": integrity, "shasum": hashlib.sha1(data).hexdigest(),
                      "tarball": f"{base}/{name}/-/{file_name}"}}
    return {"_id": name, "name": name, "description": description, "dist-tags": {tag: version},
            "versions": {version: shown}, "readme": readme,
            "_attachments": {file_name: {"content_type": "application/octet-stream",
                                         "data": base64.b64encode(data).decode(), "length": len(data)}}}
