#!/usr/bin/env python3
"""Write a tiny image as a docker-archive tarball, byte for byte the same on every run.

Usage: python3 make_image.py OUT.tar

No registry is reachable here, so start.sh loads this archive (`podman load`) instead of pulling.
The image's one layer holds three small text files (no program: the capture creates containers but
never starts them); its configuration has a fixed `created` clock, so its id (the sha256 of the
configuration) is the same on every start: sha256:<hex> printed on stdout. Tagged
localhost/capenv/hello:1.0 (and :latest).
"""
import hashlib
import io
import json
import sys
import tarfile

CLOCK = 1767225600  # 2026-01-01T00:00:00Z
FILES = {
    "etc/motd": b"capenv podman image: nothing to run here\n",
    "etc/hostname": b"capenv\n",
    "srv/hello.txt": b"hello from the capenv image\n",
}


def tar_bytes(members: dict[str, bytes], dirs: list[str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in dirs:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, CLOCK
            tar.addfile(info)
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, CLOCK
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def main(path: str) -> None:
    layer = tar_bytes(FILES, ["etc", "srv"])
    diff_id = "sha256:" + hashlib.sha256(layer).hexdigest()
    config = json.dumps({
        "architecture": "amd64", "os": "linux", "created": "2026-01-01T00:00:00Z", "author": "capenv",
        "config": {"Env": ["PATH=/usr/local/bin:/usr/bin:/bin"], "Cmd": ["/bin/hello"], "WorkingDir": "/srv",
                   "Labels": {"org.opencontainers.image.title": "capenv-hello", "maintainer": "capenv"}},
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
        "history": [{"created": "2026-01-01T00:00:00Z", "created_by": "make_image.py", "comment": "three text files"}],
    }, sort_keys=True, separators=(",", ":")).encode()
    image_id = hashlib.sha256(config).hexdigest()
    layer_dir = hashlib.sha256(layer).hexdigest()
    manifest = json.dumps([{"Config": f"{image_id}.json",
                            "RepoTags": ["localhost/capenv/hello:1.0", "localhost/capenv/hello:latest"],
                            "Layers": [f"{layer_dir}/layer.tar"]}]).encode()
    archive = tar_bytes({f"{image_id}.json": config, f"{layer_dir}/layer.tar": layer, "manifest.json": manifest},
                        [layer_dir])
    with open(path, "wb") as out:
        out.write(archive)
    print(f"sha256:{image_id}")


if __name__ == "__main__":
    main(sys.argv[1])
