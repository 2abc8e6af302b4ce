#!/usr/bin/env python3
"""Scenario driver for JupyterHub 5.4.3's REST API (talks to the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:42401 --mode capture [-v]   # 162 calls

Auth: `Authorization: token capenv-jupyterhub-throwaway-api-token-0001`, the fixed throwaway
token of the service `capenv-driver` (the Hub's admin role), set in jupyterhub_config.py.
The seed (seed.py, not recorded): users admin, ada, grace (admin), alan, katherine, linus;
groups researchers (ada, grace; properties {"lab": "analytical-engine"}), teachers (alan),
alumni (empty); ada's token a2 (the service's own token is a1).
Every call is sequential, with a random 50-150 ms sleep before it. Names are chosen by the
client and are the identities: users and groups are created at their item path.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "capenv-jupyterhub-throwaway-api-token-0001"
API = "/hub/api"
PAGINATED = {"Accept": "application/jupyterhub-pagination+json"}


class HubDriver(Driver):
    """Paths are the API's, under /hub/api; ``accept`` asks for the paginated list shape."""

    def call(self, method, path, body=None, expect=None, token=TOKEN, accept=False):
        return super().call(method, API + path, body=body, expect=expect, token=token,
                            headers=PAGINATED if accept else None)


def make_driver(base, min_sleep, max_sleep, verbose):
    return HubDriver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="token")


def capture(d):
    call, check = d.call, d.check
    # ---- a. initial reads, before any write
    call("GET", "/", expect=200)
    call("GET", "/users", expect=200)
    for name in ("admin", "ada", "grace", "alan", "katherine", "linus"):
        call("GET", f"/users/{name}", expect=200)
    call("GET", "/groups", expect=200)
    for group in ("researchers", "teachers", "alumni"):
        call("GET", f"/groups/{group}", expect=200)
    call("GET", "/users/ada/tokens", expect=200)
    call("GET", "/users/ada/tokens/a2", expect=200)
    call("GET", "/users/grace/tokens", expect=200)
    call("GET", "/services", expect=200)
    call("GET", "/services/capenv-driver", expect=200)
    call("GET", "/user", expect=200)
    call("GET", "/users/marie", expect=404)            # created below
    call("GET", "/users/nobody", expect=404)           # never exists
    call("GET", "/groups/physicists", expect=404)      # created below
    call("GET", "/groups/nope", expect=404)
    call("GET", "/users/ada/tokens/a99", expect=404)
    call("GET", "/users/nobody/tokens", expect=404)

    # ---- b. creates, each followed by an item read and a list read
    for name in ("marie", "edsger", "barbara"):
        st, u = call("POST", f"/users/{name}", {}, expect=201)
        check("user name", isinstance(u, dict) and u.get("name"), name)
        call("GET", f"/users/{name}", expect=200)
        call("GET", "/users", expect=200)
    call("POST", "/users", {"usernames": ["john", "donald"]}, expect=201)
    call("GET", "/users/john", expect=200)
    call("GET", "/users/donald", expect=200)
    call("GET", "/users", expect=200)
    for group in ("physicists", "compilers"):
        call("POST", f"/groups/{group}", {}, expect=201)
        call("GET", f"/groups/{group}", expect=200)
        call("GET", "/groups", expect=200)
    call("POST", "/groups/mathematicians", {"users": ["katherine"]}, expect=201)
    call("GET", "/groups/mathematicians", expect=200)
    call("GET", "/users/katherine", expect=200)
    call("GET", "/groups", expect=200)
    call("POST", "/groups", {"groups": ["staff", "visitors"]}, expect=201)
    call("GET", "/groups/staff", expect=200)
    call("GET", "/groups", expect=200)
    tokens = {}
    for name, body in (("marie", {"note": "marie's laptop"}),
                       ("ada", {"note": "ada's CI runner"}),
                       ("edsger", {"note": "edsger's one-hour token", "expires_in": 3600})):
        st, t = call("POST", f"/users/{name}/tokens", body, expect=201)
        tokens[name] = t["id"]
        call("GET", f"/users/{name}/tokens/{t['id']}", expect=200)
        call("GET", f"/users/{name}/tokens", expect=200)

    # ---- c. updates, each followed by reads
    call("PATCH", "/users/marie", {"admin": True}, expect=200)
    call("GET", "/users/marie", expect=200)
    call("GET", "/users", expect=200)
    call("PATCH", "/users/grace", {"admin": False}, expect=200)
    call("GET", "/users/grace", expect=200)
    call("PATCH", "/users/marie", {"admin": True}, expect=200)      # the same value again
    call("GET", "/users/marie", expect=200)
    call("PATCH", "/users/linus", {"name": "linus-t"}, expect=200)  # a rename: the identity moves
    call("GET", "/users/linus", expect=404)
    call("GET", "/users/linus-t", expect=200)
    call("GET", "/users", expect=200)
    call("POST", "/groups/physicists/users", {"users": ["marie", "edsger"]}, expect=200)
    call("GET", "/groups/physicists", expect=200)
    call("GET", "/users/marie", expect=200)
    call("GET", "/groups", expect=200)
    call("POST", "/groups/teachers/users", {"users": ["barbara"]}, expect=200)
    call("GET", "/groups/teachers", expect=200)
    call("GET", "/users/barbara", expect=200)
    call("DELETE", "/groups/researchers/users", {"users": ["grace"]}, expect=200)
    call("GET", "/groups/researchers", expect=200)
    call("GET", "/users/grace", expect=200)
    call("PUT", "/groups/physicists/properties", {"building": "B2", "floor": 3}, expect=200)
    call("GET", "/groups/physicists", expect=200)
    call("PUT", "/groups/physicists/properties", {"building": "C1"}, expect=200)  # replaces
    call("GET", "/groups/physicists", expect=200)
    call("PUT", "/groups/compilers/properties", {"language": "ALGOL 60"}, expect=200)
    call("GET", "/groups/compilers", expect=200)
    call("GET", "/groups", expect=200)
    call("POST", "/users/alan/activity", {"last_activity": "2026-11-30T09:00:00Z"}, expect=200)
    call("GET", "/users/alan", expect=200)
    call("POST", "/users/alan/activity", {"last_activity": "2026-11-29T09:00:00Z"}, expect=200)
    call("GET", "/users/alan", expect=200)                           # an older one: unchanged
    call("POST", "/users/katherine/activity", {"last_activity": "2026-12-01T08:30:00Z"},
         expect=200)
    call("GET", "/users/katherine", expect=200)
    call("GET", "/users", expect=200)

    # ---- d. deletes, each followed by an item read (404) and a list read
    call("DELETE", f"/users/marie/tokens/{tokens['marie']}", expect=204)
    call("GET", f"/users/marie/tokens/{tokens['marie']}", expect=404)
    call("GET", "/users/marie/tokens", expect=200)
    call("DELETE", "/users/ada/tokens/a2", expect=204)               # the seeded token
    call("GET", "/users/ada/tokens/a2", expect=404)
    call("GET", "/users/ada/tokens", expect=200)
    call("DELETE", "/users/donald", expect=204)                      # in no group
    call("GET", "/users/donald", expect=404)
    call("GET", "/users", expect=200)
    call("DELETE", "/users/barbara", expect=204)                     # a member of teachers
    call("GET", "/users/barbara", expect=404)
    call("GET", "/groups/teachers", expect=200)
    call("GET", "/users", expect=200)
    call("DELETE", "/users/edsger", expect=204)                      # in physicists, has a token
    call("GET", "/users/edsger", expect=404)
    call("GET", f"/users/edsger/tokens/{tokens['edsger']}", expect=404)
    call("GET", "/groups/physicists", expect=200)
    call("DELETE", "/groups/alumni", expect=204)                     # empty
    call("GET", "/groups/alumni", expect=404)
    call("GET", "/groups", expect=200)
    call("DELETE", "/groups/mathematicians", expect=204)             # katherine's group
    call("GET", "/groups/mathematicians", expect=404)
    call("GET", "/users/katherine", expect=200)
    call("GET", "/groups", expect=200)
    call("DELETE", "/groups/visitors", expect=204)
    call("GET", "/groups/visitors", expect=404)
    call("POST", "/users/barbara", {}, expect=201)                   # a deleted name again
    call("GET", "/users/barbara", expect=200)
    call("GET", "/groups/teachers", expect=200)
    call("GET", "/users", expect=200)

    # ---- e. filters, paging
    for offset in (0, 3, 6, 9):
        call("GET", f"/users?offset={offset}&limit=3", expect=200)
    call("GET", "/users?name_filter=a", expect=200)
    call("GET", "/users?name_filter=gr", expect=200)
    call("GET", "/users?state=inactive", expect=200)
    call("GET", "/users?state=active", expect=200)
    call("GET", "/groups?offset=1&limit=2", expect=200)
    call("GET", "/groups?limit=1", expect=200)
    call("GET", "/users?offset=0&limit=4", accept=True, expect=200)
    call("GET", "/users?offset=4&limit=4", accept=True, expect=200)
    call("GET", "/groups?limit=2", accept=True, expect=200)
    call("GET", "/groups?offset=2&limit=2", accept=True, expect=200)

    # ---- f. failures
    call("POST", "/users/ada", {}, expect=409)
    call("POST", "/groups/teachers", {}, expect=409)
    call("POST", "/users", {"usernames": ["ada"]}, expect=409)
    call("PATCH", "/users/nobody", {"admin": True}, expect=404)
    call("PATCH", "/users/ada", {"bogus": 1}, expect=400)
    call("PATCH", "/users/ada", {"name": "grace"}, expect=400)
    call("DELETE", "/users/nobody", expect=404)
    call("DELETE", "/users/donald", expect=404)                      # already deleted
    call("DELETE", "/groups/nope", expect=404)
    call("POST", "/groups/nope/users", {"users": ["ada"]}, expect=404)
    call("POST", "/groups/teachers/users", {"users": ["ghost"]}, expect=400)
    call("POST", "/groups/ghosts", {"users": ["nobody"]}, expect=400)
    call("POST", "/users/ada/tokens", {"scopes": ["nonsense"]}, expect=400)
    call("DELETE", "/users/ada/tokens/a99", expect=404)
    call("GET", "/users", token="not-a-token", expect=403)
    call("GET", "/users", token=None, expect=403)

    # ---- g. final reads
    call("GET", "/users", expect=200)
    call("GET", "/groups", expect=200)
    call("GET", "/users/ada", expect=200)
    call("GET", "/users/marie", expect=200)
    call("GET", "/groups/physicists", expect=200)
    call("GET", "/users/ada/tokens", expect=200)
    call("GET", f"/users/ada/tokens/{tokens['ada']}", expect=200)
    call("GET", "/users/donald", expect=404)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42401")
