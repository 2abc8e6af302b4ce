#!/usr/bin/env python3
"""Seed a fresh OpenStack Glance 33.0.0 through its API, then fix its clocks in SQLite.

Usage: python3 seed.py BASE_URL SQLITE_FILE   (standard library only; start.sh runs it, not recorded)

Glance takes the id of a new image from its create body, so every seeded image has a fixed uuid of
what it names (a uuid5 stamped as version 4, NAMESPACE below, `image:NAME`); metadefs are named by
their namespace. It stamps every row with the time it was made, so after the API calls this
rewrites, in the database file the running server reads (a session per request, nothing cached),
every created/updated clock to 2026-01-01T00:00:NN (NN the row's order in its table), so that every
fresh start answers alike.

Project `demo` (user alice, roles admin, member, reader):
- images: cirros (public, raw/bare, 16 bytes uploaded: active, tags cirros and test, os_distro
  cirros), ubuntu-jammy (public, qcow2/bare, queued, tags ubuntu and lts, os_distro ubuntu,
  min_disk 10, min_ram 512), build-cache (private, raw/bare, queued, purpose=ci, protected),
  shared-tools (shared, raw/bare, 8 bytes uploaded: active, tag tools; shared with project qa,
  its member status pending);
- metadefs: namespace OS::Demo::Compute (public; property cpu_policy, an enum; object
  Accelerator with property count; tags fast and ssd), namespace OS::Demo::Storage (private, no
  members).
Project `ops` (user carol): the image ops-backup (private, raw/bare, queued).
"""
import sqlite3
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import fixed_uuid4, json_call  # noqa: E402

NAMESPACE = uuid.UUID("3c9e1f7a-5b2d-4e8f-a1c3-7d6e5f4a3b2c")


def fixed(kind, name):
    return fixed_uuid4(NAMESPACE, kind, name)


def headers(project, user):
    return {"X-Identity-Status": "Confirmed", "X-Tenant-Id": project, "X-User-Id": user,
            "X-Roles": "admin,member,reader"}


def call(base, method, path, body=None, raw=None, content_type="application/json",
         project="demo", user="alice"):
    return json_call(base, method, path, headers(project, user), body, raw, content_type)


def main(base, db):
    def image(name, body, data=None, project="demo", user="alice"):
        image_id = fixed("image", name)
        call(base, "POST", "/v2/images", {"id": image_id, "name": name, "container_format": "bare", **body},
             project=project, user=user)
        if data is not None:
            call(base, "PUT", f"/v2/images/{image_id}/file", raw=data, content_type="application/octet-stream",
                 project=project, user=user)
        return image_id

    image("cirros", {"disk_format": "raw", "visibility": "public", "tags": ["cirros", "test"],
                     "os_distro": "cirros"}, b"cirros-0.6.2-x86")
    image("ubuntu-jammy", {"disk_format": "qcow2", "visibility": "public", "tags": ["ubuntu", "lts"],
                           "os_distro": "ubuntu", "min_disk": 10, "min_ram": 512})
    image("build-cache", {"disk_format": "raw", "visibility": "private", "purpose": "ci", "protected": True})
    shared_tools = image("shared-tools", {"disk_format": "raw", "visibility": "shared", "tags": ["tools"]},
                         b"tools-v1")
    call(base, "POST", f"/v2/images/{shared_tools}/members", {"member": "qa"})
    image("ops-backup", {"disk_format": "raw", "visibility": "private"}, project="ops", user="carol")
    got = call(base, "GET", "/v2/images/" + fixed("image", "cirros"))
    if got.get("status") != "active":
        raise SystemExit(f"seed image cirros not active: {got}")

    call(base, "POST", "/v2/metadefs/namespaces", {
        "namespace": "OS::Demo::Compute", "display_name": "Demo compute", "description": "Compute hints",
        "visibility": "public", "protected": False,
        "properties": {"cpu_policy": {"type": "string", "title": "CPU policy", "enum": ["shared", "dedicated"]}},
        "objects": [{"name": "Accelerator", "description": "An accelerator",
                     "properties": {"count": {"type": "integer", "title": "Count", "minimum": 0}}}],
        "tags": [{"name": "fast"}, {"name": "ssd"}]})
    call(base, "POST", "/v2/metadefs/namespaces", {
        "namespace": "OS::Demo::Storage", "display_name": "Demo storage", "visibility": "private"})

    c = sqlite3.connect(f"file:{db}?mode=rw", uri=True)
    with c:
        tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = {row[1] for row in c.execute(f"PRAGMA table_info({table})")}
            if not {"created_at", "updated_at"} <= columns:
                continue
            rows = [r[0] for r in c.execute(f"SELECT rowid FROM {table} ORDER BY created_at, rowid")]
            for n, rowid in enumerate(rows):
                stamp = f"2026-01-01 00:00:{n:02d}.000000"
                c.execute(f"UPDATE {table} SET created_at = ?, updated_at = ? WHERE rowid = ?", (stamp, stamp, rowid))
    c.close()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
