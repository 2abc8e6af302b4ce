#!/usr/bin/env python3
"""Scenario driver for Icinga 2 2.13.6's REST API (talks to the mitmproxy reverse proxy in front of
it, which talks TLS to the API).

Usage:
  python driver.py --base http://127.0.0.1:43123 --mode capture [-v]

Every call sends HTTP Basic authentication of the throwaway ApiUser capenv (permissions ["*"]) and
`Accept: application/json`, except the few that show what other credentials get. The seed (seed.py,
not recorded): hostgroups linux and windows, servicegroup web, usergroup ops, users alice and bob,
hosts db01, web01, web02 (linux) and win01 (windows), services web01!http, web01!ssh, web02!http
and db01!postgres. Reads name the attributes they want (`?attrs=address&attrs=vars`): a read of
every attribute shows clocks of the moment the object was made (`version`, `last_state_change`,
`next_check`) and its config file's path, which no other run repeats; a few show them anyway.
Timestamps sent (downtimes) are fixed, in 2030. Every call is sequential, with a random 50-150 ms
sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


def basic(user, password):
    return base64.b64encode(f"{user}:{password}".encode()).decode()


TOKEN = basic("capenv", "capenv-icinga-not-a-secret")
WRONG = basic("capenv", "not-the-password")
JSON = {"Accept": "application/json"}
HOST_ATTRS = ["address", "display_name", "groups", "vars", "check_interval", "notes"]
SERVICE_ATTRS = ["host_name", "display_name", "groups", "vars", "check_command", "notes"]
GROUP_ATTRS = ["display_name", "notes"]
USERGROUP_ATTRS = ["display_name"]  # user groups have no notes
USER_ATTRS = ["display_name", "email", "pager", "groups", "enable_notifications"]
COMMENT_ATTRS = ["author", "text", "host_name", "service_name", "entry_type"]
DOWNTIME_ATTRS = ["author", "comment", "host_name", "service_name", "start_time", "end_time", "fixed", "duration"]


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Basic")


def capture(d):
    def get(path, attrs=None, expect=200, **params):
        if attrs is not None:
            params["attrs"] = attrs
        return d.call("GET", "/v1" + path, params=params or None, expect=expect, headers=JSON)[1]

    def send(method, path, body=None, expect=200, raw=None, **params):
        return d.call(method, "/v1" + path, body, raw=raw, params=params or None, expect=expect, headers=JSON)[1]

    def host(name, expect=200):
        return get(f"/objects/hosts/{name}", HOST_ATTRS, expect)

    def service(name, expect=200):
        return get(f"/objects/services/{name}", SERVICE_ATTRS, expect)

    # ---- a. reads of the seed before any write
    get("/objects/hosts", HOST_ATTRS)
    host("web01")
    host("db01")
    get("/objects/hosts/win01")                                   # every attribute
    get("/objects/services", SERVICE_ATTRS)
    service("web01!http")
    service("db01!postgres")
    get("/objects/hostgroups", GROUP_ATTRS)
    get("/objects/hostgroups/linux", GROUP_ATTRS)
    get("/objects/servicegroups", GROUP_ATTRS)
    get("/objects/usergroups/ops", USERGROUP_ATTRS)
    get("/objects/users", USER_ATTRS)
    get("/objects/users/alice", USER_ATTRS)
    get("/objects/users/bob", USER_ATTRS)
    get("/objects/hosts", HOST_ATTRS, filter='host.vars.os=="Linux"')
    get("/objects/hosts", ["address"], filter='match("web*", host.name)')
    get("/objects/services", ["display_name", "vars"], filter='host.name=="web01"')
    get("/objects/services", ["display_name"], joins=["host.address"], filter='service.vars.port==80')
    get("/objects/hosts", ["address"], filter='host.address=="10.0.1.10"')
    get("/objects/hosts/nope", HOST_ATTRS, expect=404)
    get("/objects/services/web01!nope", SERVICE_ATTRS, expect=404)
    get("/objects/users/nobody", USER_ATTRS, expect=404)
    get("/objects/hostgroups/nope", GROUP_ATTRS, expect=404)
    get("/objects/hosts", HOST_ATTRS, filter='host.vars.os=="Solaris"')
    d.call("GET", "/v1/objects/hosts/web01", params={"attrs": "address"}, token=WRONG, expect=401, headers=JSON)
    d.call("GET", "/v1/objects/hosts/web01", params={"attrs": "address"}, token=None, expect=401, headers=JSON)

    # ---- b. hosts: creates at client-chosen names, reads after every write
    send("PUT", "/objects/hosts/app01", {"templates": ["generic-host"], "attrs": {
        "address": "10.0.3.11", "display_name": "App 1", "groups": ["linux"],
        "vars": {"os": "Linux", "role": "app"}, "notes": "first app server"}})
    host("app01")
    get("/objects/hosts", HOST_ATTRS)
    send("PUT", "/objects/hosts/app02", {"templates": ["generic-host"], "attrs": {
        "address": "10.0.3.12", "display_name": "App 2", "vars": {"os": "Linux", "role": "app"}}})
    host("app02")
    send("PUT", "/objects/hosts/app03", {"templates": ["generic-host"], "attrs": {
        "address": "10.0.3.13", "check_interval": 300}})
    host("app03")
    send("PUT", "/objects/hosts/edge01", {"templates": ["generic-host"], "attrs": {
        "address": "192.168.7.1", "display_name": "Edge router", "groups": ["windows", "linux"],
        "vars": {"os": "Linux", "role": "router", "rack": {"row": 3, "unit": 12}}}})
    host("edge01")
    get("/objects/hosts", HOST_ATTRS, filter='host.vars.role=="app"')
    # a name that exists, an attribute Hosts lack, a body that is no JSON, a group that is no group
    send("PUT", "/objects/hosts/app01", {"templates": ["generic-host"], "attrs": {"address": "10.0.3.99"}},
         expect=500)
    host("app01")
    send("PUT", "/objects/hosts/app09", {"templates": ["generic-host"], "attrs": {
        "address": "10.0.3.19", "flavour": "vanilla"}}, expect=500)
    host("app09", expect=404)
    send("PUT", "/objects/hosts/app09", raw="not json", expect=400)
    host("app09", expect=404)
    send("PUT", "/objects/hosts/app09", {"templates": ["generic-host"], "attrs": {"address": 5}})
    host("app09")
    get("/objects/hosts/app09")                                   # every attribute

    # ---- c. host updates: POST merges the attributes sent
    send("POST", "/objects/hosts/app01", {"attrs": {"address": "10.0.3.111", "display_name": "App 1 (primary)"}})
    host("app01")
    send("POST", "/objects/hosts/app01", {"attrs": {"notes": "moved to rack 4"}})
    host("app01")
    send("POST", "/objects/hosts/app02", {"attrs": {"vars": {"os": "Linux", "role": "cache"}}})
    host("app02")
    send("POST", "/objects/hosts/app02", {"attrs": {"vars.tier": "gold"}})
    host("app02")
    send("POST", "/objects/hosts/app03", {"attrs": {"check_interval": 120, "display_name": "App 3"}})
    host("app03")
    send("POST", "/objects/hosts/web02", {"attrs": {"notes": "behind the load balancer"}})
    host("web02")
    get("/objects/hosts", HOST_ATTRS)
    # a wrong type, an unknown attribute, a missing host, a body that is no JSON
    send("POST", "/objects/hosts/app03", {"attrs": {"check_interval": "often"}})
    host("app03")
    send("POST", "/objects/hosts/app03", {"attrs": {"colour": "blue"}})
    host("app03")
    send("POST", "/objects/hosts/nope", {"attrs": {"notes": "x"}}, expect=404)
    host("nope", expect=404)
    send("POST", "/objects/hosts/app03", raw="{oops", expect=400)
    host("app03")

    # ---- d. services: host!service names
    send("PUT", "/objects/services/app01!http", {"templates": ["generic-service"], "attrs": {
        "display_name": "HTTP", "groups": ["web"], "vars": {"port": 80, "uri": "/health"}}})
    service("app01!http")
    send("PUT", "/objects/services/app01!disk", {"templates": ["generic-service"], "attrs": {
        "display_name": "Disk /", "vars": {"warn": "20%", "crit": "10%"}}})
    service("app01!disk")
    send("PUT", "/objects/services/app02!redis", {"attrs": {"check_command": "dummy", "display_name": "Redis",
                                                            "vars": {"port": 6379}}})
    service("app02!redis")
    get("/objects/services", SERVICE_ATTRS, filter='host.name=="app01"')
    get("/objects/services", SERVICE_ATTRS)
    get("/objects/services", ["display_name"], joins=["host.address"], filter='host.name=="app01"')
    send("PUT", "/objects/services/app01!http", {"templates": ["generic-service"], "attrs": {"display_name": "x"}},
         expect=500)
    send("PUT", "/objects/services/app01!ntp", {"templates": ["generic-service"], "attrs": {"port": 123}},
         expect=500)
    service("app01!ntp", expect=404)
    send("POST", "/objects/services/app01!http", {"attrs": {"display_name": "HTTP health", "vars.port": 8080}})
    service("app01!http")
    send("POST", "/objects/services/app01!disk", {"attrs": {"notes": "root filesystem"}})
    service("app01!disk")
    send("POST", "/objects/services/web01!ssh", {"attrs": {"vars": {"port": 2222}}})
    service("web01!ssh")
    send("POST", "/objects/services/app01!nope", {"attrs": {"notes": "x"}}, expect=404)
    service("app01!nope", expect=404)
    send("DELETE", "/objects/services/app01!disk")
    service("app01!disk", expect=404)
    get("/objects/services", SERVICE_ATTRS, filter='host.name=="app01"')
    send("DELETE", "/objects/services/app01!disk", expect=404)

    # ---- e. host groups, service groups
    send("PUT", "/objects/hostgroups/dmz", {"attrs": {"display_name": "DMZ", "notes": "exposed hosts"}})
    get("/objects/hostgroups/dmz", GROUP_ATTRS)
    get("/objects/hostgroups", GROUP_ATTRS)
    send("PUT", "/objects/hostgroups/lab", {"attrs": {"display_name": "Lab"}})
    get("/objects/hostgroups/lab", GROUP_ATTRS)
    send("POST", "/objects/hostgroups/dmz", {"attrs": {"display_name": "Demilitarized zone"}})
    get("/objects/hostgroups/dmz", GROUP_ATTRS)
    send("POST", "/objects/hosts/edge01", {"attrs": {"groups": ["dmz"]}})   # groups are not modifiable
    host("edge01")
    send("PUT", "/objects/hostgroups/lab", {"attrs": {"display_name": "Lab 2"}}, expect=500)
    send("PUT", "/objects/hostgroups/qa", {"attrs": {"display_name": "QA", "assign": ["host.vars.os"]}},
         expect=500)
    get("/objects/hostgroups/qa", GROUP_ATTRS, expect=404)
    send("DELETE", "/objects/hostgroups/lab")
    get("/objects/hostgroups/lab", GROUP_ATTRS, expect=404)
    get("/objects/hostgroups", GROUP_ATTRS)
    send("PUT", "/objects/servicegroups/db", {"attrs": {"display_name": "Databases"}})
    get("/objects/servicegroups/db", GROUP_ATTRS)
    send("POST", "/objects/services/db01!postgres", {"attrs": {"groups": ["db"]}})
    service("db01!postgres")
    get("/objects/servicegroups", GROUP_ATTRS)

    # ---- f. users and user groups
    send("PUT", "/objects/users/carol", {"templates": ["generic-user"], "attrs": {
        "display_name": "Carol Ops", "email": "carol@capenv.test", "groups": ["ops"]}})
    get("/objects/users/carol", USER_ATTRS)
    send("PUT", "/objects/users/dave", {"attrs": {"display_name": "Dave", "email": "dave@capenv.test"}})
    get("/objects/users/dave", USER_ATTRS)
    get("/objects/users", USER_ATTRS)
    send("POST", "/objects/users/carol", {"attrs": {"pager": "555-0199", "email": "carol.ops@capenv.test"}})
    get("/objects/users/carol", USER_ATTRS)
    send("POST", "/objects/users/dave", {"attrs": {"enable_notifications": False}})
    get("/objects/users/dave", USER_ATTRS)
    send("POST", "/objects/users/dave", {"attrs": {"enable_notifications": "sometimes"}})
    get("/objects/users/dave", USER_ATTRS)
    get("/objects/users", USER_ATTRS, filter='user.email=="alice@capenv.test"')
    send("PUT", "/objects/usergroups/devs", {"attrs": {"display_name": "Developers"}})
    get("/objects/usergroups/devs", USERGROUP_ATTRS)
    send("POST", "/objects/users/dave", {"attrs": {"groups": ["devs"]}})
    get("/objects/users/dave", USER_ATTRS)
    get("/objects/usergroups", USERGROUP_ATTRS)
    send("DELETE", "/objects/users/dave")
    get("/objects/users/dave", USER_ATTRS, expect=404)
    get("/objects/users", USER_ATTRS)
    send("DELETE", "/objects/users/dave", expect=404)

    # ---- g. actions: comments, downtimes, check results, acknowledgements
    answer = send("POST", "/actions/add-comment", {"type": "Host", "filter": 'host.name=="app01"',
                                                   "author": "ops", "comment": "disk replaced"})
    comment = answer["results"][0]["name"]
    get(f"/objects/comments/{comment}", COMMENT_ATTRS)
    get("/objects/comments", COMMENT_ATTRS)
    send("POST", "/actions/add-comment", {"type": "Service", "service": "web01!http",
                                          "author": "alice", "comment": "slow answers"})
    get("/objects/comments", COMMENT_ATTRS, filter='comment.host_name=="web01"')
    send("POST", "/actions/add-comment", {"type": "Host", "filter": 'host.name=="nope"',
                                          "author": "ops", "comment": "x"}, expect=500)
    send("POST", "/actions/add-comment", {"type": "Host", "host": "app01", "author": "ops"}, expect=400)
    send("POST", "/actions/remove-comment", {"comment": comment})
    get(f"/objects/comments/{comment}", COMMENT_ATTRS, expect=404)
    get("/objects/comments", COMMENT_ATTRS)
    answer = send("POST", "/actions/schedule-downtime", {
        "type": "Host", "filter": 'host.name=="app02"', "author": "ops", "comment": "kernel upgrade",
        "start_time": 1893456000, "end_time": 1893459600, "fixed": True})
    downtime = answer["results"][0]["name"]
    get(f"/objects/downtimes/{downtime}", DOWNTIME_ATTRS)
    send("POST", "/actions/schedule-downtime", {
        "type": "Service", "filter": 'host.name=="web02" && service.name=="http"', "author": "bob",
        "comment": "certificate renewal", "start_time": 1893542400, "end_time": 1893546000, "fixed": False,
        "duration": 600})
    get("/objects/downtimes", DOWNTIME_ATTRS)
    send("POST", "/actions/schedule-downtime", {"type": "Host", "host": "app02", "author": "ops",
                                                "comment": "x", "start_time": 1893456000}, expect=400)
    send("POST", "/actions/remove-downtime", {"downtime": downtime})
    get(f"/objects/downtimes/{downtime}", DOWNTIME_ATTRS, expect=404)
    get("/objects/downtimes", DOWNTIME_ATTRS)
    send("POST", "/actions/process-check-result", {"type": "Service", "service": "app01!http",
                                                   "exit_status": 2, "plugin_output": "HTTP CRITICAL - 503"})
    get("/objects/services/app01!http", ["state", "state_type", "acknowledgement", "check_attempt"])
    send("POST", "/actions/acknowledge-problem", {"type": "Service", "service": "app01!http",
                                                  "author": "ops", "comment": "looking into it"})
    get("/objects/services/app01!http", ["state", "state_type", "acknowledgement", "check_attempt"])
    send("POST", "/actions/remove-acknowledgement", {"type": "Service", "service": "app01!http"})
    get("/objects/services/app01!http", ["state", "state_type", "acknowledgement", "check_attempt"])
    send("POST", "/actions/process-check-result", {"type": "Service", "service": "app01!http",
                                                   "exit_status": 0, "plugin_output": "HTTP OK"})
    get("/objects/services/app01!http", ["state", "state_type", "acknowledgement", "check_attempt"])
    send("POST", "/actions/process-check-result", {"type": "Service", "service": "app01!nope",
                                                   "exit_status": 0, "plugin_output": "x"}, expect=404)
    send("POST", "/actions/no-such-action", {"type": "Host", "host": "app01"}, expect=404)

    # ---- h. deletes: cascade takes the host's services
    send("DELETE", "/objects/hosts/app03")
    host("app03", expect=404)
    get("/objects/hosts", HOST_ATTRS)
    send("DELETE", "/objects/hosts/app03", expect=404)
    send("DELETE", "/objects/hosts/app01", expect=500)            # it has services
    host("app01")
    send("DELETE", "/objects/hosts/app01", cascade=1)
    host("app01", expect=404)
    service("app01!http", expect=404)
    get("/objects/services", SERVICE_ATTRS)
    get("/objects/comments", COMMENT_ATTRS)
    send("DELETE", "/objects/hostgroups/dmz")
    get("/objects/hostgroups/dmz", GROUP_ATTRS, expect=404)
    get("/objects/hostgroups", GROUP_ATTRS)
    send("DELETE", "/objects/hostgroups/dmz", expect=404)
    send("DELETE", "/objects/hosts/edge01")
    host("edge01", expect=404)
    get("/objects/hosts", HOST_ATTRS)
    send("DELETE", "/objects/hosts", filter='host.name=="app09"')
    host("app09", expect=404)

    # ---- i. config packages and stages
    send("POST", "/config/packages/capenv-pkg")
    get("/config/packages")
    send("POST", "/config/packages/capenv-pkg", expect=500)       # it exists
    send("POST", "/config/packages/bad%20name", expect=400)
    answer = send("POST", "/config/stages/capenv-pkg", {"files": {
        "conf.d/hosts.conf": 'object Host "pkg01" { check_command = "dummy"; address = "10.9.0.1" }'},
        "reload": False})
    stage = answer["results"][0]["stage"]
    get(f"/config/stages/capenv-pkg/{stage}")
    get("/config/packages")
    send("DELETE", "/config/packages/capenv-pkg")
    get("/config/packages")
    send("DELETE", "/config/packages/capenv-pkg", expect=500)

    # ---- j. reads at the end
    get("/objects/hosts", HOST_ATTRS)
    get("/objects/services", SERVICE_ATTRS)
    get("/objects/users", USER_ATTRS)
    get("/objects/usergroups", USERGROUP_ATTRS)
    host("web02")
    service("web01!ssh")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43123")
