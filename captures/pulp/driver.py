#!/usr/bin/env python3
"""Scenario driver for Pulp 3 (pulpcore 3.123.1, file plugin) through its REST API
(talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18921 --mode capture [-v]

Every entity is named by its `pulp_href`, the absolute path it is read at (/pulp/api/v3/<type>/<uuid>/,
users and groups /pulp/api/v3/users/<int>/); the driver calls the hrefs the answers give. Lists are
DRF pages {count, next, previous, results} with limit/offset, `ordering=`, django-filter filters
(`name`, `name__contains`, `name__in`, `pulp_label_select`), `fields=`/`exclude_fields=`.
Users, groups, group members and header content guards are written synchronously (201/200/204);
repositories and remotes are created synchronously (201) but updated and deleted by a task
(202 {"task": href}), distributions created, updated and deleted by a task: after each 202 the driver
reads the task until it is completed, then reads the entity. HTTP Basic, admin:password.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import base64
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/pulp/api/v3"
ID = "019b0000-0000-7000-8000-{:012d}"
WEB = f"{API}/repositories/file/file/{ID.format(2)}/"
DOCS = f"{API}/repositories/file/file/{ID.format(6)}/"
LEGACY = f"{API}/repositories/file/file/{ID.format(10)}/"
MISSING_UUID = ID.format(999)


def make_driver(base, low, high, verbose):
    token = base64.b64encode(b"admin:password").decode()
    return Driver(base, low, high, verbose, token=token, scheme="Basic")


def capture(d: Driver):
    call, get, check = d.call, d.get, d.check

    def wait(answer):
        """Read the task a 202 answered until it is no longer waiting or running; its body."""
        if not isinstance(answer, dict) or "task" not in answer:
            d.check("a 202 answer names its task", answer, {"task": "..."})
            return {}
        for _ in range(50):
            task = get(answer["task"])
            if task.get("state") not in ("waiting", "running"):
                check(f"task {answer['task']} state", task.get("state"), "completed")
                return task
            time.sleep(0.2)
        check("task finished", task.get("state"), "completed")
        return task

    def async_write(method, path, body=None, expect=202):
        status, answer = call(method, path, body, expect=expect)
        return wait(answer) if status == 202 else answer

    # ---- a. the seed: every collection and item
    repos = get(f"{API}/repositories/file/file/")
    check("seeded repositories", repos.get("count"), 3)
    for href in (WEB, DOCS, LEGACY):
        get(href)
    get(f"{API}/repositories/")
    get(f"{WEB}versions/")
    get(f"{WEB}versions/0/")
    remotes = get(f"{API}/remotes/file/file/")
    upstream = remotes["results"][0]["pulp_href"]
    get(upstream)
    dists = get(f"{API}/distributions/file/file/")
    web_dist = dists["results"][0]["pulp_href"]
    get(web_dist)
    guards = get(f"{API}/contentguards/core/header/")
    token_guard = guards["results"][0]["pulp_href"]
    get(token_guard)
    get(f"{API}/users/")
    get(f"{API}/users/2/")
    get(f"{API}/users/3/")
    get(f"{API}/groups/")
    get(f"{API}/groups/1/")
    get(f"{API}/groups/1/users/")

    # ---- b. list queries
    get(f"{API}/repositories/file/file/", name="docs-site")
    get(f"{API}/repositories/file/file/", name__contains="site")
    get(f"{API}/repositories/file/file/", name__in="web-assets,legacy-mirror")
    get(f"{API}/repositories/file/file/", ordering="name")
    get(f"{API}/repositories/file/file/", ordering="-name")
    get(f"{API}/repositories/file/file/", limit="2")
    get(f"{API}/repositories/file/file/", limit="2", offset="2")
    get(f"{API}/repositories/file/file/", fields="name,pulp_href")
    get(f"{API}/repositories/file/file/", exclude_fields="pulp_labels,description,last_sync_details")
    get(f"{API}/repositories/file/file/", pulp_label_select="env=prod")
    get(f"{API}/repositories/file/file/", pulp_label_select="team")
    get(WEB, fields="name,description,pulp_labels")
    get(f"{API}/users/", username="alice")
    get(f"{API}/users/", ordering="-username", fields="username")
    get(f"{API}/users/", username__contains="b")
    get(f"{API}/users/", limit="1", offset="1")
    get(f"{API}/groups/", name="editors")
    get(f"{API}/remotes/file/file/", name="docs-upstream")
    get(f"{API}/distributions/file/file/", base_path="web")

    # ---- c. absences and malformed ids
    get(f"{API}/repositories/file/file/{MISSING_UUID}/", expect=404)
    get(f"{API}/repositories/file/file/not-a-uuid/", expect=404)
    get(f"{API}/users/99/", expect=404)
    get(f"{API}/groups/99/", expect=404)
    get(f"{API}/remotes/file/file/{MISSING_UUID}/", expect=404)
    get(f"{API}/distributions/file/file/{MISSING_UUID}/", expect=404)
    get(f"{API}/contentguards/core/header/{MISSING_UUID}/", expect=404)

    # ---- d. users (synchronous)
    _, carol = call("POST", f"{API}/users/", {"username": "carol", "first_name": "Carol", "last_name": "Cole",
                                              "email": "carol@example.com", "password": "carol-Passw0rd!"},
                    expect=201)
    carol_href = carol.get("pulp_href", f"{API}/users/4/")
    get(carol_href)
    get(f"{API}/users/", fields="username,email")
    call("POST", f"{API}/users/", {"username": "carol", "password": "x-Passw0rd!"}, expect=400)
    call("POST", f"{API}/users/", {"username": "dave", "email": "not-an-email"}, expect=400)
    call("PATCH", carol_href, {"email": "carol.cole@example.com"}, expect=200)
    get(carol_href)
    call("PATCH", carol_href, {"is_active": False, "last_name": "Cole-Smith"}, expect=200)
    get(carol_href)
    get(f"{API}/users/", is_active="false", fields="username")
    call("PUT", carol_href, {"username": "carol", "first_name": "Caroline", "email": "caroline@example.com"},
         expect=200)
    get(carol_href)
    call("PATCH", f"{API}/users/99/", {"email": "x@example.com"}, expect=404)
    call("PATCH", carol_href, {"username": "alice"}, expect=400)
    get(carol_href)

    # ---- e. groups and their members (synchronous)
    _, qa = call("POST", f"{API}/groups/", {"name": "qa"}, expect=201)
    qa_href = qa.get("pulp_href", f"{API}/groups/2/")
    get(qa_href)
    get(f"{API}/groups/")
    call("POST", f"{API}/groups/", {"name": "qa"}, expect=400)
    call("PATCH", qa_href, {"name": "quality"}, expect=200)
    get(qa_href)
    get(f"{API}/groups/", name="qa")
    call("PUT", qa_href, {"name": "quality-assurance"}, expect=200)
    get(qa_href)
    call("POST", f"{qa_href}users/", {"username": "bob"}, expect=201)
    get(f"{qa_href}users/")
    get(f"{API}/users/3/")
    call("POST", f"{qa_href}users/", {"username": "carol"}, expect=201)
    get(f"{qa_href}users/")
    call("POST", f"{qa_href}users/", {"username": "nobody"}, expect=400)
    call("DELETE", f"{qa_href}users/3/", expect=204)
    get(f"{qa_href}users/")
    get(f"{API}/users/3/")
    call("DELETE", f"{qa_href}users/3/", expect=204)  # a member already gone: 204 again

    # ---- f. header content guards (synchronous)
    _, guard = call("POST", f"{API}/contentguards/core/header/",
                    {"name": "beta-guard", "header_name": "X-Beta", "header_value": "yes"}, expect=201)
    guard_href = guard.get("pulp_href", "")
    get(guard_href)
    get(f"{API}/contentguards/core/header/")
    call("POST", f"{API}/contentguards/core/header/", {"name": "half-guard", "header_name": "X-Half"}, expect=400)
    call("POST", f"{API}/contentguards/core/header/",
         {"name": "beta-guard", "header_name": "X-Beta", "header_value": "no"}, expect=400)
    call("PATCH", guard_href, {"description": "Beta testers only"}, expect=200)
    get(guard_href)
    call("PUT", guard_href, {"name": "beta-guard", "header_name": "X-Beta-Token", "header_value": "beta"},
         expect=200)
    get(guard_href)
    get(f"{API}/contentguards/")

    # ---- g. repositories: created at once, updated and deleted by a task
    _, rel = call("POST", f"{API}/repositories/file/file/",
                  {"name": "release-artifacts", "description": "Built releases",
                   "pulp_labels": {"env": "prod", "team": "release"}, "retain_repo_versions": 5}, expect=201)
    rel_href = rel.get("pulp_href", "")
    get(rel_href)
    get(f"{rel_href}versions/")
    get(f"{API}/repositories/file/file/", fields="name,pulp_labels")
    call("POST", f"{API}/repositories/file/file/", {"name": "release-artifacts"}, expect=400)
    call("POST", f"{API}/repositories/file/file/", {"name": "zero-kept", "retain_repo_versions": 0}, expect=400)
    call("POST", f"{API}/repositories/file/file/", {"description": "no name"}, expect=400)
    _, scratch = call("POST", f"{API}/repositories/file/file/", {"name": "scratch"}, expect=201)
    scratch_href = scratch.get("pulp_href", "")
    get(scratch_href)
    async_write("PATCH", rel_href, {"description": "Built releases, signed"})
    get(rel_href)
    async_write("PATCH", rel_href, {"pulp_labels": {"env": "staging", "team": "release"}})
    get(rel_href)
    get(f"{API}/repositories/file/file/", pulp_label_select="env=staging", fields="name")
    async_write("PUT", rel_href, {"name": "release-artifacts", "description": "Releases", "retain_repo_versions": 3})
    get(rel_href)
    async_write("PATCH", DOCS, {"description": "Built documentation, nightly"})
    get(DOCS)
    get(f"{API}/repositories/file/file/", ordering="-pulp_last_updated", fields="name,description")
    call("PATCH", DOCS, {"retain_repo_versions": -1}, expect=400)
    call("PATCH", DOCS, {"name": "web-assets"}, expect=400)
    get(DOCS)
    call("PATCH", f"{API}/repositories/file/file/{MISSING_UUID}/", {"description": "x"}, expect=404)
    call("POST", f"{rel_href}set_label/", {"key": "tier", "value": "gold"}, expect=201)
    get(rel_href)
    call("POST", f"{rel_href}unset_label/", {"key": "tier"}, expect=201)
    get(rel_href)
    async_write("DELETE", scratch_href)
    get(scratch_href, expect=404)
    get(f"{API}/repositories/file/file/", fields="name")
    call("DELETE", scratch_href, expect=404)

    # ---- h. remotes
    _, mirror = call("POST", f"{API}/remotes/file/file/",
                     {"name": "mirror", "url": "http://127.0.0.1:9/mirror/PULP_MANIFEST", "policy": "immediate",
                      "pulp_labels": {"kind": "mirror"}}, expect=201)
    mirror_href = mirror.get("pulp_href", "")
    get(mirror_href)
    get(f"{API}/remotes/file/file/")
    call("POST", f"{API}/remotes/file/file/", {"name": "bad-policy", "url": "http://127.0.0.1:9/x",
                                               "policy": "sometimes"}, expect=400)
    call("POST", f"{API}/remotes/file/file/", {"name": "no-url"}, expect=400)
    call("POST", f"{API}/remotes/file/file/", {"name": "mirror", "url": "http://127.0.0.1:9/y"}, expect=400)
    async_write("PATCH", mirror_href, {"url": "http://127.0.0.1:9/mirror2/PULP_MANIFEST", "download_concurrency": 4})
    get(mirror_href)
    async_write("PUT", mirror_href, {"name": "mirror", "url": "http://127.0.0.1:9/mirror3/PULP_MANIFEST",
                                     "policy": "streamed"})
    get(mirror_href)
    async_write("PATCH", rel_href, {"remote": mirror_href})
    get(rel_href)
    get(f"{API}/remotes/file/file/", name__contains="mirr", fields="name,policy")

    # ---- i. distributions: every write a task
    task = async_write("POST", f"{API}/distributions/file/file/",
                       {"name": "releases", "base_path": "releases/stable", "repository": rel_href})
    created = task.get("created_resources") or [""]
    rel_dist = created[0]
    get(rel_dist)
    get(f"{API}/distributions/file/file/")
    get(f"{API}/distributions/file/file/", base_path__contains="releases")
    call("POST", f"{API}/distributions/file/file/", {"name": "releases-again", "base_path": "releases/stable"},
         expect=400)
    call("POST", f"{API}/distributions/file/file/", {"name": "no-path"}, expect=400)
    async_write("PATCH", rel_dist, {"content_guard": guard_href})
    get(rel_dist)
    async_write("PATCH", rel_dist, {"base_path": "releases/current", "hidden": True})
    get(rel_dist)
    get(f"{API}/distributions/file/file/", name="releases")
    async_write("PATCH", web_dist, {"content_guard": token_guard})
    get(web_dist)
    async_write("PUT", rel_dist, {"name": "releases", "base_path": "releases/v1", "repository": rel_href})
    get(rel_dist)

    # ---- j. deletes, each read after
    async_write("DELETE", rel_dist)
    get(rel_dist, expect=404)
    get(f"{API}/distributions/file/file/")
    call("DELETE", rel_dist, expect=404)
    call("DELETE", guard_href, expect=204)
    get(guard_href, expect=404)
    get(f"{API}/contentguards/core/header/")
    call("DELETE", guard_href, expect=404)
    async_write("DELETE", mirror_href)
    get(mirror_href, expect=404)
    get(rel_href)
    get(f"{API}/remotes/file/file/")
    async_write("DELETE", LEGACY)
    get(LEGACY, expect=404)
    get(f"{API}/repositories/file/file/", fields="name")
    async_write("DELETE", rel_href)
    get(rel_href, expect=404)
    get(f"{rel_href}versions/", expect=404)
    get(f"{API}/repositories/file/file/")
    async_write("DELETE", upstream)
    get(upstream, expect=404)
    get(f"{API}/remotes/file/file/")
    call("DELETE", carol_href, expect=204)
    get(carol_href, expect=404)
    get(f"{qa_href}users/")
    get(f"{API}/users/", fields="username")
    call("DELETE", carol_href, expect=404)
    call("DELETE", qa_href, expect=204)
    get(qa_href, expect=404)
    get(f"{API}/groups/")
    call("DELETE", f"{API}/groups/1/", expect=204)
    get(f"{API}/groups/1/", expect=404)
    get(f"{API}/users/2/")
    get(f"{API}/groups/")

    # ---- k. recreate a deleted name: a new href
    _, again = call("POST", f"{API}/repositories/file/file/", {"name": "scratch"}, expect=201)
    check("a recreated repository takes a new href", again.get("pulp_href") != scratch_href, True)
    get(again.get("pulp_href", ""))
    get(f"{API}/repositories/file/file/")
    get(f"{API}/distributions/file/file/")
    get(f"{API}/tasks/", state="completed", name="pulpcore.app.tasks.base.ageneral_update",
        fields="name,state,created_resources", limit="3")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18921")
