#!/usr/bin/env python3
"""Seed a fresh Request Tracker 5.0.3 through its REST 2.0 API (standard library only).

Usage: seed.py BASE_URL USER PASSWORD

Runs directly on the application's port (start.sh), never through a recording proxy, with HTTP
Basic authentication of root. RT's initial data already holds queue 1 "General" (2 "___Approvals"
is hidden), users RT_System, Nobody and root; every principal (user, group, queue role group)
shares one id sequence, so the ids below are fixed on every fresh start only because the seed
always makes the same things in the same order. What it makes (README "Seed data"):
  users   alice (privileged), bob (privileged), carol (unprivileged, a requestor)
  queues  Support, Engineering
  tickets 1 Support "Printer jams on floor 2" (requestor carol, priority 10, a comment),
          2 Support "VPN drops at noon" (owner alice, open),
          3 Engineering "Build server out of disk" (owner bob, priority 50),
          4 General "Welcome packet for new hires" (resolved)
"""
import base64
import json
import sys
import urllib.error
import urllib.request

BASE, USER, PASSWORD = sys.argv[1].rstrip("/") + "/REST/2.0", sys.argv[2], sys.argv[3]
AUTH = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()


def send(method, path, body=None, expect=(200, 201)):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", AUTH)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    if status not in expect:
        raise SystemExit(f"seed: {method} {path} answered {status}: {raw[:300]!r}")
    answer = json.loads(raw) if raw else None
    # RT answers 200 with a list of messages for an update, some of them refusals
    if method == "PUT" and not (isinstance(answer, list) and answer and all("changed" in m for m in answer)):
        raise SystemExit(f"seed: {method} {path} did not change everything: {answer!r}")
    return answer


for name, email, real_name, privileged in (("alice", "alice@capenv.test", "Alice Liddell", 1),
                                           ("bob", "bob@capenv.test", "Bob Builder", 1),
                                           ("carol", "carol@example.net", "Carol Danvers", 0)):
    send("POST", "/user", {"Name": name, "EmailAddress": email, "RealName": real_name,
                           "Privileged": privileged, "Organization": "capenv"})

send("POST", "/queue", {"Name": "Support", "Description": "Customer support",
                        "CorrespondAddress": "support@capenv.test"})
send("POST", "/queue", {"Name": "Engineering", "Description": "Internal engineering"})

send("POST", "/ticket", {"Queue": "Support", "Subject": "Printer jams on floor 2", "Requestor": "carol@example.net",
                         "Priority": 10, "Content": "The printer on floor 2 jams twice a day.",
                         "ContentType": "text/plain"})
send("POST", "/ticket/1/comment", {"Content": "Toner was replaced last week.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "Support", "Subject": "VPN drops at noon", "Owner": "alice", "Status": "open",
                         "Content": "Every day at noon.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "Engineering", "Subject": "Build server out of disk", "Owner": "bob",
                         "Priority": 50, "Content": "/var is full.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "General", "Subject": "Welcome packet for new hires",
                         "Content": "Print ten packets.", "ContentType": "text/plain"})
send("PUT", "/ticket/4", {"Status": "resolved"})
