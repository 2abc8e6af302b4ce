#!/usr/bin/env python3
"""Seed a fresh OpenStack Barbican 23.0.0 through its API, then fix its ids and clocks in SQLite.

Usage: python3 seed.py BASE_URL SQLITE_FILE   (standard library only; start.sh runs it, not recorded)

Barbican generates every id (uuid4) and stamps every row with the time it was made, so a seed made
through the API alone would differ on every start. After the API calls this rewrites, in the
database file the running server reads (a session per request, so nothing is cached), every seeded
secret, container and order id to a fixed uuid of what it names (a uuid5 stamped as version 4) (NAMESPACE below, `secret:NAME`,
`container:NAME`, `order:NAME`) in every column that refers to it, and every created/updated clock of
the seeded rows to 2026-01-01T00:00:NN (NN the row's order), so that every fresh start answers alike.

Project `demo` (user alice, roles admin, member, reader):
- secrets: db-password (passphrase, text/plain payload, metadata env=prod and owner=dba, a consumer
  nova/instance), api-key (opaque, text/plain, a read ACL for user bob without project access),
  aes-master (symmetric aes 256 cbc, application/octet-stream base64 payload), tls-cert
  (certificate, text/plain), staging-password (passphrase, metadata env=staging, expires
  2030-01-01), and the secret of the key order seed-order (symmetric aes 128 cbc, generated);
- containers: app-credentials (generic: db-password as "password", api-key as "key"), web-tls
  (certificate: tls-cert as "certificate");
- orders: seed-order (key, aes 128 cbc), ACTIVE with its secret.
Project `ops` (user carol): the secret ops-token (opaque).
"""
import base64
import sqlite3
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import fixed_uuid4, json_call  # noqa: E402

NAMESPACE = uuid.UUID("6b1f3c2e-8d4a-4f5e-9a7b-2c3d4e5f6a7b")


def fixed(kind, name):
    return fixed_uuid4(NAMESPACE, kind, name)


def headers(project, user):
    return {"X-Identity-Status": "Confirmed", "X-Project-Id": project, "X-User-Id": user,
            "X-Roles": "admin,member,reader"}


def call(base, method, path, body=None, raw=None, content_type="application/json",
         project="demo", user="alice"):
    return json_call(base, method, path, headers(project, user), body, raw, content_type)


def tail(ref):
    return ref.rstrip("/").rsplit("/", 1)[1]


def main(base, db):
    ids = {}  # generated id -> fixed id

    def secret(name, body, payload=None, content_type="text/plain", project="demo", user="alice"):
        ref = call(base, "POST", "/v1/secrets", {"name": name, **body}, project=project, user=user)["secret_ref"]
        if payload is not None:
            call(base, "PUT", "/v1/secrets/" + tail(ref), raw=payload, content_type=content_type,
                 project=project, user=user)
        ids[tail(ref)] = fixed("secret", name)
        return ref

    db_password = secret("db-password", {"secret_type": "passphrase"}, "correct-horse-battery")
    api_key = secret("api-key", {"secret_type": "opaque"}, "ak_live_7Q2x9Lm4")
    aes = secret("aes-master", {"secret_type": "symmetric", "algorithm": "aes", "bit_length": 256,
                                "mode": "cbc", "payload": base64.b64encode(bytes(range(32))).decode(),
                                "payload_content_type": "application/octet-stream",
                                "payload_content_encoding": "base64"})
    tls = secret("tls-cert", {"secret_type": "certificate"},
                 "-----BEGIN CERTIFICATE-----\nMIIBseedcertificate\n-----END CERTIFICATE-----\n")
    staging = secret("staging-password", {"secret_type": "passphrase", "expiration": "2030-01-01T00:00:00Z",
                                          "payload": "staging-only", "payload_content_type": "text/plain"})
    secret("ops-token", {"secret_type": "opaque", "payload": "ops-0001", "payload_content_type": "text/plain"},
           project="ops", user="carol")
    call(base, "PUT", f"/v1/secrets/{tail(db_password)}/metadata", {"metadata": {"env": "prod", "owner": "dba"}})
    call(base, "PUT", f"/v1/secrets/{tail(staging)}/metadata", {"metadata": {"env": "staging"}})
    call(base, "PUT", f"/v1/secrets/{tail(api_key)}/acl", {"read": {"users": ["bob"], "project-access": False}})
    call(base, "POST", f"/v1/secrets/{tail(db_password)}/consumers",
         {"service": "nova", "resource_type": "instance", "resource_id": fixed("resource", "vm-1")})
    del aes
    app = call(base, "POST", "/v1/containers", {"name": "app-credentials", "type": "generic", "secret_refs": [
        {"name": "password", "secret_ref": db_password}, {"name": "key", "secret_ref": api_key}]})["container_ref"]
    ids[tail(app)] = fixed("container", "app-credentials")
    web = call(base, "POST", "/v1/containers", {"name": "web-tls", "type": "certificate", "secret_refs": [
        {"name": "certificate", "secret_ref": tls}]})["container_ref"]
    ids[tail(web)] = fixed("container", "web-tls")
    order = call(base, "POST", "/v1/orders", {"type": "key", "meta": {
        "name": "seed-order", "algorithm": "aes", "bit_length": 128, "mode": "cbc",
        "payload_content_type": "application/octet-stream"}})["order_ref"]
    ids[tail(order)] = fixed("order", "seed-order")
    got = call(base, "GET", "/v1/orders/" + tail(order))
    if got.get("status") != "ACTIVE" or not got.get("secret_ref"):
        raise SystemExit(f"seed order not ACTIVE: {got}")
    ids[tail(got["secret_ref"])] = fixed("secret", "seed-order")

    references = {
        "secrets": ["id"], "encrypted_data": ["secret_id"], "secret_store_metadata": ["secret_id"],
        "secret_user_metadata": ["secret_id"], "secret_acls": ["secret_id", "container_id"],
        "container_secret": ["secret_id", "container_id"], "orders": ["id", "secret_id", "container_id"],
        "secret_consumer_metadata": ["secret_id"], "containers": ["id"], "container_acls": ["container_id"],
        "container_consumer_metadata": ["container_id"], "order_barbican_metadata": ["order_id"],
        "order_plugin_metadata": ["order_id"], "order_retry_tasks": ["order_id"],
    }
    clocked = ["secrets", "encrypted_data", "secret_store_metadata", "secret_user_metadata", "secret_acls",
               "secret_acl_users", "container_secret", "orders", "secret_consumer_metadata", "containers",
               "order_barbican_metadata", "order_plugin_metadata", "kek_data", "projects", "project_secret_store"]
    c = sqlite3.connect(f"file:{db}?mode=rw", uri=True)
    with c:
        for table, columns in references.items():
            present = {row[1] for row in c.execute(f"PRAGMA table_info({table})")}
            for column in columns:
                if column not in present:
                    continue
                for old, new in ids.items():
                    c.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
        for table in clocked:
            rows = [r[0] for r in c.execute(f"SELECT rowid FROM {table} ORDER BY created_at, rowid")]
            for n, rowid in enumerate(rows):
                stamp = f"2026-01-01 00:00:{n:02d}.000000"
                c.execute(f"UPDATE {table} SET created_at = ?, updated_at = ? WHERE rowid = ?", (stamp, stamp, rowid))
    c.close()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
