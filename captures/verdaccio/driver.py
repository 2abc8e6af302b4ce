#!/usr/bin/env python3
"""Scenario driver for Verdaccio 6.8.0's npm registry API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46371 --mode capture [-v]

The seed (seed.py, run by start.sh, not recorded): users alice and bob; packages left-pad-lite 1.0.0, 1.1.0
(latest), 2.0.0-beta.1 (next); tiny-util 0.3.0; @acme/widgets 1.0.0, 1.0.1 (latest); @acme/theme 0.1.0 (bob's).
The driver logs in as alice first (npm's `npm login`: PUT /-/user/org.couchdb.user:alice with her password in
Basic auth, answering a token) and sends that token as a Bearer on every call after, as npm does. Publishes
are built here (package_tarball.py: the packument npm 10 sends, a base64 tarball attachment). Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)
from package_tarball import publish_body  # noqa: E402

PASSWORD = "alice-pass-1"
NPM_HEADERS = {"npm-command": "", "Accept": "application/json"}


def make_driver(base, min_sleep, max_sleep, verbose):
    d = Driver(base, min_sleep, max_sleep, verbose)
    d.base = base
    return d


def quoted(name):
    """A package name as npm puts it in a path: a scope's slash percent-encoded."""
    return name.replace("/", "%2f")


def capture(d):
    call, check, base = d.call, d.check, d.base

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def web(path, expect=200, **params):
        """A read of the web UI's API, with the web login's JWT once there is one (it refuses npm's token)."""
        return call("GET", path, params=params or None, expect=expect, token=web_token[0])[1]

    web_token = [None]

    def basic(user, password):
        return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}

    def publish(name, version, description, expect=201, **extra):
        body = publish_body(base, name, version, description, **extra)
        return call("PUT", "/" + quoted(name), body=body, expect=expect)[1]

    def rev_of(name):
        return get("/" + quoted(name), write="true")["_rev"]

    # ---- a. anonymous reads of the seed
    get("/-/ping")
    get("/left-pad-lite")
    get("/left-pad-lite/1.0.0")
    get("/left-pad-lite/latest")
    get("/left-pad-lite/next")
    get("/tiny-util")
    get("/@acme%2fwidgets")
    get("/@acme/widgets")
    get("/@acme%2fwidgets/1.0.1")
    get("/@acme/theme")
    get("/no-such-package", expect=404)
    get("/@acme%2fnothing", expect=404)
    get("/left-pad-lite/9.9.9", expect=404)
    get("/left-pad-lite/nightly", expect=404)
    call("GET", "/left-pad-lite/-/left-pad-lite-1.0.0.tgz", expect=200)
    call("GET", "/left-pad-lite/-/left-pad-lite-7.0.0.tgz", expect=404)
    get("/-/package/left-pad-lite/dist-tags")
    get("/-/package/@acme%2fwidgets/dist-tags")
    get("/-/package/no-such-package/dist-tags", expect=404)
    get("/-/v1/search", text="pad", size=20)
    get("/-/v1/search", text="acme", size=20)
    get("/-/v1/search", text="keywords:ui", size=20)
    get("/-/v1/search", text="util", size=1, **{"from": 0})
    get("/-/v1/search", text="zzz-nothing")
    get("/-/v1/search", text="acme", size=1, **{"from": 1})
    web("/-/verdaccio/data/packages")
    web("/-/verdaccio/data/sidebar/left-pad-lite")
    web("/-/verdaccio/data/sidebar/@acme/widgets")
    web("/-/verdaccio/data/sidebar/left-pad-lite", v="1.0.0")
    web("/-/verdaccio/data/package/readme/left-pad-lite")
    web("/-/verdaccio/data/package/readme/@acme/theme")
    web("/-/verdaccio/data/search/pad")
    web("/-/verdaccio/data/search/acme")
    web("/-/verdaccio/data/sidebar/no-such-package", expect=404)
    get("/-/whoami", expect=None)

    # ---- b. login (npm login): a token; refusals
    _, answer = call("PUT", "/-/user/org.couchdb.user:alice", headers=basic("alice", PASSWORD),
                     body={"_id": "org.couchdb.user:alice", "name": "alice", "password": PASSWORD,
                           "type": "user", "roles": []}, expect=201)
    d.token = answer["token"]
    _, answer = call("POST", "/-/verdaccio/sec/login", token=None,
                     body={"username": "alice", "password": PASSWORD}, expect=200)   # the web UI's login
    web_token[0] = answer["token"]
    call("POST", "/-/verdaccio/sec/login", token=None, body={"username": "alice", "password": "nope"},
         expect=401)
    get("/-/whoami")
    get("/-/user/org.couchdb.user:alice")
    call("PUT", "/-/user/org.couchdb.user:alice", token=None, headers=basic("alice", "wrong-password"),
         body={"name": "alice", "password": "wrong-password"}, expect=401)
    call("PUT", "/-/user/org.couchdb.user:bob", token=None,
         body={"name": "bob", "password": "guess-pass-1"}, expect=401)        # bob's, another password
    call("PUT", "/-/user/org.couchdb.user:carol", token=None,
         body={"name": "carol", "password": "carol-pass-1", "type": "user", "roles": []}, expect=201)
    call("PUT", "/-/user/org.couchdb.user:dave", token=None,
         body={"name": "dave", "password": ""}, expect=400)                    # password too short
    call("GET", "/-/whoami", token="not-a-token", expect=None)

    # ---- c. publishes: a new package, a new version, a scoped one; refusals; reads after
    publish("hello-capenv", "1.0.0", "Says hello", keywords=["greeting"])
    get("/hello-capenv")
    get("/hello-capenv/1.0.0")
    get("/-/package/hello-capenv/dist-tags")
    publish("hello-capenv", "1.1.0", "Says hello", keywords=["greeting"])
    get("/hello-capenv")
    get("/hello-capenv/latest")
    publish("hello-capenv", "1.1.0", "Says hello again", expect=409)          # that version exists
    publish("tiny-util", "0.3.0", "Tiny helpers for arrays", expect=409)
    publish("@acme/widgets", "1.1.0", "Acme UI widgets", keywords=["ui"])
    get("/@acme%2fwidgets")
    get("/@acme%2fwidgets/1.1.0")
    publish("@acme/buttons", "0.0.1", "Acme buttons", tag="alpha", keywords=["ui"])
    get("/@acme%2fbuttons")
    call("PUT", "/unauthorised-pkg", token=None,
         body=publish_body(base, "unauthorised-pkg", "1.0.0", "No token"), expect=401)
    call("PUT", "/bad-token-pkg", token="bm90LWEtdG9rZW4=",
         body=publish_body(base, "bad-token-pkg", "1.0.0", "Bad token"), expect=401)
    call("PUT", "/broken-pkg", raw="{not json", expect=400)
    get("/unauthorised-pkg", expect=404)
    get("/broken-pkg", expect=404)
    get("/-/v1/search", text="hello", size=20)
    web("/-/verdaccio/data/packages")
    web("/-/verdaccio/data/sidebar/hello-capenv")

    # ---- d. dist-tags: add, move, merge, remove; refusals
    call("PUT", "/-/package/hello-capenv/dist-tags/beta", raw='"1.0.0"', expect=201)
    get("/-/package/hello-capenv/dist-tags")
    get("/hello-capenv/beta")
    call("PUT", "/-/package/hello-capenv/dist-tags/beta", raw='"1.1.0"', expect=201)
    get("/-/package/hello-capenv/dist-tags")
    call("PUT", "/-/package/@acme%2fwidgets/dist-tags/stable", raw='"1.0.0"', expect=201)
    get("/-/package/@acme%2fwidgets/dist-tags")
    call("POST", "/-/package/left-pad-lite/dist-tags", body={"legacy": "1.0.0"}, expect=201)
    get("/-/package/left-pad-lite/dist-tags")
    get("/left-pad-lite")
    call("PUT", "/-/package/hello-capenv/dist-tags/ghost", raw='"9.9.9"', expect=None)  # no such version
    call("PUT", "/-/package/no-such-package/dist-tags/beta", raw='"1.0.0"', expect=404)
    call("PUT", "/-/package/hello-capenv/dist-tags/beta", raw='"1.0.0"', token=None, expect=401)
    call("DELETE", "/-/package/hello-capenv/dist-tags/beta", expect=201)
    get("/-/package/hello-capenv/dist-tags")
    get("/hello-capenv/beta", expect=404)
    call("DELETE", "/-/package/hello-capenv/dist-tags/beta", expect=None)     # already gone
    call("DELETE", "/-/package/left-pad-lite/dist-tags/legacy", expect=201)
    get("/-/package/left-pad-lite/dist-tags")
    call("DELETE", "/-/package/no-such-package/dist-tags/beta", expect=404)

    # ---- e. deprecate a version (npm deprecate): the whole packument back with `deprecated` set
    doc = get("/hello-capenv", write="true")
    doc["versions"]["1.0.0"]["deprecated"] = "use 1.1.0"
    call("PUT", f"/hello-capenv/-rev/{doc['_rev']}", body=doc, expect=201)
    get("/hello-capenv")
    get("/hello-capenv/1.0.0")
    doc = get("/@acme%2fwidgets", write="true")
    doc["versions"]["1.0.0"]["deprecated"] = "broken styles"
    call("PUT", f"/@acme%2fwidgets/-rev/{doc['_rev']}", body=doc, expect=201)
    get("/@acme%2fwidgets/1.0.0")
    doc["versions"]["1.0.0"]["deprecated"] = ""                               # undeprecate
    call("PUT", f"/@acme%2fwidgets/-rev/{rev_of('@acme/widgets')}", body=doc, expect=201)
    get("/@acme%2fwidgets/1.0.0")
    call("PUT", f"/no-such-package/-rev/1-0000000000000000", body={"name": "no-such-package",
         "versions": {}}, expect=None)

    web("/-/verdaccio/data/sidebar/@acme/widgets", v="1.0.0")
    get("/-/v1/search", text="widgets", size=20)

    # ---- e2. star and unstar (npm star): the packument back with only `users` changed
    doc = get("/tiny-util", write="true")
    call("PUT", f"/tiny-util/-rev/{doc['_rev']}", body={"_id": doc["_id"], "_rev": doc["_rev"],
         "users": {"alice": True}}, expect=200)
    get("/tiny-util")
    get("/-/_view/starredByUser", key='"alice"')
    doc = get("/@acme%2ftheme", write="true")
    call("PUT", f"/@acme%2ftheme/-rev/{doc['_rev']}", body={"_id": doc["_id"], "_rev": doc["_rev"],
         "users": {"alice": True}}, expect=200)
    get("/-/_view/starredByUser", key='"alice"')
    doc = get("/tiny-util", write="true")
    call("PUT", f"/tiny-util/-rev/{doc['_rev']}", body={"_id": doc["_id"], "_rev": doc["_rev"],
         "users": {}}, expect=200)
    get("/tiny-util")
    get("/-/_view/starredByUser", key='"alice"')
    get("/-/_view/starredByUser", key='"bob"')

    # ---- f. unpublish one version (npm unpublish pkg@ver): packument without it, then its tarball
    doc = get("/left-pad-lite", write="true")
    del doc["versions"]["1.0.0"]
    doc["time"].pop("1.0.0", None)
    call("PUT", f"/left-pad-lite/-rev/{doc['_rev']}", body=doc, expect=201)
    doc = get("/left-pad-lite", write="true")
    call("DELETE", f"/left-pad-lite/-/left-pad-lite-1.0.0.tgz/-rev/{doc['_rev']}", expect=201)
    get("/left-pad-lite")
    get("/left-pad-lite/1.0.0", expect=404)
    call("GET", "/left-pad-lite/-/left-pad-lite-1.0.0.tgz", expect=404)
    get("/-/package/left-pad-lite/dist-tags")

    # ---- g. unpublish whole packages
    call("DELETE", f"/hello-capenv/-rev/{rev_of('hello-capenv')}", expect=201)
    get("/hello-capenv", expect=404)
    get("/hello-capenv/1.1.0", expect=404)
    call("DELETE", "/hello-capenv/-rev/1-0000000000000000", expect=404)        # already gone
    call("DELETE", f"/@acme%2fbuttons/-rev/{rev_of('@acme/buttons')}", expect=201)
    get("/@acme%2fbuttons", expect=404)
    call("DELETE", "/tiny-util/-rev/whatever", token=None, expect=401)
    get("/tiny-util")
    get("/-/v1/search", text="hello", size=20)
    web("/-/verdaccio/data/packages")

    # ---- h. publish again under a removed name; logout; the state at the end
    publish("hello-capenv", "2.0.0", "Says hello, once more", keywords=["greeting"])
    get("/hello-capenv")
    get("/-/package/hello-capenv/dist-tags")
    call("DELETE", f"/-/user/token/{d.token}", expect=200)
    for name in ("left-pad-lite", "tiny-util", "@acme%2fwidgets", "@acme%2ftheme", "hello-capenv"):
        get("/" + name)
    get("/-/v1/search", text="acme", size=20)
    get("/-/v1/search", text="pad", size=20)
    web("/-/verdaccio/data/packages")
    web("/-/verdaccio/data/sidebar/left-pad-lite")
    web("/-/verdaccio/data/sidebar/hello-capenv")
    web("/-/verdaccio/data/search/hello")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46371")
