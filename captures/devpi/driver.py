#!/usr/bin/env python3
"""Scenario driver for devpi-server 6.20.3's JSON API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43043 --mode capture [-v]

Every call asks for JSON (``Accept: application/json``); every write (and a few reads) sends
``X-Devpi-Auth: base64(root:password)``, the throwaway root pair start.sh gives devpi-init (devpi
takes a password where it takes a login token, so no token that expires is needed). Reads are
anonymous. The seed (seed.py, run by start.sh, not recorded): users root, alice, bob; indexes
root/base, alice/dev (bases root/base), alice/staging (bases alice/dev, root/base), bob/release.
Users and indexes have client-chosen names: ``PUT /{user}`` creates a user, ``PUT /{user}/{index}``
an index; ``PATCH`` changes them, ``DELETE`` removes them (a user with its indexes). Answers are
``{"type": ..., "result": ...}`` or ``{"message": ...}``; the root ``/`` lists the users as an
object keyed by name, each with its indexes as an object keyed by index name. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ROOT = ("root", "capenv-devpi-throwaway")
AUTH = {"X-Devpi-Auth": base64.b64encode(":".join(ROOT).encode()).decode()}


def make_driver(base, min_sleep, max_sleep, verbose):
    d = Driver(base, min_sleep, max_sleep, verbose, token=None)
    d.c.headers["Accept"] = "application/json"
    return d


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, auth=False):
        return call("GET", path, expect=expect, headers=AUTH if auth else None)[1]

    def send(method, path, body=None, expect=None, raw=None, auth=True):
        return call(method, path, body, raw=raw, expect=expect, headers=AUTH if auth else None)[1]

    def result(answer):
        return answer.get("result") if isinstance(answer, dict) else None

    def users():
        return sorted((result(get("/")) or {}).keys())

    # ---- a. reads before any write: the API description, the root listing, every user and index,
    # absences
    get("/+api")
    get("/+api", auth=True)
    check("users", users(), ["alice", "bob", "root"])
    for user in ("root", "alice", "bob"):
        get(f"/{user}")
    for index in ("root/base", "alice/dev", "alice/staging", "bob/release"):
        get(f"/{index}")
    get("/nobody", expect=404)
    get("/alice/nope", expect=404)
    get("/nobody/dev", expect=404)
    get("/root/pypi", expect=404)

    # ---- b. login: a token for alice, a wrong password, an unknown user
    answer = send("POST", "/+login", {"user": "alice", "password": "capenv-alice-throwaway"}, expect=200,
                  auth=False)
    check("login type", answer.get("type") if isinstance(answer, dict) else None, "proxyauth")
    send("POST", "/+login", {"user": "alice", "password": "wrong"}, expect=401, auth=False)
    send("POST", "/+login", {"user": "nobody", "password": "x"}, expect=401, auth=False)

    # ---- c. users: create (two shapes), read back, the root listing after each write
    send("PUT", "/carol", {"password": "capenv-carol-throwaway", "email": "carol@example.com"}, expect=201)
    get("/carol")
    check("users after carol", users(), ["alice", "bob", "carol", "root"])
    send("PUT", "/dave", {"password": "capenv-dave-throwaway", "email": "dave@example.net",
                          "title": "Dave Example", "description": "builds wheels"}, expect=201)
    get("/dave")
    get("/")
    send("PUT", "/erin.v2", {"password": "capenv-erin-throwaway"}, expect=201)
    get("/erin.v2")
    get("/")
    # a duplicate create: 409, nothing changes
    send("PUT", "/carol", {"password": "other", "email": "other@example.com"}, expect=409)
    get("/carol")
    send("PUT", "/alice", {"password": "other"}, expect=409)
    get("/alice")
    # validation errors: no password, a name devpi refuses, a body that is not JSON
    send("PUT", "/frank", {"email": "frank@example.com"}, expect=400)
    get("/frank", expect=404)
    send("PUT", "/bad name", {"password": "capenv-x"}, expect=400)
    send("PUT", "/frank", raw="not json", expect=400)
    get("/frank", expect=404)
    # anyone may make a user (devpi's default): no X-Devpi-Auth
    send("PUT", "/frank", {"password": "capenv-frank-throwaway", "email": "frank@example.com"}, expect=201,
         auth=False)
    get("/frank")
    get("/")
    # updates: only what is sent changes
    send("PATCH", "/carol", {"email": "carol@example.org"}, expect=200)
    get("/carol")
    get("/")
    send("PATCH", "/carol", {"title": "Carol C.", "description": "maintains the docs"}, expect=200)
    get("/carol")
    send("PATCH", "/dave", {"title": "Dave E."}, expect=200)
    get("/dave")
    send("PATCH", "/alice", {"email": "alice@example.net"}, expect=200)
    get("/alice")
    get("/")
    send("PATCH", "/carol", {"password": "capenv-carol-changed"}, expect=200)
    get("/carol")
    send("PATCH", "/nobody", {"email": "nobody@example.com"}, expect=404)
    get("/nobody", expect=404)
    # the new password works, the old one no longer
    send("POST", "/+login", {"user": "carol", "password": "capenv-carol-changed"}, expect=200, auth=False)
    send("POST", "/+login", {"user": "carol", "password": "capenv-carol-throwaway"}, expect=401, auth=False)

    # ---- d. indexes: create with defaults, with bases and volatile, read back, the owner and the root
    created = result(send("PUT", "/carol/dev", {}, expect=200))
    check("a new index's bases", (created or {}).get("bases"), [])
    get("/carol/dev")
    get("/carol")
    get("/")
    send("PUT", "/carol/prod", {"bases": ["carol/dev", "root/base"], "volatile": False,
                                "title": "Production"}, expect=200)
    get("/carol/prod")
    get("/carol")
    get("/")
    send("PUT", "/dave/wheels", {"type": "stage", "volatile": True, "description": "nightly wheels",
                                 "acl_upload": ["dave", "carol"]}, expect=200)
    get("/dave/wheels")
    get("/dave")
    send("PUT", "/root/extra", {"bases": ["root/base"], "volatile": False}, expect=200)
    get("/root/extra")
    get("/root")
    get("/")
    # a mirror index (another type, other defaults; --offline-mode: it never reaches its URL)
    send("PUT", "/root/mirror", {"type": "mirror", "mirror_url": "https://pypi.invalid/simple/"}, expect=200)
    get("/root/mirror")
    get("/root")
    # a duplicate index, an index of a missing user, validation errors: nothing changes
    send("PUT", "/carol/dev", {"volatile": False}, expect=409)
    get("/carol/dev")
    send("PUT", "/nobody/dev", {}, expect=404)
    send("PUT", "/carol/bad", {"bases": ["root/nope"]}, expect=400)
    send("PUT", "/carol/bad", {"type": "weird"}, expect=400)
    send("PUT", "/carol/bad", {"volatile": "maybe"}, expect=400)
    send("PUT", "/carol/bad", {"colour": "blue"}, expect=400)
    send("PUT", "/carol/bad", raw="{", expect=400)
    get("/carol/bad", expect=404)
    send("PUT", "/carol/anon", {}, expect=403, auth=False)
    get("/carol/anon", expect=404)
    get("/carol")

    # ---- e. index updates: PATCH changes only what it sends
    send("PATCH", "/carol/dev", {"title": "Carol's dev", "volatile": False}, expect=200)
    get("/carol/dev")
    get("/carol")
    send("PATCH", "/carol/prod", {"bases": ["root/base"]}, expect=200)
    get("/carol/prod")
    send("PATCH", "/alice/dev", {"description": "day to day"}, expect=200)
    get("/alice/dev")
    get("/alice")
    send("PATCH", "/bob/release", {"acl_upload": ["bob", "alice"], "title": "Bob's releases"}, expect=200)
    get("/bob/release")
    send("PATCH", "/dave/wheels", {"volatile": False}, expect=200)
    get("/dave/wheels")
    get("/")
    # devpi-client's spelling: key=value strings
    send("PATCH", "/root/extra", ["title=Extra", "volatile=True"], expect=200)
    get("/root/extra")
    # refused updates: nothing changes
    send("PATCH", "/carol/dev", {"type": "mirror"}, expect=400)
    send("PATCH", "/carol/dev", {"bases": ["root/nope"]}, expect=400)
    send("PATCH", "/carol/dev", {"colour": "blue"}, expect=400)
    send("PATCH", "/carol/dev", {"volatile": "maybe"}, expect=400)
    get("/carol/dev")
    send("PATCH", "/carol/nope", {"title": "x"}, expect=403)
    get("/carol/nope", expect=404)

    # ---- f. index deletes: a non-volatile index is kept (403) until it is made volatile; then
    # it is gone from the item, the owner and the root
    send("DELETE", "/carol/prod", expect=403)
    get("/carol/prod")
    send("PATCH", "/carol/prod", {"volatile": True}, expect=200)
    send("DELETE", "/carol/prod", expect=201)
    get("/carol/prod", expect=404)
    get("/carol")
    get("/")
    send("DELETE", "/carol/prod", expect=403)
    send("DELETE", "/root/extra", expect=201)
    get("/root/extra", expect=404)
    get("/root")
    send("DELETE", "/root/mirror", expect=201)
    get("/root/mirror", expect=404)
    send("DELETE", "/dave/wheels", expect=403, auth=False)
    get("/dave/wheels")

    # ---- g. user deletes: refused while the user has a non-volatile index; then the user takes
    # its indexes with it
    send("DELETE", "/dave", expect=403)
    get("/dave")
    send("PATCH", "/dave/wheels", {"volatile": True}, expect=200)
    send("DELETE", "/dave", expect=200)
    get("/dave", expect=404)
    get("/dave/wheels", expect=404)
    get("/")
    send("DELETE", "/dave", expect=404)
    send("DELETE", "/erin.v2", expect=200)
    get("/erin.v2", expect=404)
    get("/")
    send("DELETE", "/carol", expect=403, auth=False)
    get("/carol")

    # ---- h. one more round: a user made again under a deleted name starts empty
    send("PUT", "/dave", {"password": "capenv-dave-again", "email": "dave@example.com"}, expect=201)
    get("/dave")
    get("/dave/wheels", expect=404)
    send("PUT", "/dave/tools", {"bases": ["carol/dev"]}, expect=200)
    get("/dave/tools")
    get("/dave")
    send("PATCH", "/dave/tools", {"bases": ["carol/dev", "root/base"], "title": "Tools"}, expect=200)
    get("/dave/tools")
    send("PATCH", "/dave", {"description": "back again"}, expect=200)
    get("/dave")
    get("/")
    send("DELETE", "/carol/dev", expect=403)
    send("PATCH", "/carol/dev", {"volatile": True}, expect=200)
    send("DELETE", "/carol/dev", expect=201)
    get("/carol/dev", expect=404)
    get("/carol")
    get("/")
    get("/+api", auth=True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43043")
