#!/usr/bin/env python3
"""Scenario driver for RabbitMQ 3.10.8's management HTTP API (talks to the mitmproxy reverse proxy
in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42741 --mode capture [-v]

Every call sends HTTP Basic authentication of the seed's throwaway administrator (admin), except
the few that show what other credentials get. The seed (definitions.json, imported by the broker
on boot, not recorded): vhosts / and staging; users admin, monitor, orders-app; exchanges orders
(topic) and notifications (fanout) in /, orders in staging; queues orders.created, orders.audit,
email in /, orders.created in staging; four bindings; the policy audit-ttl. Names are path
segments, percent-encoded: the default vhost / is %2F, a queue reports/daily is reports%2Fdaily.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


def basic(user, password):
    return base64.b64encode(f"{user}:{password}".encode()).decode()


ADMIN = basic("admin", "capenv-rabbitmq-throwaway")
MONITOR = basic("monitor", "monitor-throwaway")
WRONG = basic("admin", "not-the-password")
# password hashes made beforehand (rabbit_password_hashing_sha256 of a fixed salt), so that reads of
# the users show the same value on every run
CAROL_HASH = "ERITFNW0wJKTdc9GU7KEIWaqNmlNwje/wV5sonO3/JhnkUwL"
CAROL_ROTATED = "FRYXGKl12mWS4ZUYsRQC+SynaNZ1oAwNg2FFYw5oKKdAB34j"
OPS_HASH = "ISIjJCUtI36VFzWUaN8rtjmsZoUUrMJTqviqWRU6gVwFeeyf"
TEMP_HASH = "MTIzNHXJ2QO7pp6moacHS1E1uQo9Lyr/XJWyy71iTgy6qpj6"
ALL = {"configure": ".*", "write": ".*", "read": ".*"}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=ADMIN, scheme="Basic")


def capture(d):
    call = d.call

    def get(path, expect=200, **params):
        return call("GET", "/api" + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=204, raw=None, **kw):
        return call(method, "/api" + path, body, raw=raw, expect=expect, **kw)[1]

    # ---- a. reads before any write
    get("/whoami")
    get("/vhosts")
    get("/vhosts/%2F")
    get("/vhosts/staging")
    get("/users")
    get("/users/admin")
    get("/users/monitor")
    get("/permissions")
    get("/permissions/%2F/orders-app")
    get("/vhosts/%2F/permissions")
    get("/users/orders-app/permissions")
    get("/queues")
    get("/queues/%2F")
    get("/queues/%2F/email")
    get("/bindings/%2F/e/notifications/e/orders")     # the seeded exchange-to-exchange binding
    get("/queues/staging/orders.created")
    get("/exchanges/%2F")
    get("/exchanges/%2F/orders")
    get("/exchanges/%2F/amq.topic")
    get("/bindings/%2F/e/notifications/e/orders/~")   # by its properties key (~: no routing key)
    get("/bindings/%2F")
    get("/exchanges/%2F/orders/bindings/source")
    get("/queues/%2F/orders.created/bindings")
    get("/bindings/%2F/e/orders/q/orders.created")
    get("/bindings/%2F/e/orders/q/orders.created/order.created")
    get("/policies")
    get("/policies/%2F")
    get("/policies/%2F/audit-ttl")
    get("/global-parameters/cluster_name")
    # paging, sorting, filtering, columns
    get("/queues", page=1, page_size=2)
    get("/queues", page=2, page_size=2)
    get("/queues/%2F", page=1, page_size=2, name="orders", use_regex="false")
    get("/exchanges/%2F", page=1, page_size=3)
    get("/queues", sort="name", sort_reverse="true")
    get("/queues/%2F", columns="name,arguments")
    # absences
    get("/vhosts/nope", 404)
    get("/users/nobody", 404)
    get("/queues/%2F/missing", 404)
    get("/queues/nope/email", 404)                  # a vhost that does not exist
    get("/exchanges/%2F/missing", 404)
    get("/permissions/staging/monitor", 404)        # a user without permissions in a vhost
    get("/policies/%2F/missing", 404)
    get("/bindings/%2F/e/orders/q/email/no.such.key", 404)
    # credentials: none, a wrong password, a user who may not administer
    call("GET", "/api/vhosts", token=None, expect=401)
    call("GET", "/api/vhosts", token=WRONG, expect=401)
    call("PUT", "/api/vhosts/monitor-made", {}, token=MONITOR, expect=401)
    get("/vhosts/monitor-made", 404)
    # paging refused
    get("/queues", 400, page=1, page_size=0)
    get("/queues", 400, page=0)

    # ---- b. vhosts: PUT creates (201) or updates (204) at the name
    send("PUT", "/vhosts/dev", {"description": "Development", "tags": "dev,team-a"}, 201)
    get("/vhosts/dev")
    get("/vhosts")
    get("/permissions/dev/admin")                   # the creator is given every permission
    get("/vhosts/dev/permissions")
    send("PUT", "/vhosts/dev", {"description": "Dev box", "tags": "dev"})
    get("/vhosts/dev")
    send("PUT", "/vhosts/%2F", {"description": "Production", "tags": "prod"})   # the default vhost
    get("/vhosts/%2F")
    get("/vhosts")
    send("PUT", "/vhosts/team%2Fa", {"description": "Team A"}, 201)            # a name with a slash
    get("/vhosts/team%2Fa")
    get("/vhosts")
    send("PUT", "/vhosts/bad", raw="not json", expect=400)
    get("/vhosts/bad", 404)
    send("DELETE", "/vhosts/team%2Fa")
    get("/vhosts/team%2Fa", 404)
    send("DELETE", "/vhosts/team%2Fa", expect=404)
    get("/vhosts")

    # ---- c. users
    send("PUT", "/users/carol", {"password_hash": CAROL_HASH, "tags": "management"}, 201)
    get("/users/carol")
    get("/users")
    send("PUT", "/users/carol", {"password_hash": CAROL_ROTATED, "tags": "management,policymaker"})
    get("/users/carol")
    send("PUT", "/users/ops%40example.com", {"password_hash": OPS_HASH, "tags": "monitoring"}, 201)
    get("/users/ops%40example.com")
    get("/users")
    send("PUT", "/users/dave", {"password": "dave-throwaway", "tags": ""}, 201)   # hashed by the server
    get("/users/dave")
    send("PUT", "/users/eve", {"password_hash": "!!!", "tags": ""}, 400)
    send("PUT", "/users/eve", raw="zzz", expect=400)
    get("/users/eve", 404)
    send("PUT", "/users/temp", {"password_hash": TEMP_HASH, "tags": ""}, 201)
    get("/users/temp")
    send("DELETE", "/users/temp")
    get("/users/temp", 404)
    send("DELETE", "/users/temp", expect=404)
    get("/users")

    # ---- d. permissions of a user in a vhost
    send("PUT", "/permissions/dev/carol", {"configure": "^carol\\.", "write": ".*", "read": ".*"}, 201)
    get("/permissions/dev/carol")
    get("/vhosts/dev/permissions")
    get("/users/carol/permissions")
    send("PUT", "/permissions/dev/carol", {"configure": "^carol\\.", "write": "^carol\\.", "read": ".*"})
    get("/permissions/dev/carol")
    send("PUT", "/permissions/%2F/carol", {"configure": "", "write": "", "read": ".*"}, 201)
    get("/permissions/%2F/carol")
    get("/users/carol/permissions")
    get("/permissions")
    send("PUT", "/permissions/staging/ops%40example.com", ALL, 201)
    get("/permissions/staging/ops%40example.com")
    send("PUT", "/permissions/staging/monitor", {"configure": ".*"}, 400)       # write, read missing
    send("PUT", "/permissions/staging/ghost", ALL, 400)                         # no such user
    send("PUT", "/permissions/nope/monitor", ALL, 400)                          # no such vhost
    get("/permissions/staging/monitor", 404)
    send("DELETE", "/permissions/%2F/carol")
    get("/permissions/%2F/carol", 404)
    get("/users/carol/permissions")
    send("DELETE", "/permissions/%2F/carol", expect=404)

    # ---- e. queues
    send("PUT", "/queues/dev/jobs", {"durable": True, "auto_delete": False,
                                     "arguments": {"x-max-length": 100}}, 201)
    get("/queues/dev/jobs")
    get("/queues/dev")
    send("PUT", "/queues/dev/jobs", {"durable": True, "arguments": {"x-max-length": 100}})  # the same: 204
    send("PUT", "/queues/dev/jobs", {"durable": False}, 400)                  # inequivalent
    get("/queues/dev/jobs")
    send("PUT", "/queues/%2F/payments.retry", {"durable": True,
                                               "arguments": {"x-message-ttl": 30000}}, 201)
    get("/queues/%2F/payments.retry")
    send("PUT", "/queues/%2F/reports%2Fdaily", {"durable": False, "auto_delete": False}, 201)
    get("/queues/%2F/reports%2Fdaily")
    get("/queues/%2F")
    get("/queues")
    get("/queues", page=1, page_size=3)
    get("/queues", page=2, page_size=3)
    send("PUT", "/queues/%2F/bad", {"durable": "yes"}, 400)
    send("PUT", "/queues/%2F/bad", raw="not json", expect=400)
    send("PUT", "/queues/%2F/bad", {"arguments": {"x-max-length": "ten"}}, 400)
    send("PUT", "/queues/nope/bad", {"durable": True}, 404)                    # no such vhost
    get("/queues/%2F/bad", 404)
    send("DELETE", "/queues/%2F/email/contents")                              # purge: nothing to purge
    get("/queues/%2F/email")
    send("DELETE", "/queues/%2F/reports%2Fdaily")
    get("/queues/%2F/reports%2Fdaily", 404)
    send("DELETE", "/queues/%2F/reports%2Fdaily", expect=404)
    get("/queues/%2F")

    # ---- f. exchanges
    send("PUT", "/exchanges/dev/events", {"type": "direct", "durable": True}, 201)
    get("/exchanges/dev/events")
    send("PUT", "/exchanges/%2F/audit.log", {"type": "fanout", "durable": True, "auto_delete": False,
                                             "internal": False,
                                             "arguments": {"alternate-exchange": "notifications"}}, 201)
    get("/exchanges/%2F/audit.log")
    get("/exchanges/%2F")
    send("PUT", "/exchanges/%2F/audit.log", {"type": "fanout", "durable": True,
                                             "arguments": {"alternate-exchange": "notifications"}})
    send("PUT", "/exchanges/%2F/audit.log", {"type": "topic", "durable": True}, 400)  # inequivalent
    send("PUT", "/exchanges/%2F/weird", {"type": "nope"}, 400)
    send("PUT", "/exchanges/%2F/weird", raw="{", expect=400)
    get("/exchanges/%2F/weird", 404)
    send("DELETE", "/exchanges/%2F/amq.direct", expect=401)                  # a built-in exchange
    get("/exchanges/%2F/amq.direct")
    get("/exchanges", page=1, page_size=4, name="orders", use_regex="false")

    # ---- g. bindings: POST answers 201 with a Location naming the binding's properties key
    send("POST", "/bindings/%2F/e/orders/q/email", {"routing_key": "order.#", "arguments": {}}, 201)
    get("/bindings/%2F/e/orders/q/email")
    get("/bindings/%2F/e/orders/q/email/order.%23")
    send("POST", "/bindings/%2F/e/orders/q/payments.retry",
         {"routing_key": "payment.failed", "arguments": {"x-origin": "billing"}}, 201)
    get("/bindings/%2F/e/orders/q/payments.retry")
    get("/queues/%2F/payments.retry/bindings")
    send("POST", "/bindings/%2F/e/orders/e/audit.log", {"routing_key": "order.*"}, 201)   # exchange to exchange
    get("/bindings/%2F/e/orders/e/audit.log")
    get("/bindings/%2F/e/orders/e/audit.log/order.*")
    get("/exchanges/%2F/orders/bindings/source")
    get("/exchanges/%2F/audit.log/bindings/destination")
    get("/bindings/%2F")
    send("POST", "/bindings/dev/e/events/q/jobs", {"routing_key": "job"}, 201)
    get("/bindings/dev/e/events/q/jobs")
    get("/bindings/dev")
    send("POST", "/bindings/%2F/e/orders/q/missing", {"routing_key": "a"}, 404)
    send("POST", "/bindings/%2F/e/missing/q/email", {"routing_key": "a"}, 404)
    send("DELETE", "/bindings/%2F/e/orders/q/email/order.%23")
    get("/bindings/%2F/e/orders/q/email/order.%23", 404)
    get("/bindings/%2F/e/orders/q/email")
    send("DELETE", "/bindings/%2F/e/orders/q/email/order.%23", expect=404)
    send("DELETE", "/bindings/%2F/e/orders/e/audit.log/order.*")
    get("/bindings/%2F/e/orders/e/audit.log")
    send("POST", "/bindings/%2F/e/audit.log/e/notifications", {"routing_key": ""}, 201)
    get("/bindings/%2F/e/audit.log/e/notifications")
    get("/bindings/%2F/e/audit.log/e/notifications/~")
    send("DELETE", "/bindings/%2F/e/audit.log/e/notifications/~")
    get("/bindings/%2F/e/audit.log/e/notifications/~", 404)
    get("/bindings/%2F/e/audit.log/e/notifications")
    # deleting a queue takes its bindings with it
    get("/bindings/%2F/e/orders/q/payments.retry")
    send("DELETE", "/queues/%2F/payments.retry")
    get("/queues/%2F/payments.retry", 404)
    get("/exchanges/%2F/orders/bindings/source")
    get("/bindings/%2F")

    # ---- h. policies (a policy shows on the queues it matches)
    send("PUT", "/policies/%2F/email-limit", {"pattern": "^email$", "definition": {"max-length": 500},
                                              "priority": 2, "apply-to": "queues"}, 201)
    get("/policies/%2F/email-limit")
    get("/policies/%2F")
    get("/queues/%2F")
    send("PUT", "/policies/%2F/email-limit", {"pattern": "^email$", "definition": {"max-length": 250},
                                              "priority": 3, "apply-to": "queues"})
    get("/policies/%2F/email-limit")
    send("PUT", "/policies/dev/ha-jobs", {"pattern": "^jobs", "definition": {"expires": 3600000}}, 201)
    get("/policies/dev/ha-jobs")
    get("/policies")
    send("PUT", "/policies/%2F/broken", {"pattern": "^x$", "definition": {"bogus": 5}}, 400)
    send("PUT", "/policies/%2F/broken", {"definition": {"max-length": 1}}, 400)  # no pattern
    get("/policies/%2F/broken", 404)
    send("DELETE", "/policies/%2F/email-limit")
    get("/policies/%2F/email-limit", 404)
    get("/queues/%2F")
    send("DELETE", "/policies/%2F/email-limit", expect=404)

    # ---- i. parameters and limits
    send("PUT", "/global-parameters/region", {"value": "eu-west"}, 201)
    get("/global-parameters/region")
    send("PUT", "/global-parameters/region", {"value": {"zone": "eu-west-1", "racks": 3}})
    get("/global-parameters/region")
    get("/global-parameters")
    send("DELETE", "/global-parameters/region")
    get("/global-parameters/region", 404)
    send("PUT", "/vhost-limits/dev/max-queues", {"value": 50})
    get("/vhost-limits/dev")
    send("PUT", "/vhost-limits/dev/max-connections", {"value": 20})
    get("/vhost-limits/dev")
    send("PUT", "/vhost-limits/staging/max-queues", {"value": 5})
    get("/vhost-limits/staging")
    get("/vhost-limits")
    send("DELETE", "/vhost-limits/dev/max-queues")
    get("/vhost-limits/dev")
    send("DELETE", "/vhost-limits/staging/max-queues")
    get("/vhost-limits/staging")
    send("PUT", "/topic-permissions/dev/carol", {"exchange": "amq.topic", "write": "^carol\\.", "read": ".*"}, 201)
    get("/topic-permissions/dev/carol")
    get("/users/carol/topic-permissions")
    send("PUT", "/topic-permissions/%2F/orders-app", {"exchange": "orders", "write": "^order\\.", "read": ""}, 201)
    get("/topic-permissions/%2F/orders-app")

    # ---- j. deleting a user takes its permissions; bulk delete; deleting a vhost takes its contents
    get("/permissions/dev/carol")                   # read just before: the delete below is all that runs between
    get("/topic-permissions/dev/carol")
    send("DELETE", "/users/carol")
    get("/users/carol", 404)
    get("/permissions/dev/carol", 404)
    get("/vhosts/dev/permissions")
    get("/topic-permissions/dev/carol", 404)
    get("/permissions/staging/ops%40example.com")
    send("POST", "/users/bulk-delete", {"users": ["dave", "ops@example.com"]})
    get("/users/dave", 404)
    get("/users/ops%40example.com", 404)
    get("/permissions/staging/ops%40example.com", 404)
    get("/users")
    send("POST", "/users/bulk-delete", {"users": ["nobody"]}, 400)
    get("/queues/dev/jobs")
    get("/exchanges/dev/events")
    get("/permissions/dev/admin")
    send("DELETE", "/vhosts/dev")
    get("/vhosts/dev", 404)
    get("/queues/dev/jobs", 404)
    get("/exchanges/dev/events", 404)
    get("/permissions/dev/admin", 404)
    get("/queues")
    get("/permissions")
    get("/policies")
    get("/vhosts")
    get("/queues", page=1, page_size=2)
    get("/queues", page=3, page_size=2)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42741")
