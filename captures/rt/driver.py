#!/usr/bin/env python3
"""Scenario driver for Request Tracker 5.0.3's REST 2.0 API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18411 --mode capture [-v]

Every call sends HTTP Basic authentication of root (the throwaway password of start.sh) unless it
says otherwise; every write sends a JSON body. RT's conventions: creates answer 201 with a stub
`{"type", "id", "_url"}` (ids as strings; users named by Name), updates answer 200 with a list of
messages (`["Ticket 1: Subject changed from 'a' to 'b'"]`, a refusal is a message in that list too),
comments and correspondence answer 201 `["Comments added"]`, deletes answer 204 and keep the entity
(a ticket's status becomes `deleted`, a queue or user is disabled), lists are pages of stubs
`{count, page, pages, per_page, total, items: [{type, id, _url}]}` with `fields=` adding members,
ticket searches take TicketSQL in `query=`. The seed (seed.py, run by start.sh, not recorded):
README "Seed data". Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ROOT = base64.b64encode(b"root:capenv-rt-throwaway").decode()
API = "/REST/2.0"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=ROOT, scheme="Basic")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200):
        return call(method, API + path, body=body, expect=expect)[1]

    def ids(answer):
        return [item.get("id") for item in (answer or {}).get("items", [])] if isinstance(answer, dict) else None

    def field(answer, name):
        return answer.get(name) if isinstance(answer, dict) else None

    # ---- a. reads of the seed before any write
    check("queues", ids(get("/queues/all")), ["4", "1", "3"])
    get("/queues/all", fields="Name,Description")
    for queue in ("1", "3", "4", "Support"):
        get(f"/queue/{queue}")
    check("users", ids(get("/users")), ["alice", "bob", "carol", "Nobody", "root", "RT_System"])
    for user in ("alice", "bob", "carol", "root"):
        get(f"/user/{user}")
    alice = get("/user/alice")
    alice_id = field(alice, "id") or 29
    get(f"/user/{alice_id}")
    for ticket in (1, 2, 3, 4):
        get(f"/ticket/{ticket}")
    get("/ticket/1/history")
    get("/ticket/2/history")
    get("/queue/3/history")
    get("/tickets", query="id > 0")
    # absences and refusals
    get("/ticket/99", expect=404)
    get("/queue/99", expect=404)
    get("/user/zed", expect=404)
    get("/user/999", expect=404)
    call("GET", API + "/ticket/1", token=None, expect=401)
    call("GET", API + "/queues/all", token="cm9vdDp3cm9uZw==", expect=401)

    # ---- b. ticket searches: TicketSQL, projections, paging, order
    get("/tickets", query="Queue = 'Support'")
    get("/tickets", query="Queue = 'Support'", fields="Subject,Status,Owner")
    get("/tickets", query="Status = 'open'")
    get("/tickets", query="Status = '__Active__'", fields="Subject,Priority")
    get("/tickets", query="Priority > 20", fields="Subject,Priority")
    get("/tickets", query="Owner = 'alice'")
    get("/tickets", query="Subject LIKE 'printer'", fields="Subject")
    get("/tickets", query="id > 0", per_page="2")
    get("/tickets", query="id > 0", per_page="2", page="2")
    get("/tickets", query="id > 0", orderby="Priority", order="DESC", fields="Priority")
    get("/tickets", query="Queue = 'Nowhere'")
    get("/tickets", query="Bogus = 'x'", expect=400)
    get("/queues/all", per_page="1", page="2")
    get("/users", per_page="2")

    # ---- c. queues: create, read back, update, duplicates
    made = send("POST", "/queue", {"Name": "Facilities", "Description": "Buildings and rooms",
                                   "CorrespondAddress": "facilities@capenv.test"}, expect=201)
    facilities = field(made, "id") or "5"
    check("queue stub", sorted(made) if isinstance(made, dict) else None, ["_url", "id", "type"])
    get(f"/queue/{facilities}")
    get("/queue/Facilities")
    get("/queues/all")
    made = send("POST", "/queue", {"Name": "Security", "Description": "Incidents", "SortOrder": 5}, expect=201)
    security = field(made, "id") or "6"
    get(f"/queue/{security}")
    get("/queues/all", fields="Name,SortOrder")
    send("POST", "/queue", {"Name": "Support", "Description": "Again"}, expect=400)
    send("POST", "/queue", {"Description": "No name"}, expect=400)
    get("/queues/all")
    send("PUT", f"/queue/{facilities}", {"Description": "Buildings, rooms and parking"})
    get(f"/queue/{facilities}")
    send("PUT", f"/queue/{facilities}", {"Name": "Workplace", "CommentAddress": "workplace-comment@capenv.test"})
    get(f"/queue/{facilities}")
    get("/queue/Workplace")
    get("/queue/Facilities", expect=404)
    send("PUT", f"/queue/{security}", {"SortOrder": 1, "Description": "Security incidents"})
    get(f"/queue/{security}")
    send("PUT", "/queue/3", {"Name": "Engineering"})
    get("/queue/3")
    send("PUT", "/queue/99", {"Description": "Never there"}, expect=404)
    get("/queue/3/history")

    # ---- d. tickets: create in a queue, read back
    made = send("POST", "/ticket", {"Queue": "Support", "Subject": "Laptop will not boot",
                                    "Requestor": "carol@example.net", "Priority": 30,
                                    "Content": "Black screen after the update.", "ContentType": "text/plain"},
                expect=201)
    laptop = field(made, "id") or "5"
    check("ticket stub", sorted(made) if isinstance(made, dict) else None, ["_url", "id", "type"])
    get(f"/ticket/{laptop}")
    get(f"/ticket/{laptop}/history")
    get("/tickets", query="Queue = 'Support'", fields="Subject,Status,Priority")
    made = send("POST", "/ticket", {"Queue": facilities, "Subject": "Broken chair in room 12", "Owner": "bob",
                                    "Content": "The left armrest fell off.", "ContentType": "text/plain"},
                expect=201)
    chair = field(made, "id") or "6"
    get(f"/ticket/{chair}")
    get("/tickets", query=f"Queue = '{facilities}'")
    made = send("POST", "/ticket", {"Queue": "Engineering", "Subject": "Rotate the TLS certificate",
                                    "Status": "open", "Priority": 70, "Owner": "alice"}, expect=201)
    tls = field(made, "id") or "7"
    get(f"/ticket/{tls}")
    get("/tickets", query="Owner = 'alice'", fields="Subject,Status")
    made = send("POST", "/ticket", {"Queue": security, "Subject": "Phishing mail reported",
                                    "Requestor": ["alice@capenv.test", "bob@capenv.test"], "Priority": 90},
                expect=201)
    phishing = field(made, "id") or "8"
    get(f"/ticket/{phishing}")
    get("/tickets", query="Priority > 20", fields="Subject,Priority")
    # refused creates
    send("POST", "/ticket", {"Subject": "No queue"}, expect=400)
    send("POST", "/ticket", {"Queue": "Nowhere", "Subject": "Missing queue"}, expect=403)
    send("POST", "/ticket", {"Queue": "Support", "Subject": "Bad status", "Status": "bogus"}, expect=400)
    get("/tickets", query="id > 0")

    # ---- e. ticket updates: subject, status, priority, owner, queue, refusals within a 200
    send("PUT", f"/ticket/{laptop}", {"Subject": "Laptop will not boot after update"})
    get(f"/ticket/{laptop}")
    send("PUT", f"/ticket/{laptop}", {"Status": "open", "Priority": 40})
    get(f"/ticket/{laptop}")
    send("PUT", f"/ticket/{laptop}", {"Owner": "alice"})
    get(f"/ticket/{laptop}")
    get("/tickets", query="Owner = 'alice'", fields="Subject,Status")
    send("PUT", "/ticket/1", {"Priority": 15, "Subject": "Printer jams on floor 2 daily"})
    get("/ticket/1")
    send("PUT", "/ticket/1", {"Status": "stalled"})
    get("/ticket/1")
    send("PUT", "/ticket/3", {"Owner": "alice", "Priority": 55})
    get("/ticket/3")
    send("PUT", f"/ticket/{chair}", {"Queue": "Support"})
    get(f"/ticket/{chair}")
    get("/tickets", query="Queue = 'Support'", fields="Subject,Status,Priority")
    send("PUT", f"/ticket/{tls}", {"Status": "resolved"})
    get(f"/ticket/{tls}")
    get("/tickets", query="Status = 'resolved'", fields="Subject")
    send("PUT", "/ticket/2", {"Status": "bogus"})
    get("/ticket/2")
    send("PUT", "/ticket/2", {"Owner": "carol"})
    get("/ticket/2")
    send("PUT", "/ticket/2", {"Queue": "Nowhere"})
    get("/ticket/2")
    send("PUT", "/ticket/2", {"Subject": "VPN drops at noon"})
    get("/ticket/2")
    send("PUT", "/ticket/99", {"Subject": "Never there"}, expect=404)
    get("/ticket/99", expect=404)
    send("PUT", f"/ticket/{phishing}", {"Status": "open", "Owner": "bob", "Subject": "Phishing mail reported twice"})
    get(f"/ticket/{phishing}")

    # ---- f. comments and correspondence, the history after them
    send("POST", f"/ticket/{laptop}/comment", {"Content": "Asked for the model number.", "ContentType": "text/plain"},
         expect=201)
    history = get(f"/ticket/{laptop}/history")
    get(f"/ticket/{laptop}")
    send("POST", f"/ticket/{laptop}/correspond", {"Content": "Please hold the power button for 10 s.",
                                                   "ContentType": "text/plain", "Subject": "Try this"}, expect=201)
    history = get(f"/ticket/{laptop}/history")
    transactions = ids(history) or []
    for transaction in transactions[-3:]:
        get(f"/transaction/{transaction}")
    get(f"/ticket/{laptop}")
    send("POST", "/ticket/1/correspond", {"Content": "A technician comes on Monday.", "ContentType": "text/plain",
                                          "Status": "open"}, expect=201)
    get("/ticket/1")
    get("/ticket/1/history")
    send("POST", "/ticket/3/comment", {"Content": "Cleaned /var/log.", "ContentType": "text/plain"}, expect=201)
    get("/ticket/3/history")
    # a comment on a missing ticket is refused 400, not 404
    send("POST", "/ticket/99/comment", {"Content": "Nobody reads this.", "ContentType": "text/plain"}, expect=400)
    get("/ticket/2/history")

    # ---- g. ticket deletes: the status becomes deleted, the ticket stays readable
    send("DELETE", f"/ticket/{chair}", expect=204)
    get(f"/ticket/{chair}")
    get("/tickets", query="Queue = 'Support'", fields="Subject,Status")
    get("/tickets", query="id > 0")
    get("/tickets", query="Status = 'deleted'", fields="Subject,Status")
    send("DELETE", "/ticket/4", expect=204)
    get("/ticket/4")
    get("/tickets", query="Queue = 'General'")
    send("DELETE", "/ticket/99", expect=404)
    get("/ticket/4/history")

    # ---- h. users: create, read by name and id, update, disable
    made = send("POST", "/user", {"Name": "dave", "EmailAddress": "dave@capenv.test", "RealName": "Dave Grohl",
                                  "Privileged": 1, "Organization": "capenv"}, expect=201)
    check("user stub", field(made, "id"), "dave")
    dave = get("/user/dave")
    dave_id = field(dave, "id") or 40
    get(f"/user/{dave_id}")
    get("/users")
    made = send("POST", "/user", {"Name": "erin", "EmailAddress": "erin@example.net", "RealName": "Erin Brockovich",
                                  "City": "Hinkley", "Country": "US"}, expect=201)
    get("/user/erin")
    get("/users", per_page="3", page="2")
    send("POST", "/user", {"Name": "alice", "EmailAddress": "another-alice@capenv.test"}, expect=400)
    send("POST", "/user", {"Name": "frank", "EmailAddress": "alice@capenv.test"}, expect=400)
    get("/user/frank", expect=404)
    send("PUT", "/user/dave", {"RealName": "David Grohl", "City": "Seattle"})
    get("/user/dave")
    get(f"/user/{dave_id}")
    send("PUT", f"/user/{dave_id}", {"Organization": "Foo Fighters", "NickName": "dg"})
    get("/user/dave")
    send("PUT", "/user/carol", {"EmailAddress": "carol@capenv.test", "Privileged": 1})
    get("/user/carol")
    get("/users")
    send("PUT", "/user/erin", {"EmailAddress": "alice@capenv.test"})
    get("/user/erin")
    send("PUT", "/user/zed", {"RealName": "Nobody"}, expect=404)
    send("DELETE", "/user/erin", expect=204)
    get("/user/erin")
    get("/users")
    send("DELETE", "/user/zed", expect=404)

    # ---- i. queue disable: a delete keeps the queue, disabled
    send("DELETE", f"/queue/{security}", expect=204)
    get(f"/queue/{security}")
    get("/queues/all")
    get(f"/ticket/{phishing}")
    send("PUT", f"/queue/{security}", {"Disabled": 0})
    get(f"/queue/{security}")
    get("/queues/all")
    send("DELETE", "/queue/99", expect=404)

    # ---- j. one more round: a ticket made, worked on, deleted; final reads
    made = send("POST", "/ticket", {"Queue": "Workplace", "Subject": "Coffee machine leaks", "Priority": 5,
                                    "Content": "Puddle every morning.", "ContentType": "text/plain"}, expect=201)
    coffee = field(made, "id") or "9"
    get(f"/ticket/{coffee}")
    send("PUT", f"/ticket/{coffee}", {"Owner": "dave", "Status": "open"})
    get(f"/ticket/{coffee}")
    send("POST", f"/ticket/{coffee}/correspond", {"Content": "Ordered a new gasket.", "ContentType": "text/plain"},
         expect=201)
    get(f"/ticket/{coffee}/history")
    send("PUT", f"/ticket/{coffee}", {"Status": "resolved"})
    get(f"/ticket/{coffee}")
    send("DELETE", f"/ticket/{coffee}", expect=204)
    get(f"/ticket/{coffee}")
    get("/tickets", query="id > 0", fields="Subject,Status,Queue")
    get("/tickets", query="Status = '__Active__'", fields="Subject,Status")
    get("/queues/all", fields="Name,Description,Disabled")
    get("/users")
    for ticket in (1, 2, 3):
        get(f"/ticket/{ticket}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18411")
