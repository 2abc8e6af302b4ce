#!/usr/bin/env python3
"""Scenario driver for OpenStack Barbican 23.0.0 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46201 --mode capture [-v]

Every call sends the identity headers the `context` filter trusts without Keystone
(`X-Identity-Status: Confirmed`, `X-Project-Id: demo`, `X-User-Id: alice`, `X-Roles: admin,member,reader`)
and `Accept: application/json` (a secret read with another Accept answers its payload), no
Authorization header and no cookie. The seed (seed.py, run by start.sh, not recorded) and its fixed
ids are in seed.py's docstring. Every ref is a full URL under http://localhost:9311 (host_href).
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seed import fixed  # noqa: E402  (the seed's fixed ids)

HOST = "http://localhost:9311/v1"
NEVER = "00000000-0000-4000-8000-00000000dead"  # a version 4 uuid nothing ever has
HEADERS = {"X-Identity-Status": "Confirmed", "X-Project-Id": "demo", "X-User-Id": "alice",
           "X-Roles": "admin,member,reader", "Accept": "application/json"}


class BarbicanDriver(Driver):
    """The kit's driver with Barbican's identity headers on every call."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=None, **kwargs):
        headers = {**HEADERS, **(kwargs.pop("headers", None) or {})}
        return super().call(method, path, body=body, raw=raw, params=params, expect=expect,
                            headers=headers, token=None, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return BarbicanDriver(base, min_sleep, max_sleep, verbose)


def tail(ref):
    return ref.rstrip("/").rsplit("/", 1)[1] if isinstance(ref, str) else NEVER


def capture(d):
    call, check, get = d.call, d.check, d.get
    db_password, api_key, aes, tls, staging, ordered = (
        fixed("secret", n) for n in ("db-password", "api-key", "aes-master", "tls-cert", "staging-password",
                                     "seed-order"))
    ops_token = fixed("secret", "ops-token")
    app_credentials, web_tls = fixed("container", "app-credentials"), fixed("container", "web-tls")
    seed_order = fixed("order", "seed-order")
    text = {"Accept": "text/plain"}

    def created(kind, body, expect=201):
        status, got = call("POST", f"/v1/{kind}", body, expect=expect)
        ref = got.get(f"{kind[:-1]}_ref") if isinstance(got, dict) else None
        return tail(ref)

    # ---- a. reads of the seed before any write
    call("GET", "/", expect=300)  # the versions document answers 300 Multiple Choices
    get("/v1")
    get("/v1/secrets")
    for s in (db_password, api_key, aes, tls, staging, ordered):
        get(f"/v1/secrets/{s}")
    call("GET", f"/v1/secrets/{db_password}/payload", headers=text, expect=200)
    call("GET", f"/v1/secrets/{api_key}/payload", headers=text, expect=200)
    get(f"/v1/secrets/{db_password}/metadata")
    get(f"/v1/secrets/{staging}/metadata")
    get(f"/v1/secrets/{db_password}/metadata/env")
    get(f"/v1/secrets/{api_key}/acl")
    get(f"/v1/secrets/{db_password}/acl")
    get(f"/v1/secrets/{db_password}/consumers")
    get("/v1/containers")
    get(f"/v1/containers/{app_credentials}")
    get(f"/v1/containers/{web_tls}")
    get(f"/v1/containers/{app_credentials}/acl")
    get(f"/v1/containers/{app_credentials}/consumers")
    get("/v1/orders")
    get(f"/v1/orders/{seed_order}")
    get("/v1/quotas")
    get("/v1/project-quotas")

    # ---- b. filters, sort, paging
    get("/v1/secrets", name="db-password")
    get("/v1/secrets", name="tls-cert")
    get("/v1/secrets", alg="aes")
    get("/v1/secrets", alg="aes", bits="256")
    get("/v1/secrets", secret_type="passphrase")
    get("/v1/secrets", mode="cbc")
    get("/v1/secrets", sort="name:asc")
    get("/v1/secrets", sort="created:desc")
    get("/v1/secrets", limit="2")
    get("/v1/secrets", limit="2", offset="2")
    get("/v1/secrets", limit="2", offset="4")
    get("/v1/containers", name="web-tls")
    get("/v1/containers", type="generic")
    get("/v1/containers", limit="1", offset="1")
    get("/v1/orders", limit="1")

    # ---- c. absences and bad requests
    get(f"/v1/secrets/{NEVER}", expect=404)
    get("/v1/secrets/not-a-uuid", expect=404)
    get(f"/v1/secrets/{ops_token}")  # another project's secret: readable by id with the admin role
    get(f"/v1/secrets/{NEVER}/metadata", expect=404)
    get(f"/v1/secrets/{db_password}/metadata/nothing", expect=404)
    get(f"/v1/containers/{NEVER}", expect=404)
    get(f"/v1/orders/{NEVER}", expect=404)
    get(f"/v1/secrets/{NEVER}/acl", expect=404)
    call("POST", "/v1/secrets", {"name": "bad-type", "secret_type": "not-a-type"}, expect=400)
    call("POST", "/v1/secrets", {"name": "no-content-type", "payload": "abc"}, expect=400)
    call("POST", "/v1/secrets", {"name": "odd-content-type", "payload": "abc", "payload_content_type": "image/png"},
         expect=400)
    call("POST", "/v1/secrets", {"name": "bad-encoding", "payload": "abc",
                                 "payload_content_type": "application/octet-stream",
                                 "payload_content_encoding": "rot13"}, expect=400)
    call("POST", "/v1/secrets", {"name": "past", "expiration": "2001-01-01T00:00:00Z"}, expect=400)
    call("POST", "/v1/secrets", raw="{not json", expect=400)
    call("POST", "/v1/secrets", {"name": "x" * 300}, expect=400)
    call("POST", "/v1/containers", {"name": "bad", "type": "nonsense"}, expect=400)
    call("POST", "/v1/containers", {"name": "missing", "type": "generic",
                                    "secret_refs": [{"name": "a", "secret_ref": f"{HOST}/secrets/{NEVER}"}]},
         expect=404)
    call("POST", "/v1/orders", {"type": "key", "meta": {"algorithm": "aes", "bit_length": 100, "mode": "cbc"}},
         expect=400)
    call("POST", "/v1/orders", {"type": "nonsense", "meta": {}}, expect=400)

    # ---- d. secrets: created with the payload, and metadata-only then the payload by PUT
    s1 = created("secrets", {"name": "svc-password", "secret_type": "passphrase", "payload": "hunter2-svc",
                             "payload_content_type": "text/plain"})
    got = get(f"/v1/secrets/{s1}")
    check("svc-password's name", got.get("name"), "svc-password")
    call("GET", f"/v1/secrets/{s1}/payload", headers=text, expect=200)
    get("/v1/secrets")
    s2 = created("secrets", {"name": "svc-key", "secret_type": "symmetric", "algorithm": "aes", "bit_length": 192,
                             "mode": "ctr"})
    got = get(f"/v1/secrets/{s2}")
    check("svc-key without a payload", got.get("status"), "ACTIVE")
    call("GET", f"/v1/secrets/{s2}/payload", headers=text, expect=404)
    call("PUT", f"/v1/secrets/{s2}", raw=base64.b64encode(bytes(range(24))).decode(),
         headers={"Content-Type": "application/octet-stream", "Content-Encoding": "base64"}, expect=204)
    get(f"/v1/secrets/{s2}")
    call("GET", f"/v1/secrets/{s2}/payload", headers={"Accept": "application/octet-stream"}, expect=200)
    s3 = created("secrets", {"name": "partner-token", "secret_type": "opaque", "expiration": "2031-06-30T12:00:00Z"})
    get(f"/v1/secrets/{s3}")
    call("PUT", f"/v1/secrets/{s3}", raw="pt_9f8e7d6c", headers={"Content-Type": "text/plain"}, expect=204)
    get(f"/v1/secrets/{s3}")
    call("GET", f"/v1/secrets/{s3}/payload", headers=text, expect=200)
    call("PUT", f"/v1/secrets/{s3}", raw="again", headers={"Content-Type": "text/plain"}, expect=409)
    call("PUT", f"/v1/secrets/{NEVER}", raw="nothing", headers={"Content-Type": "text/plain"}, expect=404)
    s4 = created("secrets", {"name": "build-cert", "secret_type": "certificate"})
    call("PUT", f"/v1/secrets/{s4}", raw="cert", headers={"Content-Type": "image/png"}, expect=415)
    get(f"/v1/secrets/{s4}")
    call("PUT", f"/v1/secrets/{s4}", raw="-----BEGIN CERTIFICATE-----\nMIIBbuild\n-----END CERTIFICATE-----\n",
         headers={"Content-Type": "text/plain"}, expect=204)
    get(f"/v1/secrets/{s4}")
    s5 = created("secrets", {"name": "svc-password", "secret_type": "passphrase", "payload": "second-of-name",
                             "payload_content_type": "text/plain"})  # names are not unique
    get(f"/v1/secrets/{s5}")
    get("/v1/secrets", name="svc-password")
    get("/v1/secrets", alg="aes")
    get("/v1/secrets", secret_type="opaque")
    get("/v1/secrets")
    get("/v1/secrets", limit="3", offset="6")
    get("/v1/secrets", sort="name:desc", limit="4")

    # ---- e. secret metadata: the whole document, one key added, updated, deleted
    get(f"/v1/secrets/{s1}/metadata")
    call("PUT", f"/v1/secrets/{s1}/metadata", {"metadata": {"team": "payments", "rotation": "90d"}}, expect=201)
    get(f"/v1/secrets/{s1}/metadata")
    call("PUT", f"/v1/secrets/{s1}/metadata", {"metadata": {"team": "billing"}}, expect=201)
    get(f"/v1/secrets/{s1}/metadata")
    call("POST", f"/v1/secrets/{s1}/metadata", {"key": "tier", "value": "gold"}, expect=201)
    get(f"/v1/secrets/{s1}/metadata")
    get(f"/v1/secrets/{s1}/metadata/tier")
    call("POST", f"/v1/secrets/{s1}/metadata", {"key": "tier", "value": "silver"}, expect=409)
    call("PUT", f"/v1/secrets/{s1}/metadata/tier", {"key": "tier", "value": "platinum"}, expect=200)
    get(f"/v1/secrets/{s1}/metadata/tier")
    get(f"/v1/secrets/{s1}/metadata")
    call("PUT", f"/v1/secrets/{s1}/metadata/tier", {"key": "other", "value": "x"}, expect=409)
    call("POST", f"/v1/secrets/{s3}/metadata", {"key": "partner", "value": "acme"}, expect=201)
    get(f"/v1/secrets/{s3}/metadata")
    call("DELETE", f"/v1/secrets/{s1}/metadata/tier", expect=204)
    get(f"/v1/secrets/{s1}/metadata/tier", expect=404)
    get(f"/v1/secrets/{s1}/metadata")
    call("DELETE", f"/v1/secrets/{s1}/metadata/tier", expect=204)  # a missing key deletes nothing, 204
    call("PUT", f"/v1/secrets/{s1}/metadata", {"wrong": {}}, expect=400)
    call("PUT", f"/v1/secrets/{db_password}/metadata", {"metadata": {"env": "prod", "owner": "platform"}},
         expect=201)
    get(f"/v1/secrets/{db_password}/metadata")

    # ---- f. ACLs of secrets
    get(f"/v1/secrets/{s1}/acl")
    call("PUT", f"/v1/secrets/{s1}/acl", {"read": {"users": ["bob", "dave"], "project-access": False}},
         expect=200)
    get(f"/v1/secrets/{s1}/acl")
    call("PATCH", f"/v1/secrets/{s1}/acl", {"read": {"users": ["erin"]}}, expect=200)
    get(f"/v1/secrets/{s1}/acl")
    call("PATCH", f"/v1/secrets/{s1}/acl", {"read": {"project-access": True}}, expect=200)
    get(f"/v1/secrets/{s1}/acl")
    call("PUT", f"/v1/secrets/{s3}/acl", {"read": {"users": ["frank"]}}, expect=200)
    get(f"/v1/secrets/{s3}/acl")
    call("PUT", f"/v1/secrets/{s3}/acl", {"write": {"users": ["frank"]}}, expect=400)
    call("DELETE", f"/v1/secrets/{s1}/acl", expect=200)
    get(f"/v1/secrets/{s1}/acl")
    call("DELETE", f"/v1/secrets/{s3}/acl", expect=200)
    get(f"/v1/secrets/{s3}/acl")
    get("/v1/secrets", acl_only="true")

    # ---- g. secret consumers
    get(f"/v1/secrets/{s1}/consumers")
    vm2, vm3 = fixed("resource", "vm-2"), fixed("resource", "vm-3")
    call("POST", f"/v1/secrets/{s1}/consumers", {"service": "nova", "resource_type": "instance",
                                                 "resource_id": vm2}, expect=200)
    get(f"/v1/secrets/{s1}/consumers")
    call("POST", f"/v1/secrets/{s1}/consumers", {"service": "cinder", "resource_type": "volume",
                                                 "resource_id": vm3}, expect=200)
    get(f"/v1/secrets/{s1}/consumers")
    get(f"/v1/secrets/{s1}")
    call("POST", f"/v1/secrets/{s1}/consumers", {"service": "nova"}, expect=400)
    call("DELETE", f"/v1/secrets/{s1}/consumers", {"service": "nova", "resource_type": "instance",
                                                   "resource_id": vm2}, expect=200)
    get(f"/v1/secrets/{s1}/consumers")
    call("DELETE", f"/v1/secrets/{s1}/consumers", {"service": "nova", "resource_type": "instance",
                                                   "resource_id": vm2}, expect=404)

    # ---- h. containers: generic and certificate, secrets added and removed, consumers, ACLs
    c1 = created("containers", {"name": "svc-bundle", "type": "generic", "secret_refs": [
        {"name": "password", "secret_ref": f"{HOST}/secrets/{s1}"},
        {"name": "key", "secret_ref": f"{HOST}/secrets/{s2}"}]})
    got = get(f"/v1/containers/{c1}")
    check("svc-bundle's secrets", len(got.get("secret_refs", [])), 2)
    get("/v1/containers")
    c2 = created("containers", {"name": "build-tls", "type": "certificate", "secret_refs": [
        {"name": "certificate", "secret_ref": f"{HOST}/secrets/{s4}"}]})
    get(f"/v1/containers/{c2}")
    c3 = created("containers", {"name": "empty-box", "type": "generic"})
    get(f"/v1/containers/{c3}")
    call("POST", "/v1/containers", {"name": "bad-cert", "type": "certificate", "secret_refs": [
        {"name": "password", "secret_ref": f"{HOST}/secrets/{s1}"}]}, expect=400)
    get("/v1/containers", name="empty-box")
    get("/v1/containers", type="certificate")
    call("POST", f"/v1/containers/{c3}/secrets", {"name": "token", "secret_ref": f"{HOST}/secrets/{s3}"},
         expect=201)
    get(f"/v1/containers/{c3}")
    call("POST", f"/v1/containers/{c3}/secrets", {"name": "cert", "secret_ref": f"{HOST}/secrets/{s4}"},
         expect=201)
    get(f"/v1/containers/{c3}")
    call("POST", f"/v1/containers/{c3}/secrets", {"name": "token", "secret_ref": f"{HOST}/secrets/{s3}"},
         expect=409)
    call("DELETE", f"/v1/containers/{c3}/secrets", {"name": "cert", "secret_ref": f"{HOST}/secrets/{s4}"},
         expect=204)
    get(f"/v1/containers/{c3}")
    call("DELETE", f"/v1/containers/{c3}/secrets", {"name": "cert", "secret_ref": f"{HOST}/secrets/{s4}"},
         expect=404)
    call("POST", f"/v1/containers/{c2}/secrets", {"name": "extra", "secret_ref": f"{HOST}/secrets/{s1}"},
         expect=400)
    call("POST", f"/v1/containers/{c1}/consumers", {"name": "lbaas", "URL": "http://lb.example/listeners/1"},
         expect=200)
    get(f"/v1/containers/{c1}")
    get(f"/v1/containers/{c1}/consumers")
    call("POST", f"/v1/containers/{c1}/consumers", {"name": "octavia", "URL": "http://lb.example/listeners/2"},
         expect=200)
    get(f"/v1/containers/{c1}/consumers")
    call("POST", f"/v1/containers/{c1}/consumers", {"name": "no-url"}, expect=400)
    call("DELETE", f"/v1/containers/{c1}/consumers", {"name": "lbaas", "URL": "http://lb.example/listeners/1"},
         expect=200)
    get(f"/v1/containers/{c1}/consumers")
    get(f"/v1/containers/{c1}")
    call("PUT", f"/v1/containers/{c1}/acl", {"read": {"users": ["bob"], "project-access": False}}, expect=200)
    get(f"/v1/containers/{c1}/acl")
    call("PATCH", f"/v1/containers/{c1}/acl", {"read": {"users": ["carol", "dave"]}}, expect=200)
    get(f"/v1/containers/{c1}/acl")
    call("DELETE", f"/v1/containers/{c1}/acl", expect=200)
    get(f"/v1/containers/{c1}/acl")

    # ---- i. orders: key orders make a secret (ACTIVE at once: no queue), asymmetric, errors
    o1 = created("orders", {"type": "key", "meta": {"name": "order-key-256", "algorithm": "aes", "bit_length": 256,
                                                    "mode": "cbc",
                                                    "payload_content_type": "application/octet-stream"}},
                 expect=202)
    got = get(f"/v1/orders/{o1}")
    check("order-key-256's status", got.get("status"), "ACTIVE")
    made = tail(got.get("secret_ref"))
    get(f"/v1/secrets/{made}")
    get("/v1/secrets", name="order-key-256")
    get("/v1/orders")
    o2 = created("orders", {"type": "key", "meta": {"name": "order-key-128", "algorithm": "aes", "bit_length": 128,
                                                    "mode": "ctr", "expiration": "2032-01-01T00:00:00Z",
                                                    "payload_content_type": "application/octet-stream"}},
                 expect=202)
    got = get(f"/v1/orders/{o2}")
    made2 = tail(got.get("secret_ref"))
    get(f"/v1/secrets/{made2}")
    o3 = created("orders", {"type": "asymmetric", "meta": {"name": "order-rsa", "algorithm": "rsa",
                                                           "bit_length": 2048,
                                                           "payload_content_type": "application/octet-stream"}},
                 expect=202)
    got = get(f"/v1/orders/{o3}")
    get(f"/v1/containers/{tail(got.get('container_ref'))}")
    get("/v1/orders", limit="2", offset="1")
    call("DELETE", f"/v1/orders/{o2}", expect=204)
    get(f"/v1/orders/{o2}", expect=404)
    get(f"/v1/secrets/{made2}")  # the order's secret outlives it
    get("/v1/orders")
    call("DELETE", f"/v1/orders/{o2}", expect=404)

    # ---- j. quotas of projects
    get("/v1/project-quotas/demo", expect=404)
    call("PUT", "/v1/project-quotas/demo", {"project_quotas": {"secrets": 50, "orders": 10, "containers": 20}},
         expect=204)
    get("/v1/project-quotas/demo")
    get("/v1/quotas")
    call("PUT", "/v1/project-quotas/ops", {"project_quotas": {"secrets": 5, "orders": 0, "containers": -1,
                                                              "consumers": 3, "cas": 1}}, expect=204)
    get("/v1/project-quotas/ops")
    get("/v1/project-quotas")
    call("PUT", "/v1/project-quotas/demo", {"project_quotas": {"secrets": 75}}, expect=204)
    get("/v1/project-quotas/demo")
    call("PUT", "/v1/project-quotas/demo", {"project_quotas": {"secrets": "many"}}, expect=400)
    call("DELETE", "/v1/project-quotas/ops", expect=204)
    get("/v1/project-quotas/ops", expect=404)
    get("/v1/project-quotas")

    # ---- k. deletes: containers, then secrets (the containers that hold them drop them)
    call("DELETE", f"/v1/containers/{c3}", expect=204)
    get(f"/v1/containers/{c3}", expect=404)
    get("/v1/containers")
    call("DELETE", f"/v1/containers/{c3}", expect=404)
    get(f"/v1/containers/{c2}")
    call("DELETE", f"/v1/secrets/{s4}", expect=204)
    get(f"/v1/secrets/{s4}", expect=404)
    get(f"/v1/containers/{c2}")
    call("DELETE", f"/v1/secrets/{s5}", expect=204)
    get(f"/v1/secrets/{s5}", expect=404)
    get("/v1/secrets", name="svc-password")
    call("DELETE", f"/v1/secrets/{s5}", expect=404)
    call("DELETE", f"/v1/secrets/{s3}", expect=204)
    get(f"/v1/secrets/{s3}/metadata", expect=404)
    call("DELETE", f"/v1/secrets/{made}", expect=204)
    get(f"/v1/orders/{o1}")
    call("DELETE", f"/v1/secrets/{NEVER}", expect=404)
    get("/v1/secrets")
    get("/v1/secrets", limit="5", offset="5")
    get("/v1/containers")
    get("/v1/orders")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46201")
