#!/usr/bin/env python3
"""Scenario driver for GNU Mailman 3.3.10's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42711 --mode capture [-v]

Every call is the REST admin's (HTTP Basic, the throwaway restadmin pair start.sh configures).
The seed (seed.py, run by start.sh, not recorded): domains example.com and example.org, lists ant and
bee (example.com) and cat (example.org), users anne, bart, cris with their addresses (anne also
anne@example.org), six memberships (anne owner of ant, bart moderator of bee). User and member ids
are random UUIDs in 32 hex digits, so the driver learns them from the reads it makes.
Creates answer 201 with an empty body and a Location header naming the new resource; the driver
takes new ids from that header. Collections answer {"start", "total_size", "entries", "http_etag"}
(no "entries" member when empty). Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADMIN = ("restadmin", "capenv-mailman-throwaway")
API = "/3.1"
NEVER_ID = "0123456789abcdef0123456789abcdef"   # a user or member id nothing ever had


def make_driver(base, min_sleep, max_sleep, verbose):
    token = base64.b64encode(":".join(ADMIN).encode()).decode()
    d = Driver(base, min_sleep, max_sleep, verbose, token=token, scheme="Basic")
    d.last = None
    d.c.event_hooks["response"] = [lambda response: setattr(d, "last", response)]
    return d


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=None, raw=None):
        return call(method, API + path, body, raw=raw, expect=expect)[1]

    def created():
        """The last segment of the Location a 201 named."""
        location = d.last.headers.get("location", "") if d.last is not None else ""
        return location.rstrip("/").rsplit("/", 1)[-1]

    def entries(answer):
        return answer.get("entries", []) if isinstance(answer, dict) else []

    # ---- a. reads before any write: every collection and item, the seed's ids, absences
    get("/system/versions")
    get("/domains")
    get("/domains/example.com")
    get("/domains/example.org")
    get("/lists")
    for list_id in ("ant.example.com", "bee.example.com", "cat.example.org"):
        get(f"/lists/{list_id}")
    get("/lists/ant@example.com")                  # the posting address names the list too
    get("/domains/example.com/lists")
    get("/domains/example.org/lists")
    get("/lists/ant.example.com/config")
    get("/lists/cat.example.org/config")
    get("/lists/bee.example.com/config/description")
    members = entries(get("/members"))
    member_ids = {(m.get("list_id"), m.get("email"), m.get("role")): m.get("member_id") for m in members}
    for member_id in member_ids.values():
        get(f"/members/{member_id}")
    get("/lists/ant.example.com/roster/member")
    get("/lists/ant.example.com/roster/owner")
    get("/lists/bee.example.com/roster/moderator")
    users = entries(get("/users"))
    user_ids = {u.get("display_name"): u.get("user_id") for u in users}
    for user_id in user_ids.values():
        get(f"/users/{user_id}")
    get("/users/anne@example.com")                 # a user by one of its addresses
    get("/addresses")
    for email in ("anne@example.com", "anne@example.org", "bart@example.com", "cris@example.org"):
        get(f"/addresses/{email}")
    anne, bart, cris = (user_ids.get(n) for n in ("Anne Person", "Bart Person", "Cris Person"))
    get(f"/users/{anne}/addresses")
    get("/members/find", subscriber="anne@example.com")
    get("/members/find", list_id="ant.example.com", role="member")
    # absences
    get("/domains/example.net", 404)
    get("/lists/zebra.example.com", 404)
    get("/lists/ant.example.org", 404)              # ant's name under the other domain
    get(f"/members/{NEVER_ID}", 404)
    get(f"/users/{NEVER_ID}", 404)
    get("/addresses/nobody@example.com", 404)
    get("/domains/ant.example.com", 404)           # a list id read as a domain
    ant_member = member_ids.get(("ant.example.com", "bart@example.com", "member"))
    get(f"/users/{ant_member}", 404)               # a member id read as a user
    get(f"/members/{bart}", 404)                   # a user id read as a member

    # ---- b. creates (201, empty body, Location), each followed by its item read and the list
    send("POST", "/domains", {"mail_host": "example.net", "description": "Net lists"}, 201)
    check("domain location", created(), "example.net")
    get("/domains/example.net")
    get("/domains")
    send("POST", "/domains", {"mail_host": "example.edu"}, 201)      # description left out
    get("/domains/example.edu")
    get("/domains")

    send("POST", "/lists", {"fqdn_listname": "dog@example.net"}, 201)
    check("list location", created(), "dog.example.net")
    get("/lists/dog.example.net")
    get("/lists")
    get("/domains/example.net/lists")
    send("POST", "/lists", {"fqdn_listname": "eel@example.com", "style_name": "legacy-announce"}, 201)
    get("/lists/eel.example.com")
    get("/lists/eel.example.com/config")
    get("/lists")
    send("POST", "/lists", {"fqdn_listname": "fox@example.edu"}, 201)
    get("/lists/fox.example.edu")

    send("POST", "/users", {"email": "dana@example.net", "display_name": "Dana Person"}, 201)
    dana = created()
    get(f"/users/{dana}")
    get("/users")
    get("/addresses/dana@example.net")            # the user's address comes with it
    send("POST", "/users", {"email": "emil@example.net"}, 201)      # no display name
    emil = created()
    get(f"/users/{emil}")
    get("/users")
    send("POST", f"/users/{dana}/addresses", {"email": "dana@example.com", "display_name": "Dana at com"}, 201)
    check("address location", created(), "dana@example.com")
    get("/addresses/dana@example.com")
    get(f"/users/{dana}/addresses")
    get("/addresses")

    subscribe = {"pre_verified": True, "pre_confirmed": True, "pre_approved": True}
    send("POST", "/members", {"list_id": "dog.example.net", "subscriber": "dana@example.net", **subscribe}, 201)
    m_dana = created()
    get(f"/members/{m_dana}")
    get("/lists/dog.example.net/roster/member")
    get("/lists/dog.example.net")                 # member_count follows
    get("/members")
    send("POST", "/members", {"list_id": "cat.example.org", "subscriber": "gus@example.org",
                              "display_name": "Gus Person", **subscribe}, 201)
    m_gus = created()                              # a new address: a user and an address come with it
    get(f"/members/{m_gus}")
    get("/addresses/gus@example.org")
    get("/lists/cat.example.org/roster/member")
    send("POST", "/members", {"list_id": "dog.example.net", "subscriber": "anne@example.com",
                              "role": "owner", **subscribe}, 201)
    m_owner = created()
    get(f"/members/{m_owner}")
    get("/lists/dog.example.net/roster/owner")
    send("POST", "/members", {"list_id": "eel.example.com", "subscriber": "bart@example.com", **subscribe}, 201)
    m_eel = created()
    get(f"/members/{m_eel}")
    get("/members")

    # ---- c. updates (204, empty body), each followed by reads
    send("PATCH", "/domains/example.net", {"description": "Lists on the net"}, 204)
    get("/domains/example.net")
    get("/domains")
    send("PATCH", "/lists/dog.example.net/config", {"description": "Dogs and their walkers",
                                                    "display_name": "Dogs"}, 204)
    get("/lists/dog.example.net/config")
    get("/lists/dog.example.net")                 # description and display name show here too
    send("PATCH", "/lists/ant.example.com/config", {"send_welcome_message": False,
                                                    "max_message_size": 100}, 204)
    get("/lists/ant.example.com/config")
    send("PATCH", "/lists/bee.example.com/config", {"description": "Bees, keepers and honey"}, 204)
    get("/lists/bee.example.com/config/description")
    get("/lists/bee.example.com")
    send("PATCH", "/lists/bee.example.com/config", {"description": "Bees, keepers and honey"}, 204)
    get("/lists/bee.example.com")                 # the same value again
    send("PATCH", f"/members/{m_dana}", {"delivery_mode": "mime_digests"}, 204)
    get(f"/members/{m_dana}")
    ant_anne = member_ids.get(("ant.example.com", "anne@example.com", "member"))
    send("PATCH", f"/members/{ant_anne}", {"moderation_action": "hold"}, 204)
    get(f"/members/{ant_anne}")
    send("PATCH", f"/members/{ant_anne}", {"delivery_mode": "plaintext_digests", "moderation_action": "accept"}, 204)
    get(f"/members/{ant_anne}")
    get("/lists/ant.example.com/roster/member")
    send("PATCH", f"/users/{dana}", {"display_name": "Dana Q. Person"}, 204)
    get(f"/users/{dana}")
    send("PATCH", f"/users/{bart}", {"display_name": "Bartholomew Person"}, 204)
    get(f"/users/{bart}")
    get("/users")
    send("PATCH", "/addresses/dana@example.com", {"display_name": "Dana (work)"}, 204)
    get("/addresses/dana@example.com")
    send("PATCH", "/addresses/cris@example.org", {"display_name": "Cris P."}, 204)
    get("/addresses/cris@example.org")
    get(f"/users/{cris}")                          # the user's own display name is not the address's

    # ---- d. deletes (204), each followed by an item read (404) and a list
    send("DELETE", f"/members/{m_eel}", expect=204)
    get(f"/members/{m_eel}", 404)
    get("/lists/eel.example.com/roster/member")
    get("/lists/eel.example.com")
    send("DELETE", f"/members/{member_ids.get(('cat.example.org', 'cris@example.org', 'member'))}", expect=204)
    get("/lists/cat.example.org/roster/member")
    get("/members")
    send("DELETE", "/addresses/dana@example.com", expect=204)
    get("/addresses/dana@example.com", 404)
    get(f"/users/{dana}/addresses")
    send("DELETE", f"/users/{emil}", expect=204)
    get(f"/users/{emil}", 404)
    get("/addresses/emil@example.net", 404)      # a user's addresses go with it
    get("/users")
    send("DELETE", "/lists/eel.example.com", expect=204)
    get("/lists/eel.example.com", 404)
    get("/lists")
    send("DELETE", "/domains/example.edu", expect=204)   # with its list fox
    get("/domains/example.edu", 404)
    get("/lists/fox.example.edu", 404)
    get("/domains")
    get("/lists")

    # ---- e. paging and finding
    get("/lists", count=2, page=1)
    get("/lists", count=2, page=2)
    get("/lists", count=2, page=5, expect=200)
    get("/members", count=3, page=1)
    get("/members", count=3, page=2)
    get("/users", count=2, page=2)
    get("/addresses", count=4, page=1)
    get("/domains", count=1, page=2)
    get("/lists/ant.example.com/roster/member", count=1, page=1)
    get("/members/find", subscriber="dana@example.net")
    get("/members/find", role="owner")
    get("/members/find", list_id="cat.example.org")
    get("/members/find", subscriber="nobody@example.com")
    get("/domains/example.com/lists")
    get("/lists", advertised="true")

    # ---- f. failures
    send("POST", "/domains", {"mail_host": "example.com"}, 400)              # exists
    send("POST", "/domains", {"description": "No host"}, 400)                # missing mail_host
    send("POST", "/lists", {"fqdn_listname": "hen@example.info"}, 400)      # no such domain
    send("POST", "/lists", {"fqdn_listname": "ant@example.com"}, 400)       # exists
    send("POST", "/lists", {"fqdn_listname": "bad name@example.com"}, 400)
    send("POST", "/lists", {}, 400)                                          # missing fqdn_listname
    send("POST", "/members", {"list_id": "zebra.example.com", "subscriber": "zed@example.com", **subscribe}, 400)
    send("POST", "/members", {"list_id": "ant.example.com", "subscriber": "bart@example.com", **subscribe}, 409)
    send("POST", "/members", {"list_id": "ant.example.com", "subscriber": "not-an-email", **subscribe}, 400)
    send("POST", "/members", {"list_id": "ant.example.com", "subscriber": "hal@example.com"}, 202)  # held: a token
    get("/members/find", subscriber="hal@example.com")                       # not a member yet
    send("POST", "/users", {"email": "anne@example.com"}, 400)              # exists
    send("POST", "/users", {"display_name": "Nobody"}, 400)                  # missing email
    send("POST", "/users", raw="{not json", expect=400)
    send("PATCH", "/lists/ant.example.com/config", {"no_such_setting": 1}, 400)
    send("PATCH", "/lists/ant.example.com/config", {"default_member_action": "bogus"}, 400)
    send("PATCH", f"/members/{ant_anne}", {"delivery_mode": "carrier_pigeon"}, 400)
    send("PATCH", f"/members/{ant_anne}", {"display_name": "Not here"}, 400)
    send("PATCH", f"/members/{NEVER_ID}", {"delivery_mode": "regular"}, 404)
    send("PATCH", f"/users/{NEVER_ID}", {"display_name": "Ghost"}, 404)
    send("PATCH", f"/users/{dana}", {"display_name": "Dana", "is_server_owner": False}, 204)
    send("PUT", f"/users/{dana}", {"display_name": "Dana"}, 400)             # PUT needs every field
    send("DELETE", f"/members/{m_eel}", expect=404)                          # again
    send("DELETE", "/lists/zebra.example.com", expect=404)
    send("DELETE", f"/users/{NEVER_ID}", expect=404)
    send("DELETE", "/addresses/nobody@example.com", expect=404)
    send("DELETE", "/domains/example.edu", expect=404)                       # again

    # ---- g. final state
    get("/domains")
    get("/lists")
    get("/members")
    get("/users")
    get("/addresses")
    for list_id in ("ant.example.com", "bee.example.com", "cat.example.org", "dog.example.net"):
        get(f"/lists/{list_id}")
    get("/lists/dog.example.net/config")
    for member_id in (m_dana, m_gus, m_owner, ant_anne):
        get(f"/members/{member_id}")
    for user_id in (anne, bart, cris, dana):
        get(f"/users/{user_id}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42711")
