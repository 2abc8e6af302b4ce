#!/usr/bin/env python3
"""Scenario driver for Matrix Synapse 1.163.2: mostly its admin API, a little of the client API
(talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42731 --mode capture [-v]

Every call sends the admin's fixed throwaway token (token.txt, written into homeserver.db by
seed.py; no login is recorded). The seed (seed.py, not recorded): users @admin (Ada Admin),
@alice, @bob, @carol (an admin), @dave (deactivated); the registration token seed-invite; the
admin's account data org.capenv.settings {"theme": "system"}; rooms General (#general, alice and bob
joined), Random (#random, bob) and Ops private (no alias). Room ids are random per start: the
driver reads them from the aliases and the room list. User and room ids go into paths both as
they are (`@alice:capenv.test`, `!id:capenv.test`) and percent-encoded (`%40alice%3Acapenv.test`),
as Matrix clients encode them. Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

HERE = Path(__file__).resolve().parent
ADMIN = "/_synapse/admin"
CLIENT = "/_matrix/client/v3"
SERVER = "capenv.test"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=(HERE / "token.txt").read_text().strip())


def enc(identifier):
    """The id percent-encoded as a path segment (encodeURIComponent): @ ! : # all escaped."""
    return urllib.parse.quote(identifier, safe="")


def user(localpart):
    return f"@{localpart}:{SERVER}"


def capture(d):
    call, check = d.call, d.check

    get = d.get

    def put(path, body, expect=200, raw=None):
        return call("PUT", path, body, raw=raw, expect=expect)[1]

    def post(path, body, expect=200, raw=None):
        return call("POST", path, body, raw=raw, expect=expect)[1]

    def delete(path, expect=200, body=None):
        return call("DELETE", path, body, expect=expect)[1]

    # ---- a. reads before any write
    get(ADMIN + "/v1/server_version")
    get(CLIENT + "/account/whoami")
    get(ADMIN + "/v2/users")
    get(ADMIN + f"/v2/users/{user('admin')}")
    get(ADMIN + f"/v2/users/{user('alice')}")
    get(ADMIN + f"/v2/users/{enc(user('bob'))}")
    get(ADMIN + f"/v2/users/{user('carol')}")
    get(ADMIN + f"/v2/users/{enc(user('dave'))}")
    rooms = get(ADMIN + "/v1/rooms")["rooms"]
    by_name = {room["name"]: room["room_id"] for room in rooms}
    general = get(CLIENT + f"/directory/room/{enc('#general:' + SERVER)}")["room_id"]
    random_room = get(CLIENT + f"/directory/room/{enc('#random:' + SERVER)}")["room_id"]
    ops = by_name["Ops private"]
    check("alias and list agree", (general, random_room), (by_name["General"], by_name["Random"]))
    get(ADMIN + f"/v1/rooms/{general}")
    get(ADMIN + f"/v1/rooms/{enc(random_room)}")
    get(ADMIN + f"/v1/rooms/{ops}")
    get(ADMIN + f"/v1/rooms/{enc(general)}/members")
    get(ADMIN + f"/v1/users/{enc(user('alice'))}/joined_rooms")
    get(ADMIN + f"/v1/users/{user('bob')}/joined_rooms")
    get(ADMIN + f"/v1/users/{user('carol')}/admin")
    get(ADMIN + "/v1/registration_tokens")
    get(CLIENT + f"/profile/{enc(user('alice'))}")
    get(CLIENT + f"/profile/{enc(user('bob'))}/displayname")
    get(CLIENT + f"/rooms/{enc(general)}/state/m.room.name")
    get(CLIENT + f"/rooms/{enc(random_room)}/state/m.room.topic")
    get(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings")
    # absences: a user, a room and a token that never existed; a remote user; one id read as another
    get(ADMIN + f"/v2/users/{user('nobody')}", 404)
    get(ADMIN + f"/v2/users/{enc(user('zed'))}", 404)
    get(ADMIN + f"/v1/rooms/!neverexisted:{SERVER}", 404)
    get(ADMIN + f"/v1/rooms/{enc('!neverexisted2:' + SERVER)}", 404)
    get(ADMIN + "/v1/registration_tokens/never-issued", 404)
    get(ADMIN + "/v2/users/@someone:example.org", 400)
    get(ADMIN + f"/v2/users/{general}", 400)                 # a room id read as a user
    get(ADMIN + f"/v1/rooms/{user('alice')}", 404)           # a user id read as a room
    get(CLIENT + f"/profile/{enc(user('nobody'))}", 404)

    # ---- b. creates
    # users: PUT /v2/users/{user_id} creates when the user does not exist (201)
    put(ADMIN + f"/v2/users/{user('erin')}", {"displayname": "Erin Hannon"}, 201)
    get(ADMIN + f"/v2/users/{user('erin')}")
    get(ADMIN + "/v2/users")
    put(ADMIN + f"/v2/users/{enc(user('frank'))}", {"displayname": "Frank Drebin", "admin": False}, 201)
    get(ADMIN + f"/v2/users/{user('frank')}")
    get(ADMIN + f"/v2/users/{enc(user('frank'))}")
    put(ADMIN + f"/v2/users/{user('grace')}", {"displayname": "Grace Hopper", "admin": True,
                                                "avatar_url": "mxc://capenv.test/GraceAvatar01"}, 201)
    get(ADMIN + f"/v2/users/{user('grace')}")
    get(ADMIN + "/v2/users")
    get(CLIENT + f"/profile/{enc(user('grace'))}")
    put(ADMIN + f"/v2/users/{user('heidi')}", {"displayname": "Heidi Klum", "user_type": "bot"}, 201)
    get(ADMIN + f"/v2/users/{user('heidi')}")
    # registration tokens: a client-chosen token, then generated ones
    expiry = 1830297600000  # 2028-01-01T00:00:00Z in ms
    post(ADMIN + "/v1/registration_tokens/new", {"token": "welcome-2027", "uses_allowed": 5,
                                                 "expiry_time": expiry})
    get(ADMIN + "/v1/registration_tokens/welcome-2027")
    get(ADMIN + "/v1/registration_tokens")
    generated = post(ADMIN + "/v1/registration_tokens/new", {})
    generated = generated.get("token") if isinstance(generated, dict) else None
    get(ADMIN + f"/v1/registration_tokens/{generated}")
    get(ADMIN + "/v1/registration_tokens")
    short = post(ADMIN + "/v1/registration_tokens/new", {"length": 8, "uses_allowed": 1})
    short = short.get("token") if isinstance(short, dict) else None
    get(ADMIN + f"/v1/registration_tokens/{short}")
    post(ADMIN + "/v1/registration_tokens/new", {"token": "Team_A.b~c", "uses_allowed": None})
    get(ADMIN + "/v1/registration_tokens/Team_A.b~c")
    get(ADMIN + "/v1/registration_tokens")
    # rooms (client API): the creator is the admin
    design = post(CLIENT + "/createRoom", {"name": "Design reviews", "room_alias_name": "design",
                                           "preset": "public_chat", "topic": "Weekly design critique"})
    design = design.get("room_id") if isinstance(design, dict) else None
    get(ADMIN + f"/v1/rooms/{design}")
    get(ADMIN + "/v1/rooms")
    get(CLIENT + f"/rooms/{enc(design)}/state/m.room.name")
    get(CLIENT + f"/directory/room/{enc('#design:' + SERVER)}")
    quiet = post(CLIENT + "/createRoom", {"name": "Quiet corner", "preset": "private_chat"})
    quiet = quiet.get("room_id") if isinstance(quiet, dict) else None
    get(ADMIN + f"/v1/rooms/{enc(quiet)}")
    get(ADMIN + "/v1/rooms")
    post(ADMIN + f"/v1/join/{enc(quiet)}", {"user_id": user("alice")})
    get(ADMIN + f"/v1/rooms/{quiet}/members")
    get(ADMIN + f"/v1/rooms/{quiet}")
    # account data of the admin (client API): PUT creates the type's content
    put(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings", {"theme": "dark"})
    get(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings")
    put(CLIENT + f"/user/{user('admin')}/account_data/org.capenv.pinned", {"rooms": [general]})
    get(CLIENT + f"/user/{user('admin')}/account_data/org.capenv.pinned")
    get(ADMIN + f"/v1/users/{enc(user('admin'))}/accountdata")

    # ---- c. updates
    put(ADMIN + f"/v2/users/{user('alice')}", {"displayname": "Alice Pleasance Liddell"})
    get(ADMIN + f"/v2/users/{user('alice')}")
    get(CLIENT + f"/profile/{enc(user('alice'))}/displayname")
    put(ADMIN + f"/v2/users/{enc(user('erin'))}", {"admin": True})
    get(ADMIN + f"/v2/users/{user('erin')}")
    put(ADMIN + f"/v2/users/{user('bob')}", {"displayname": "Robert Builder", "admin": False,
                                              "avatar_url": "mxc://capenv.test/BobAvatar02"})
    get(ADMIN + f"/v2/users/{user('bob')}")
    get(ADMIN + "/v2/users")
    put(ADMIN + f"/v1/users/{user('bob')}/admin", {"admin": True})
    get(ADMIN + f"/v1/users/{user('bob')}/admin")
    get(ADMIN + f"/v2/users/{enc(user('bob'))}")
    # profile (client API): the admin's own displayname, then another user's (a server admin may)
    put(CLIENT + f"/profile/{enc(user('admin'))}/displayname", {"displayname": "Ada the Admin"})
    get(CLIENT + f"/profile/{enc(user('admin'))}/displayname")
    get(ADMIN + f"/v2/users/{user('admin')}")
    put(CLIENT + f"/profile/{enc(user('carol'))}/displayname", {"displayname": "Captain Carol"})
    get(CLIENT + f"/profile/{enc(user('carol'))}/displayname")
    get(CLIENT + f"/profile/{user('carol')}")
    get(ADMIN + f"/v2/users/{user('carol')}")
    # room state (client API): rename a room, change a topic
    put(CLIENT + f"/rooms/{enc(design)}/state/m.room.name", {"name": "Design critiques"})
    get(CLIENT + f"/rooms/{enc(design)}/state/m.room.name")
    get(ADMIN + f"/v1/rooms/{design}")
    put(CLIENT + f"/rooms/{enc(general)}/state/m.room.topic", {"topic": "Announcements and news"})
    get(CLIENT + f"/rooms/{enc(general)}/state/m.room.topic")
    put(CLIENT + f"/rooms/{enc(quiet)}/state/m.room.name", {"name": "Quiet room"})
    get(CLIENT + f"/rooms/{enc(quiet)}/state/m.room.name")
    get(ADMIN + "/v1/rooms")
    # account data replaced whole
    put(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings",
        {"theme": "light", "density": "compact"})
    get(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings")
    # registration tokens: PUT changes the members sent
    put(ADMIN + "/v1/registration_tokens/welcome-2027", {"uses_allowed": 10})
    get(ADMIN + "/v1/registration_tokens/welcome-2027")
    put(ADMIN + "/v1/registration_tokens/welcome-2027", {"expiry_time": None})
    get(ADMIN + "/v1/registration_tokens/welcome-2027")
    put(ADMIN + f"/v1/registration_tokens/{short}", {"uses_allowed": 3, "expiry_time": expiry})
    get(ADMIN + f"/v1/registration_tokens/{short}")
    get(ADMIN + "/v1/registration_tokens")

    # ---- d. deletes and deactivations
    delete(ADMIN + "/v1/registration_tokens/Team_A.b~c")
    get(ADMIN + "/v1/registration_tokens/Team_A.b~c", 404)
    get(ADMIN + "/v1/registration_tokens")
    delete(ADMIN + f"/v1/registration_tokens/{generated}")
    get(ADMIN + f"/v1/registration_tokens/{generated}", 404)
    post(ADMIN + f"/v1/deactivate/{user('frank')}", {"erase": False})
    get(ADMIN + f"/v2/users/{user('frank')}")
    get(ADMIN + "/v2/users")
    post(ADMIN + f"/v1/deactivate/{enc(user('grace'))}", {"erase": True})
    get(ADMIN + f"/v2/users/{user('grace')}")
    get(CLIENT + f"/profile/{enc(user('grace'))}", 404)
    # (no reactivation: PUT {"deactivated": false} answers 500 on SQLite, README "Problems met")
    put(ADMIN + f"/v2/users/{user('frank')}", {"displayname": "Frank (left)"})
    get(ADMIN + f"/v2/users/{user('frank')}")
    # a room deleted by v1 (synchronous: members kicked, then purged)
    delete(ADMIN + f"/v1/rooms/{enc(quiet)}", body={})
    get(ADMIN + f"/v1/rooms/{quiet}", 404)
    get(ADMIN + "/v1/rooms")
    # a room deleted by v2 (in the background: its status is read until complete)
    answer = delete(ADMIN + f"/v2/rooms/{design}", body={"block": False, "purge": True})
    delete_id = answer.get("delete_id") if isinstance(answer, dict) else None
    for _ in range(20):
        status = get(ADMIN + f"/v2/rooms/delete_status/{delete_id}")
        if status.get("status") == "complete":
            break
        time.sleep(0.5)
    get(ADMIN + f"/v2/rooms/{enc(design)}/delete_status")
    get(ADMIN + f"/v1/rooms/{design}", 404)
    get(ADMIN + "/v1/rooms")
    get(CLIENT + f"/directory/room/{enc('#design:' + SERVER)}", 404)

    # ---- e. lists: paging, filters, sorts
    get(ADMIN + "/v2/users", limit=3)
    get(ADMIN + "/v2/users", **{"from": 3, "limit": 3})
    get(ADMIN + "/v2/users", **{"from": 6, "limit": 3})
    get(ADMIN + "/v2/users", **{"from": 30, "limit": 3})
    get(ADMIN + "/v2/users", name="al")
    get(ADMIN + "/v2/users", name="Builder")
    get(ADMIN + "/v2/users", guests="false")
    get(ADMIN + "/v2/users", deactivated="true")
    get(ADMIN + "/v2/users", admins="true")
    get(ADMIN + "/v2/users", admins="false", deactivated="false")
    get(ADMIN + "/v2/users", order_by="name", dir="b")
    get(ADMIN + "/v2/users", order_by="displayname")
    get(ADMIN + "/v2/users", order_by="displayname", dir="b", limit=4)
    get(ADMIN + "/v2/users", order_by="creation_ts", dir="b")
    get(ADMIN + "/v2/users", order_by="admin", dir="b")
    get(ADMIN + "/v2/users", user_id="car")
    get(ADMIN + "/v2/users", not_user_type="bot")
    get(ADMIN + "/v1/rooms", search_term="Gen")
    get(ADMIN + "/v1/rooms", order_by="name")
    get(ADMIN + "/v1/rooms", order_by="name", dir="b")
    get(ADMIN + "/v1/rooms", order_by="joined_members")
    get(ADMIN + "/v1/rooms", limit=1)
    get(ADMIN + "/v1/rooms", **{"from": 1, "limit": 1})
    get(ADMIN + "/v1/registration_tokens", valid="true")
    get(ADMIN + "/v1/registration_tokens", valid="false")

    # ---- f. failures
    put(ADMIN + "/v2/users/@someone:example.org", {"displayname": "Remote"}, 400)
    put(ADMIN + f"/v2/users/{user('ivan')}", {"deactivated": "no"}, 400)
    put(ADMIN + f"/v2/users/{user('ivan')}", {"admin": "yes"}, 400)
    put(ADMIN + f"/v2/users/{user('ivan')}", None, 400, raw='{"displayname": ')
    put(ADMIN + f"/v2/users/{user('ivan')}", {"user_type": "robot"}, 400)
    get(ADMIN + f"/v2/users/{user('ivan')}", 404)
    post(ADMIN + "/v1/registration_tokens/new", {"token": "welcome-2027"}, 400)   # taken
    post(ADMIN + "/v1/registration_tokens/new", {"token": "has space"}, 400)
    post(ADMIN + "/v1/registration_tokens/new", {"uses_allowed": -1}, 400)
    post(ADMIN + "/v1/registration_tokens/new", {"expiry_time": 1000}, 400)      # in the past
    post(ADMIN + "/v1/registration_tokens/new", {"length": 0}, 400)
    put(ADMIN + "/v1/registration_tokens/never-issued", {"uses_allowed": 1}, 404)
    put(ADMIN + "/v1/registration_tokens/welcome-2027", {"uses_allowed": "many"}, 400)
    delete(ADMIN + "/v1/registration_tokens/never-issued", 404)
    delete(ADMIN + "/v1/registration_tokens/Team_A.b~c", 404)                     # deleted already
    post(ADMIN + f"/v1/deactivate/{user('nobody')}", {"erase": False}, 404)
    post(CLIENT + "/createRoom", {"name": "Another general", "room_alias_name": "general"}, 400)
    post(CLIENT + "/createRoom", {"name": "Bad preset", "preset": "secret_chat"}, 400)
    get(CLIENT + f"/rooms/{enc(ops)}/state/m.room.avatar", 404)
    put(CLIENT + f"/rooms/{enc(general)}/state/m.room.name", None, 400, raw="not json")
    put(CLIENT + f"/profile/{enc(user('alice'))}/displayname", {"displayname": 7}, 400)
    call("GET", ADMIN + "/v2/users", token=None, expect=401)
    call("GET", ADMIN + "/v2/users", token="syt_not_a_real_token", expect=401)
    get(ADMIN + "/v2/users", 400, order_by="favourite_colour")
    get(ADMIN + "/v2/users", 400, dir="sideways")
    get(ADMIN + "/v1/rooms", 400, order_by="vibes")

    # ---- g. final state
    get(ADMIN + "/v2/users")
    for localpart in ("admin", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"):
        get(ADMIN + f"/v2/users/{user(localpart)}")
    get(ADMIN + "/v1/rooms")
    for room in (general, random_room, ops):
        get(ADMIN + f"/v1/rooms/{room}")
    get(ADMIN + "/v1/registration_tokens")
    get(ADMIN + "/v1/registration_tokens/welcome-2027")
    get(ADMIN + f"/v1/registration_tokens/{short}")
    get(CLIENT + f"/user/{enc(user('admin'))}/account_data/org.capenv.settings")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42731")
