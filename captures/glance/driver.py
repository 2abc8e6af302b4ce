#!/usr/bin/env python3
"""Scenario driver for OpenStack Glance 33.0.0 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46211 --mode capture [-v]

Every call sends the identity headers the `context` filter trusts without Keystone
(`X-Identity-Status: Confirmed`, `X-Tenant-Id: demo`, `X-User-Id: alice`, `X-Roles:
admin,member,reader`; a few image-member calls speak as project ops), no Authorization header and no
cookie. The seed (seed.py, run by start.sh, not recorded) and its fixed ids are in seed.py's
docstring. Images the scenario creates take fixed ids from their create body, as Glance allows.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seed import fixed  # noqa: E402  (the seed's fixed ids)

NEVER = "00000000-0000-4000-8000-00000000dead"  # a version 4 uuid nothing ever has
PATCH = {"Content-Type": "application/openstack-images-v2.1-json-patch"}
OCTETS = {"Content-Type": "application/octet-stream"}


def identity(project, user):
    return {"X-Identity-Status": "Confirmed", "X-Tenant-Id": project, "X-User-Id": user,
            "X-Roles": "admin,member,reader"}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, headers=identity("demo", "alice"))


def capture(d):
    call, check, get = d.call, d.check, d.get
    cirros, ubuntu, build_cache, shared_tools, ops_backup = (
        fixed("image", n) for n in ("cirros", "ubuntu-jammy", "build-cache", "shared-tools", "ops-backup"))
    compute, storage = "OS::Demo::Compute", "OS::Demo::Storage"

    def patch(image_id, ops, expect=200):
        return call("PATCH", f"/v2/images/{image_id}", body=ops, headers=PATCH, expect=expect)[1]

    def field(body, name):
        return body.get(name) if isinstance(body, dict) else None

    # ---- a. reads of the seed before any write
    call("GET", "/versions", expect=200)
    get("/v2/schemas/image")
    get("/v2/schemas/images")
    get("/v2/schemas/metadefs/namespace")
    get("/v2/images")
    for image_id in (cirros, ubuntu, build_cache, shared_tools, ops_backup):
        get(f"/v2/images/{image_id}")
    call("GET", f"/v2/images/{cirros}/file", expect=200)
    get(f"/v2/images/{shared_tools}/members")
    get("/v2/metadefs/namespaces")
    get(f"/v2/metadefs/namespaces/{compute}")
    get(f"/v2/metadefs/namespaces/{storage}")
    get(f"/v2/metadefs/namespaces/{compute}/properties")
    get(f"/v2/metadefs/namespaces/{compute}/properties/cpu_policy")
    get(f"/v2/metadefs/namespaces/{compute}/objects")
    get(f"/v2/metadefs/namespaces/{compute}/objects/Accelerator")
    get(f"/v2/metadefs/namespaces/{compute}/tags")
    get(f"/v2/metadefs/namespaces/{compute}/tags/fast")
    get("/v2/metadefs/resource_types")

    # ---- b. filters, sort, paging
    get("/v2/images", name="cirros")
    get("/v2/images", name="ubuntu-jammy")
    get("/v2/images", status="active")
    get("/v2/images", status="queued")
    get("/v2/images", visibility="public")
    get("/v2/images", visibility="private")
    get("/v2/images", visibility="shared")
    get("/v2/images", tag="ubuntu")
    get("/v2/images", tag="test")
    get("/v2/images", disk_format="qcow2")
    get("/v2/images", owner="ops")
    get("/v2/images", sort_key="name", sort_dir="asc")
    get("/v2/images", sort_key="name", sort_dir="desc")
    get("/v2/images", sort="name:asc")
    first = get("/v2/images", limit="2")
    get("/v2/images", limit="2", marker=(first.get("images") or [{}])[-1].get("id", NEVER))
    get("/v2/images", limit="2", sort_key="name", sort_dir="asc")
    get("/v2/images", limit="2", sort_key="name", sort_dir="asc", marker=build_cache)
    get("/v2/metadefs/namespaces", visibility="public")
    get("/v2/metadefs/namespaces", limit="1")
    get("/v2/metadefs/namespaces", limit="1", marker=compute)
    get("/v2/metadefs/namespaces", sort_key="namespace", sort_dir="asc")

    # ---- c. absences and bad requests
    get(f"/v2/images/{NEVER}", expect=404)
    get("/v2/images/not-a-uuid", expect=404)
    get(f"/v2/images/{NEVER}/members", expect=404)
    call("GET", f"/v2/images/{ubuntu}/file", expect=204)  # queued: no data yet
    get("/v2/images", sort_key="nothing", expect=400)
    get("/v2/images", sort_dir="sideways", expect=400)
    get("/v2/images", limit="-1", expect=400)
    get("/v2/images", marker=NEVER, expect=400)
    get("/v2/images", visibility="everyone", expect=400)
    get("/v2/metadefs/namespaces/OS::Never", expect=404)
    get(f"/v2/metadefs/namespaces/{compute}/properties/nothing", expect=404)
    get(f"/v2/metadefs/namespaces/{compute}/objects/Nothing", expect=404)
    get(f"/v2/metadefs/namespaces/{compute}/tags/nothing", expect=404)
    call("POST", "/v2/images", {"name": "bad-format", "disk_format": "floppy", "container_format": "bare"},
         expect=400)
    call("POST", "/v2/images", {"name": "bad-visibility", "visibility": "everyone"}, expect=400)
    call("POST", "/v2/images", {"name": "reserved", "status": "active"}, expect=403)
    call("POST", "/v2/images", {"id": cirros, "name": "same-id"}, expect=409)
    call("POST", "/v2/images", {"name": 7}, expect=400)
    call("POST", "/v2/images", raw="{not json", expect=400)
    get("/v2/images", name="same-id")
    get(f"/v2/images/{shared_tools}/members/qa")  # the seeded member, read before any write

    # ---- d. an image's life: create, JSON Patch updates, tags, data, actions, delete
    debian = fixed("image", "debian-12")
    status, created = call("POST", "/v2/images", {
        "id": debian, "name": "debian-12", "disk_format": "raw", "container_format": "bare",
        "visibility": "private", "tags": ["debian"], "os_distro": "debian", "min_ram": 256}, expect=201)
    check("new image status", field(created, "status"), "queued")
    get(f"/v2/images/{debian}")
    get("/v2/images")
    get("/v2/images", name="debian-12")
    get("/v2/images", tag="debian")
    patch(debian, [{"op": "replace", "path": "/name", "value": "debian-12.8"}])
    get(f"/v2/images/{debian}")
    patch(debian, [{"op": "add", "path": "/hw_disk_bus", "value": "virtio"},
                   {"op": "add", "path": "/os_version", "value": "12.8"}])
    get(f"/v2/images/{debian}")
    patch(debian, [{"op": "replace", "path": "/min_disk", "value": 4},
                   {"op": "replace", "path": "/visibility", "value": "public"}])
    get(f"/v2/images/{debian}")
    get("/v2/images", visibility="public")
    patch(debian, [{"op": "remove", "path": "/hw_disk_bus"}])
    get(f"/v2/images/{debian}")
    patch(debian, [{"op": "replace", "path": "/os_version", "value": "12.9"}])
    get(f"/v2/images/{debian}")
    patch(debian, [{"op": "replace", "path": "/tags", "value": ["debian", "stable"]}])
    get(f"/v2/images/{debian}")
    get("/v2/images", tag="stable")
    patch(debian, [{"op": "remove", "path": "/nothing"}], expect=409)
    patch(debian, [{"op": "replace", "path": "/status", "value": "active"}], expect=403)
    patch(debian, [{"op": "replace", "path": "/min_ram", "value": "lots"}], expect=400)
    patch(debian, [{"op": "move", "path": "/name", "from": "/os_version"}], expect=400)
    call("PATCH", f"/v2/images/{debian}", body=[{"op": "replace", "path": "/name", "value": "x"}], expect=415)
    patch(NEVER, [{"op": "replace", "path": "/name", "value": "ghost"}], expect=404)
    get(f"/v2/images/{debian}")
    call("PUT", f"/v2/images/{debian}/tags/bookworm", expect=204)
    get(f"/v2/images/{debian}")
    call("PUT", f"/v2/images/{debian}/tags/bookworm", expect=204)  # already there: still 204, once
    get(f"/v2/images/{debian}")
    call("DELETE", f"/v2/images/{debian}/tags/stable", expect=204)
    get(f"/v2/images/{debian}")
    call("DELETE", f"/v2/images/{debian}/tags/stable", expect=404)
    call("PUT", f"/v2/images/{NEVER}/tags/lost", expect=404)
    call("DELETE", f"/v2/images/{NEVER}/tags/lost", expect=404)
    get("/v2/images", tag="bookworm")
    call("PUT", f"/v2/images/{debian}/file", raw=b"debian-12-rootfs", headers=OCTETS, expect=204)
    uploaded = get(f"/v2/images/{debian}")
    check("uploaded image status", field(uploaded, "status"), "active")
    call("GET", f"/v2/images/{debian}/file", expect=200)
    call("PUT", f"/v2/images/{debian}/file", raw=b"again", headers=OCTETS, expect=409)
    call("PUT", f"/v2/images/{NEVER}/file", raw=b"nothing", headers=OCTETS, expect=404)
    get("/v2/images", status="active")
    call("POST", f"/v2/images/{debian}/actions/deactivate", expect=204)
    get(f"/v2/images/{debian}")
    call("GET", f"/v2/images/{debian}/file", expect=200)  # deactivated: an admin still downloads it
    get("/v2/images", status="deactivated")
    call("POST", f"/v2/images/{debian}/actions/deactivate", expect=204)  # already: still 204
    call("POST", f"/v2/images/{debian}/actions/reactivate", expect=204)
    get(f"/v2/images/{debian}")
    call("POST", f"/v2/images/{ubuntu}/actions/deactivate", expect=403)  # queued: not allowed
    call("POST", f"/v2/images/{NEVER}/actions/deactivate", expect=404)
    call("POST", f"/v2/images/{NEVER}/actions/reactivate", expect=404)

    # ---- e. a second image: bytes that are no qcow2 refused, members, delete
    alpine = fixed("image", "alpine-3")
    call("POST", "/v2/images", {"id": alpine, "name": "alpine-3", "disk_format": "qcow2",
                                "container_format": "bare", "visibility": "shared"}, expect=201)
    get(f"/v2/images/{alpine}")
    call("PUT", f"/v2/images/{alpine}/file", raw=b"not a qcow2 image", headers=OCTETS, expect=415)
    get(f"/v2/images/{alpine}")
    patch(alpine, [{"op": "add", "path": "/os_distro", "value": "alpine"}])
    get(f"/v2/images/{alpine}")
    call("POST", f"/v2/images/{alpine}/members", {"member": "ops"}, expect=200)
    get(f"/v2/images/{alpine}/members")
    get(f"/v2/images/{alpine}/members/ops")
    call("POST", f"/v2/images/{alpine}/members", {"member": "ops"}, expect=409)
    call("PUT", f"/v2/images/{alpine}/members/ops", {"status": "accepted"},
         headers=identity("ops", "carol"), expect=200)
    get(f"/v2/images/{alpine}/members/ops")
    call("PUT", f"/v2/images/{alpine}/members/ops", {"status": "maybe"},
         headers=identity("ops", "carol"), expect=400)
    get(f"/v2/images/{alpine}/members/nobody", expect=404)
    call("DELETE", f"/v2/images/{alpine}/members/ops", expect=204)
    get(f"/v2/images/{alpine}/members/ops", expect=404)
    get(f"/v2/images/{alpine}/members")
    call("DELETE", f"/v2/images/{alpine}/members/ops", expect=404)
    call("POST", f"/v2/images/{cirros}/members", {"member": "ops"}, expect=403)  # public: no members
    call("DELETE", f"/v2/images/{alpine}", expect=204)
    get(f"/v2/images/{alpine}", expect=404)
    call("DELETE", f"/v2/images/{alpine}", expect=404)
    get("/v2/images")

    # ---- f. the seed's images: updates, a protected delete, deletes
    patch(ubuntu, [{"op": "add", "path": "/description", "value": "Ubuntu 22.04 LTS"}])
    get(f"/v2/images/{ubuntu}")
    patch(ubuntu, [{"op": "replace", "path": "/min_ram", "value": 1024},
                   {"op": "remove", "path": "/os_distro"}])
    get(f"/v2/images/{ubuntu}")
    call("PUT", f"/v2/images/{ubuntu}/tags/jammy", expect=204)
    call("DELETE", f"/v2/images/{ubuntu}/tags/lts", expect=204)
    get(f"/v2/images/{ubuntu}")
    get("/v2/images", tag="lts")
    call("DELETE", f"/v2/images/{build_cache}", expect=403)  # protected
    get(f"/v2/images/{build_cache}")
    patch(build_cache, [{"op": "replace", "path": "/purpose", "value": "nightly"}])
    patch(build_cache, [{"op": "replace", "path": "/protected", "value": False}])
    get(f"/v2/images/{build_cache}")
    call("DELETE", f"/v2/images/{build_cache}", expect=204)
    get(f"/v2/images/{build_cache}", expect=404)
    patch(build_cache, [{"op": "replace", "path": "/name", "value": "gone"}], expect=404)
    call("PUT", f"/v2/images/{build_cache}/tags/gone", expect=404)
    patch(ops_backup, [{"op": "add", "path": "/retention", "value": "30d"}])
    get(f"/v2/images/{ops_backup}")
    patch(shared_tools, [{"op": "replace", "path": "/name", "value": "shared-tools-v2"}])
    get(f"/v2/images/{shared_tools}")
    get("/v2/images", name="shared-tools-v2")
    call("DELETE", f"/v2/images/{NEVER}", expect=404)
    get("/v2/images")
    get("/v2/images", sort_key="name", sort_dir="asc")
    get("/v2/images", limit="3")

    # ---- g. metadefs: namespaces (PUT updates), properties, objects, tags
    network = "OS::Demo::Network"
    call("POST", "/v2/metadefs/namespaces", {"namespace": network, "display_name": "Demo network",
                                              "description": "NIC hints", "visibility": "public"}, expect=201)
    get(f"/v2/metadefs/namespaces/{network}")
    get("/v2/metadefs/namespaces")
    call("POST", "/v2/metadefs/namespaces", {"namespace": network}, expect=409)
    call("POST", "/v2/metadefs/namespaces", {"display_name": "no namespace"}, expect=400)
    call("PUT", f"/v2/metadefs/namespaces/{network}", {"namespace": network, "display_name": "Demo networking",
                                                        "description": "NIC and VIF hints",
                                                        "visibility": "public"}, expect=200)
    get(f"/v2/metadefs/namespaces/{network}")
    call("PUT", "/v2/metadefs/namespaces/OS::Never", {"namespace": "OS::Never"}, expect=404)
    call("POST", f"/v2/metadefs/namespaces/{network}/properties",
         {"name": "vif_model", "title": "VIF model", "type": "string", "enum": ["virtio", "e1000"]}, expect=201)
    get(f"/v2/metadefs/namespaces/{network}/properties")
    get(f"/v2/metadefs/namespaces/{network}/properties/vif_model")
    call("POST", f"/v2/metadefs/namespaces/{network}/properties",
         {"name": "vif_model", "title": "again", "type": "string"}, expect=409)
    call("POST", f"/v2/metadefs/namespaces/{network}/properties",
         {"name": "bad", "title": "Bad", "type": "colour"}, expect=400)
    call("PUT", f"/v2/metadefs/namespaces/{network}/properties/vif_model",
         {"name": "vif_model", "title": "VIF model", "type": "string",
          "enum": ["virtio", "e1000", "rtl8139"]}, expect=200)
    get(f"/v2/metadefs/namespaces/{network}/properties/vif_model")
    call("PUT", f"/v2/metadefs/namespaces/{network}/properties/nothing",
         {"name": "nothing", "title": "N", "type": "string"}, expect=404)
    call("POST", f"/v2/metadefs/namespaces/{network}/properties",
         {"name": "mtu", "title": "MTU", "type": "integer", "minimum": 68}, expect=201)
    get(f"/v2/metadefs/namespaces/{network}/properties")
    call("DELETE", f"/v2/metadefs/namespaces/{network}/properties/mtu", expect=204)
    get(f"/v2/metadefs/namespaces/{network}/properties/mtu", expect=404)
    call("DELETE", f"/v2/metadefs/namespaces/{network}/properties/mtu", expect=404)
    get(f"/v2/metadefs/namespaces/{network}/properties")
    call("POST", f"/v2/metadefs/namespaces/{network}/objects",
         {"name": "Port", "description": "A port", "required": [],
          "properties": {"queues": {"type": "integer", "title": "Queues"}}}, expect=201)
    get(f"/v2/metadefs/namespaces/{network}/objects")
    get(f"/v2/metadefs/namespaces/{network}/objects/Port")
    call("POST", f"/v2/metadefs/namespaces/{network}/objects", {"name": "Port"}, expect=409)
    call("PUT", f"/v2/metadefs/namespaces/{network}/objects/Port",
         {"name": "Port", "description": "A network port", "required": [],
          "properties": {"queues": {"type": "integer", "title": "Queues", "maximum": 8}}}, expect=200)
    get(f"/v2/metadefs/namespaces/{network}/objects/Port")
    call("PUT", f"/v2/metadefs/namespaces/{network}/objects/Nothing", {"name": "Nothing"}, expect=404)
    call("DELETE", f"/v2/metadefs/namespaces/{network}/objects/Port", expect=204)
    get(f"/v2/metadefs/namespaces/{network}/objects/Port", expect=404)
    get(f"/v2/metadefs/namespaces/{network}/objects")
    call("POST", f"/v2/metadefs/namespaces/{network}/tags/sriov", expect=201)
    get(f"/v2/metadefs/namespaces/{network}/tags")
    get(f"/v2/metadefs/namespaces/{network}/tags/sriov")
    call("POST", f"/v2/metadefs/namespaces/{network}/tags/sriov", expect=409)
    call("PUT", f"/v2/metadefs/namespaces/{network}/tags/sriov", {"name": "sr-iov"}, expect=200)
    get(f"/v2/metadefs/namespaces/{network}/tags/sr-iov")
    get(f"/v2/metadefs/namespaces/{network}/tags/sriov", expect=404)
    call("POST", f"/v2/metadefs/namespaces/{network}/tags", {"tags": [{"name": "dpdk"}, {"name": "ovs"}]},
         expect=201)
    get(f"/v2/metadefs/namespaces/{network}/tags")
    get(f"/v2/metadefs/namespaces/{network}/tags/ovs")
    call("DELETE", f"/v2/metadefs/namespaces/{network}/tags/ovs", expect=204)
    get(f"/v2/metadefs/namespaces/{network}/tags/ovs", expect=404)
    get(f"/v2/metadefs/namespaces/{network}/tags")
    call("DELETE", f"/v2/metadefs/namespaces/{network}/tags/ovs", expect=404)
    get(f"/v2/metadefs/namespaces/{network}")
    call("POST", f"/v2/metadefs/namespaces/{compute}/tags/nvme", expect=201)
    get(f"/v2/metadefs/namespaces/{compute}/tags")
    call("PUT", f"/v2/metadefs/namespaces/{compute}/properties/cpu_policy",
         {"name": "cpu_policy", "title": "CPU policy", "type": "string",
          "enum": ["shared", "dedicated", "mixed"]}, expect=200)
    get(f"/v2/metadefs/namespaces/{compute}/properties/cpu_policy")
    get(f"/v2/metadefs/namespaces/{compute}")
    call("DELETE", f"/v2/metadefs/namespaces/{storage}", expect=204)
    get(f"/v2/metadefs/namespaces/{storage}", expect=404)
    call("DELETE", f"/v2/metadefs/namespaces/{storage}", expect=404)
    call("POST", "/v2/metadefs/namespaces/OS::Never/tags/x", expect=404)
    call("POST", "/v2/metadefs/namespaces/OS::Never/properties", {"name": "x", "title": "X", "type": "string"},
         expect=404)
    get("/v2/metadefs/namespaces")
    call("DELETE", f"/v2/metadefs/namespaces/{network}", expect=204)
    get(f"/v2/metadefs/namespaces/{network}", expect=404)
    get("/v2/metadefs/namespaces")

    # ---- h. a third image, made and unmade, then the final lists
    fedora = fixed("image", "fedora-41")
    call("POST", "/v2/images", {"id": fedora, "name": "fedora-41", "disk_format": "raw",
                                "container_format": "bare", "tags": ["fedora"]}, expect=201)
    get(f"/v2/images/{fedora}")
    patch(fedora, [{"op": "add", "path": "/os_distro", "value": "fedora"},
                   {"op": "replace", "path": "/name", "value": "fedora-41-cloud"}])
    get(f"/v2/images/{fedora}")
    call("PUT", f"/v2/images/{fedora}/tags/cloud", expect=204)
    get(f"/v2/images/{fedora}")
    get("/v2/images", tag="fedora")
    call("DELETE", f"/v2/images/{fedora}", expect=204)
    get(f"/v2/images/{fedora}", expect=404)
    get("/v2/images", tag="fedora")
    get("/v2/images")
    get("/v2/images", visibility="public")
    get(f"/v2/images/{debian}")
    get(f"/v2/images/{ubuntu}")
    get(f"/v2/images/{cirros}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46211")
