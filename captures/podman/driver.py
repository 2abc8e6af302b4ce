#!/usr/bin/env python3
"""Scenario driver for Podman 4.3.1's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43211 --mode capture [-v]

Two APIs on one service: libpod's (``/v4.3.1/libpod/...``) and the Docker-compatible one
(``/v1.41/...``). No authentication (the service listens on loopback only). Every body is JSON
(``Content-Type: application/json``; podman reads a form-encoded body as a form and answers 500
"Decode(): EOF"), except the raw secret data of libpod's secret create. The seed (start.sh, the
CLI before the service starts, not recorded): volumes pgdata (labels app=db, tier=backend) and
cache; networks podman (the default) and backend (label app=db, 10.89.10.0/24); the secret
db-password; the image localhost/capenv/hello:1.0 (and :latest); no container. Volumes, networks, secrets, containers and pods are addressed by name (or id) in the path.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

L = "/v4.3.1/libpod"
D = "/v1.41"
IMAGE = "localhost/capenv/hello:1.0"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=None)


def filters(**members):
    return {"filters": json.dumps(members, separators=(",", ":"))}


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, params=None):
        return call("GET", path, params=params, expect=expect)[1]

    def post(path, body=None, expect=None, params=None, raw=None):
        return call("POST", path, body, raw=raw, params=params, expect=expect)[1]

    def delete(path, expect=None, params=None):
        return call("DELETE", path, params=params, expect=expect)[1]

    def names(answer, key):
        return sorted(item.get(key) for item in answer) if isinstance(answer, list) else answer

    # ---- a. reads before any write: ping, versions, every list of both APIs, the seeded items, absences
    get(f"{L}/_ping")
    get(f"{D}/_ping")
    get(f"{L}/version")
    get(f"{D}/version")
    check("volumes", names(get(f"{L}/volumes/json"), "Name"), ["cache", "pgdata"])
    get(f"{D}/volumes")
    get(f"{L}/volumes/pgdata/json")
    get(f"{D}/volumes/cache")
    call("GET", f"{L}/volumes/pgdata/exists", expect=204)
    check("networks", names(get(f"{L}/networks/json"), "name"), ["backend", "podman"])
    get(f"{D}/networks")
    get(f"{L}/networks/backend/json")
    get(f"{D}/networks/backend")
    get(f"{L}/networks/podman/json")
    call("GET", f"{L}/networks/backend/exists", expect=204)
    get(f"{L}/secrets/json")
    get(f"{D}/secrets")
    get(f"{L}/secrets/db-password/json")
    get(f"{D}/secrets/db-password")
    get(f"{L}/images/json")
    get(f"{D}/images/json")
    get(f"{L}/images/localhost/capenv/hello:1.0/json")
    check("containers", get(f"{L}/containers/json", params={"all": "true"}), [])
    get(f"{D}/containers/json", params={"all": "1"})
    get(f"{L}/pods/json")
    # absences
    get(f"{L}/volumes/nothing/json", expect=404)
    call("GET", f"{L}/volumes/nothing/exists", expect=404)
    get(f"{D}/volumes/nothing", expect=404)
    get(f"{L}/networks/nothing/json", expect=404)
    get(f"{D}/networks/nothing", expect=404)
    get(f"{L}/secrets/nothing/json", expect=404)
    get(f"{D}/secrets/nothing", expect=404)
    get(f"{L}/containers/nothing/json", expect=404)
    get(f"{D}/containers/nothing/json", expect=404)
    get(f"{L}/pods/nothing/json", expect=404)
    get(f"{L}/images/nothing:1/json", expect=404)

    # ---- b. volumes: creates (libpod with labels and options, Docker's with labels and driver options),
    # each read back at its item and in the lists; filters; errors
    post(f"{L}/volumes/create", {"Name": "logs", "Labels": {"app": "web", "tier": "frontend"},
                                 "Options": {"type": "tmpfs", "device": "tmpfs", "o": "nodev"}}, expect=201)
    get(f"{L}/volumes/logs/json")
    call("GET", f"{L}/volumes/logs/exists", expect=204)
    get(f"{L}/volumes/json")
    post(f"{L}/volumes/create", {"Name": "media", "Labels": {"app": "web", "tier": "storage"}}, expect=201)
    get(f"{L}/volumes/media/json")
    get(f"{D}/volumes/media")
    post(f"{L}/volumes/create", {"Name": "scratch", "Labels": {"tmp": "true"}}, expect=201)
    get(f"{L}/volumes/scratch/json")
    post(f"{D}/volumes/create", {"Name": "uploads", "Labels": {"app": "api"}, "DriverOpts": {"o": "noexec"}},
         expect=201)
    get(f"{D}/volumes/uploads")
    get(f"{L}/volumes/uploads/json")
    post(f"{D}/volumes/create", {"Name": "tmpcache", "Labels": {"tmp": "true", "app": "api"}}, expect=201)
    get(f"{D}/volumes/tmpcache")
    get(f"{D}/volumes")
    get(f"{L}/volumes/json")
    # filters: by label, by label key, by name; Docker's filters
    get(f"{L}/volumes/json", params=filters(label=["app=web"]))
    get(f"{L}/volumes/json", params=filters(label=["tmp"]))
    get(f"{L}/volumes/json", params=filters(name=["media"]))
    get(f"{L}/volumes/json", params=filters(label=["app=none"]))
    get(f"{D}/volumes", params=filters(label=["app=api"]))
    get(f"{D}/volumes", params=filters(name=["logs"]))
    # errors: a name that exists (both APIs), a name podman refuses, a body that is not JSON
    post(f"{L}/volumes/create", {"Name": "logs"}, expect=500)
    # Docker's create of a name that exists answers the volume as it is (201), its labels unchanged
    post(f"{D}/volumes/create", {"Name": "media", "Labels": {"app": "other"}}, expect=201)
    post(f"{L}/volumes/create", {"Name": "bad name!"}, expect=500)
    post(f"{L}/volumes/create", raw="{not json", expect=500)
    get(f"{L}/volumes/media/json")
    # deletes: libpod and Docker's, each read back; a missing one
    delete(f"{L}/volumes/scratch", expect=204)
    get(f"{L}/volumes/scratch/json", expect=404)
    call("GET", f"{L}/volumes/scratch/exists", expect=404)
    get(f"{L}/volumes/json")
    get(f"{D}/volumes/scratch", expect=404)
    get(f"{D}/volumes")
    delete(f"{D}/volumes/uploads", expect=204)
    get(f"{D}/volumes/uploads", expect=404)
    get(f"{L}/volumes/uploads/json", expect=404)
    get(f"{L}/volumes/json")
    get(f"{D}/volumes")
    delete(f"{L}/volumes/scratch", expect=404)
    delete(f"{D}/volumes/nothing", expect=404)

    # ---- c. secrets: libpod's create (raw data, name and labels in the query), Docker's (base64 Data)
    post(f"{L}/secrets/create", raw="capenv-throwaway-api-token", params={"name": "api-token"}, expect=200)
    get(f"{L}/secrets/api-token/json")
    get(f"{L}/secrets/json")
    post(f"{L}/secrets/create", raw="capenv-throwaway-smtp", expect=200,
         params={"name": "smtp-pass", "labels": json.dumps({"team": "ops"})})
    get(f"{L}/secrets/smtp-pass/json")
    get(f"{D}/secrets/smtp-pass")
    post(f"{D}/secrets/create", {"Name": "tls-key", "Data": "Y2FwZW52LXRocm93YXdheS10bHM=",
                                 "Labels": {"team": "web"}}, expect=200)
    get(f"{D}/secrets/tls-key")
    get(f"{L}/secrets/tls-key/json")
    post(f"{D}/secrets/create", {"Name": "queue-pass", "Data": "Y2FwZW52LXF1ZXVl"}, expect=200)
    get(f"{D}/secrets/queue-pass")
    get(f"{D}/secrets")
    get(f"{L}/secrets/json", params=filters(name=["tls-key"]))
    get(f"{D}/secrets", params=filters(name=["smtp-pass"]))
    # errors: a name in use (both APIs), a name podman refuses, no name
    post(f"{L}/secrets/create", raw="x", params={"name": "api-token"}, expect=500)
    post(f"{D}/secrets/create", {"Name": "tls-key", "Data": "eA=="}, expect=409)
    post(f"{L}/secrets/create", raw="x", params={"name": "bad name!"}, expect=500)
    post(f"{D}/secrets/create", {"Data": "eA=="}, expect=500)
    get(f"{L}/secrets/json")
    # deletes, read back; a missing one
    delete(f"{L}/secrets/api-token", expect=204)
    get(f"{L}/secrets/api-token/json", expect=404)
    get(f"{L}/secrets/json")
    delete(f"{D}/secrets/queue-pass", expect=204)
    get(f"{D}/secrets/queue-pass", expect=404)
    get(f"{L}/secrets/queue-pass/json", expect=404)
    get(f"{D}/secrets")
    delete(f"{L}/secrets/api-token", expect=404)
    delete(f"{D}/secrets/nothing", expect=404)

    # ---- d. networks: libpod's create (subnet given or allocated, labels, internal), Docker's
    post(f"{L}/networks/create", {"name": "frontend", "labels": {"tier": "web"},
                                  "subnets": [{"subnet": "10.89.20.0/24"}]}, expect=200)
    get(f"{L}/networks/frontend/json")
    call("GET", f"{L}/networks/frontend/exists", expect=204)
    get(f"{L}/networks/json")
    post(f"{L}/networks/create", {"name": "isolated", "internal": True, "labels": {"tier": "db"}}, expect=200)
    get(f"{L}/networks/isolated/json")
    get(f"{D}/networks/isolated")
    post(f"{L}/networks/create", {"name": "metrics"}, expect=200)
    get(f"{L}/networks/metrics/json")
    post(f"{D}/networks/create", {"Name": "apps", "Labels": {"tier": "web"}}, expect=201)
    get(f"{D}/networks/apps")
    get(f"{L}/networks/apps/json")
    post(f"{D}/networks/create", {"Name": "jobs", "Internal": True}, expect=201)
    get(f"{D}/networks/jobs")
    get(f"{D}/networks")
    get(f"{L}/networks/json")
    get(f"{L}/networks/json", params=filters(label=["tier=web"]))
    get(f"{L}/networks/json", params=filters(name=["metrics"]))
    get(f"{D}/networks", params=filters(label=["tier=db"]))
    # errors: a name in use (both APIs), an unknown driver, a subnet that is no CIDR, a subnet in use
    post(f"{L}/networks/create", {"name": "frontend"}, expect=409)
    post(f"{D}/networks/create", {"Name": "apps"}, expect=500)
    post(f"{L}/networks/create", {"name": "odd", "driver": "nonesuch"}, expect=500)
    post(f"{L}/networks/create", {"name": "odd", "subnets": [{"subnet": "300.1.0.0/24"}]}, expect=500)
    post(f"{L}/networks/create", {"name": "odd", "subnets": [{"subnet": "10.89.20.0/24"}]}, expect=500)
    get(f"{L}/networks/odd/json", expect=404)
    # deletes, read back; missing ones
    delete(f"{L}/networks/metrics", expect=200)
    get(f"{L}/networks/metrics/json", expect=404)
    call("GET", f"{L}/networks/metrics/exists", expect=404)
    get(f"{L}/networks/json")
    get(f"{L}/networks/json")
    delete(f"{D}/networks/jobs", expect=204)
    get(f"{D}/networks/jobs", expect=404)
    get(f"{L}/networks/jobs/json", expect=404)
    get(f"{L}/networks/json")
    get(f"{D}/networks")
    delete(f"{L}/networks/metrics", expect=404)
    delete(f"{D}/networks/nothing", expect=404)

    # ---- e. containers: created (never started) from the image, by libpod's spec and Docker's body;
    # rename; a container holding a volume; deletes
    post(f"{L}/containers/create", {"name": "api", "image": IMAGE, "labels": {"app": "api"},
                                    "env": {"MODE": "prod"}}, expect=201)
    get(f"{L}/containers/api/json")
    call("GET", f"{L}/containers/api/exists", expect=204)
    get(f"{L}/containers/json", params={"all": "true"})
    post(f"{L}/containers/create", {"name": "batch", "image": IMAGE, "labels": {"app": "batch"},
                                    "command": ["/bin/hello", "--once"], "work_dir": "/srv"}, expect=201)
    get(f"{L}/containers/batch/json")
    get(f"{D}/containers/batch/json")
    post(f"{D}/containers/create", {"Image": IMAGE, "Labels": {"app": "worker"}, "Env": ["QUEUE=jobs"]},
         params={"name": "worker"}, expect=201)
    get(f"{D}/containers/worker/json")
    get(f"{L}/containers/worker/json")
    post(f"{D}/containers/create", {"Image": IMAGE, "Cmd": ["/bin/hello", "cron"]}, params={"name": "cron"},
         expect=201)
    get(f"{D}/containers/cron/json")
    get(f"{D}/containers/json", params={"all": "1"})
    get(f"{L}/containers/json", params={"all": "true"})
    get(f"{L}/containers/json", params={"all": "true", **filters(label=["app=api"])})
    get(f"{L}/containers/json", params={"all": "true", **filters(name=["worker"])})
    get(f"{D}/containers/json", params={"all": "1", **filters(label=["app=batch"])})
    get(f"{L}/containers/json")
    # errors: a name in use (both APIs), an image that is not there, a body that is not JSON
    post(f"{L}/containers/create", {"name": "api", "image": IMAGE}, expect=500)
    post(f"{D}/containers/create", {"Image": IMAGE}, params={"name": "worker"}, expect=500)
    post(f"{L}/containers/create", {"name": "ghost", "image": "localhost/nothing:1"}, expect=500)
    post(f"{D}/containers/create", {"Image": "localhost/nothing:1"}, params={"name": "ghost"}, expect=404)
    post(f"{L}/containers/create", raw="{not json", expect=500)
    get(f"{L}/containers/ghost/json", expect=404)
    # rename: the old name is gone, the new one answers the same container
    call("POST", f"{L}/containers/batch/rename", params={"name": "batch-nightly"}, expect=204)
    get(f"{L}/containers/batch/json", expect=404)
    get(f"{L}/containers/batch-nightly/json")
    get(f"{L}/containers/json", params={"all": "true"})
    call("POST", f"{D}/containers/cron/rename", params={"name": "cron-hourly"}, expect=204)
    get(f"{D}/containers/cron/json", expect=404)
    get(f"{D}/containers/cron-hourly/json")
    call("POST", f"{L}/containers/api/rename", params={"name": "worker"}, expect=409)
    call("POST", f"{L}/containers/nothing/rename", params={"name": "other"}, expect=404)
    get(f"{L}/containers/api/json")
    # a container holding a volume: the volume cannot go while it is there
    post(f"{L}/containers/create", {"name": "logger", "image": IMAGE,
                                    "volumes": [{"Name": "logs", "Dest": "/var/log/app"}]}, expect=201)
    get(f"{L}/containers/logger/json")
    get(f"{L}/volumes/logs/json")
    delete(f"{L}/volumes/logs", expect=409)
    delete(f"{D}/volumes/logs", expect=409)
    get(f"{L}/volumes/media/json")
    # deletes: libpod's answers a report, Docker's 204; read back; missing ones
    delete(f"{L}/containers/batch-nightly", expect=200)
    get(f"{L}/containers/batch-nightly/json", expect=404)
    call("GET", f"{L}/containers/batch-nightly/exists", expect=404)
    get(f"{L}/containers/json", params={"all": "true"})
    delete(f"{D}/containers/cron-hourly", expect=204)
    get(f"{D}/containers/cron-hourly/json", expect=404)
    get(f"{D}/containers/json", params={"all": "1"})
    delete(f"{L}/containers/logger", expect=200)
    get(f"{L}/containers/logger/json", expect=404)
    get(f"{L}/volumes/logs/json")
    delete(f"{L}/containers/batch-nightly", expect=404)
    delete(f"{D}/containers/nothing", expect=404)

    # ---- f. networks and containers: connect and disconnect a created container
    get(f"{D}/networks/frontend")
    post(f"{L}/networks/frontend/connect", {"container": "api"}, expect=200)
    get(f"{D}/networks/frontend")
    get(f"{L}/containers/api/json")
    post(f"{L}/networks/frontend/connect", {"container": "nothing"}, expect=404)
    post(f"{L}/networks/frontend/disconnect", {"container": "api"}, expect=200)
    get(f"{D}/networks/frontend")
    get(f"{L}/containers/api/json")

    # ---- g. pods without an infra container (no pause image can be pulled or built here)
    post(f"{L}/pods/create", {"name": "shop", "no_infra": True, "labels": {"app": "shop"}}, expect=201)
    get(f"{L}/pods/shop/json")
    call("GET", f"{L}/pods/shop/exists", expect=204)
    get(f"{L}/pods/json")
    post(f"{L}/pods/create", {"name": "blog", "no_infra": True, "labels": {"app": "blog", "tier": "web"}},
         expect=201)
    get(f"{L}/pods/blog/json")
    get(f"{L}/pods/json")
    get(f"{L}/pods/json", params=filters(label=["app=blog"]))
    get(f"{L}/pods/json", params=filters(name=["shop"]))
    post(f"{L}/pods/create", {"name": "shop", "no_infra": True}, expect=409)
    post(f"{L}/pods/create", {"name": "needs-infra"}, expect=500)
    get(f"{L}/pods/needs-infra/json", expect=404)
    # a container in a pod: the pod lists it; deleting the pod takes the container with it
    post(f"{L}/containers/create", {"name": "shop-app", "image": IMAGE, "pod": "shop"}, expect=201)
    get(f"{L}/pods/shop/json")
    get(f"{L}/containers/shop-app/json")
    get(f"{L}/containers/json", params={"all": "true"})
    delete(f"{L}/pods/shop", expect=200)
    get(f"{L}/pods/shop/json", expect=404)
    get(f"{L}/containers/shop-app/json", expect=404)
    get(f"{L}/containers/json", params={"all": "true"})
    get(f"{L}/pods/json")
    delete(f"{L}/pods/blog", expect=200)
    get(f"{L}/pods/blog/json", expect=404)
    delete(f"{L}/pods/blog", expect=404)

    # ---- h. prune: libpod's by label (only unused volumes matching), then Docker's (every unused one)
    get(f"{L}/volumes/json")
    post(f"{L}/volumes/prune", params=filters(label=["tmp=true"]), expect=200)
    get(f"{L}/volumes/tmpcache/json", expect=404)
    get(f"{L}/volumes/json")
    post(f"{L}/volumes/create", {"Name": "keep", "Labels": {"keep": "yes"}}, expect=201)
    post(f"{L}/containers/create", {"name": "holder", "image": IMAGE,
                                    "volumes": [{"Name": "keep", "Dest": "/data"}]}, expect=201)
    get(f"{D}/volumes")
    post(f"{D}/volumes/prune", expect=200)
    get(f"{D}/volumes")
    get(f"{L}/volumes/keep/json")
    get(f"{L}/volumes/pgdata/json", expect=404)
    post(f"{L}/volumes/prune", expect=200)
    get(f"{L}/volumes/json")

    # ---- i. one more round: names freed by deletes are used again
    post(f"{L}/volumes/create", {"Name": "scratch", "Labels": {"round": "2"}}, expect=201)
    get(f"{L}/volumes/scratch/json")
    post(f"{L}/secrets/create", raw="capenv-throwaway-api-token-2", params={"name": "api-token"}, expect=200)
    get(f"{L}/secrets/api-token/json")
    post(f"{L}/networks/create", {"name": "metrics", "labels": {"round": "2"}}, expect=200)
    get(f"{L}/networks/metrics/json")
    post(f"{L}/containers/create", {"name": "batch", "image": IMAGE, "labels": {"round": "2"}}, expect=201)
    get(f"{L}/containers/batch/json")
    get(f"{L}/containers/json", params={"all": "true"})
    get(f"{L}/volumes/json")
    get(f"{L}/secrets/json")
    get(f"{L}/networks/json")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43211")
