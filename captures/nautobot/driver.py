#!/usr/bin/env python3
"""Scenario driver for Nautobot 3.2.7's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18301 --mode capture [-v]

Every call sends the throwaway superuser's token (`Authorization: Token <key>`, start.sh) and
`Accept: application/json`; every write a JSON body. Django REST Framework under /api/: paths end
in a slash, lists are `{count, next, previous, results}` pages (`limit`/`offset`), objects have
UUID ids, `url`, `display`, `object_type`, `natural_slug`, and references are `{id, object_type,
url}` stubs in reads (`?depth=1` embeds the referenced object) where writes take ids. Nautobot 3
has locations of location types instead of NetBox's sites and regions, roles and statuses as
objects of their own (extras), and IP addresses and prefixes in namespaces. The seed (seed.py, run
by start.sh, not recorded): README "Seed data". Every call is sequential, with a random 50-150 ms
sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "0123456789abcdef0123456789abcdef01234567"
MISSING = "00000000-0000-4000-8000-000000000099"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Token",
                  headers={"Accept": "application/json"})


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200):
        return call(method, path, body=body, expect=expect)[1]

    def results(answer):
        return answer.get("results", []) if isinstance(answer, dict) else []

    def ids(path, key="name"):
        """name -> id of every object of a list (one page of 100)."""
        return {o.get(key) if key != "display" else o.get("display"): o.get("id")
                for o in results(get(path, limit=100))}

    def created(answer):
        return answer.get("id", MISSING) if isinstance(answer, dict) else MISSING

    # ---- a. reads before any write: the root, the seed's lists and items, absences
    get("/api/")
    get("/api/dcim/")
    statuses = ids("/api/extras/statuses/")
    active, planned, reserved = statuses.get("Active"), statuses.get("Planned"), statuses.get("Reserved")
    namespace = ids("/api/ipam/namespaces/").get("Global")
    location_types = ids("/api/dcim/location-types/")
    locations = ids("/api/dcim/locations/")
    check("locations", sorted(locations), ["Europe", "North America", "ams1", "fra1", "nyc1"])
    get(f"/api/dcim/locations/{locations.get('ams1')}/")
    get(f"/api/dcim/locations/{locations.get('Europe')}/")
    get(f"/api/dcim/location-types/{location_types.get('Site')}/")
    tenants = ids("/api/tenancy/tenants/")
    get(f"/api/tenancy/tenants/{tenants.get('Acme')}/")
    tags = ids("/api/extras/tags/")
    get(f"/api/extras/tags/{tags.get('production')}/")
    manufacturers = ids("/api/dcim/manufacturers/")
    get(f"/api/dcim/manufacturers/{manufacturers.get('Juniper')}/")
    device_types = ids("/api/dcim/device-types/", "model")
    get(f"/api/dcim/device-types/{device_types.get('MX204')}/")
    roles = ids("/api/extras/roles/")
    get(f"/api/extras/roles/{roles.get('router')}/")
    devices = ids("/api/dcim/devices/")
    check("devices", sorted(devices), ["ams1-rtr1", "ams1-sw1", "nyc1-sw1"])
    for name in ("ams1-rtr1", "ams1-sw1"):
        get(f"/api/dcim/devices/{devices.get(name)}/")
    interfaces = ids("/api/dcim/interfaces/", "display")
    get(f"/api/dcim/interfaces/{next(iter(interfaces.values()), MISSING)}/")
    prefixes = ids("/api/ipam/prefixes/", "prefix")
    get(f"/api/ipam/prefixes/{prefixes.get('10.0.1.0/24')}/")
    addresses = ids("/api/ipam/ip-addresses/", "address")
    get(f"/api/ipam/ip-addresses/{addresses.get('10.0.1.1/24')}/")
    vlans = ids("/api/ipam/vlans/")
    get(f"/api/ipam/vlans/{vlans.get('users')}/")
    vrfs = ids("/api/ipam/vrfs/")
    get(f"/api/ipam/vrfs/{vrfs.get('blue')}/")
    providers = ids("/api/circuits/providers/")
    get(f"/api/circuits/providers/{providers.get('Zayo')}/")
    get(f"/api/extras/statuses/{active}/")
    get(f"/api/ipam/namespaces/{namespace}/")
    for path in ("dcim/locations", "dcim/devices", "tenancy/tenants", "ipam/prefixes", "circuits/providers",
                 "extras/tags"):
        get(f"/api/{path}/{MISSING}/", expect=404)
    get("/api/dcim/devices/not-a-uuid/", expect=404)

    # ---- b. filters, paging, depth
    get("/api/dcim/devices/", limit=2)
    get("/api/dcim/devices/", limit=2, offset=2)
    get("/api/dcim/locations/", limit=2, offset=1)
    get("/api/dcim/devices/", name="ams1-sw1")
    get("/api/dcim/devices/", q="ams1")
    get("/api/dcim/devices/", location="ams1")
    get("/api/dcim/devices/", role="switch")
    get("/api/dcim/devices/", status="Planned")
    get("/api/dcim/devices/", tags="production")
    get("/api/dcim/locations/", parent="Europe")
    get("/api/dcim/locations/", location_type="Region")
    get("/api/dcim/locations/", q="fra")
    get("/api/dcim/interfaces/", device="ams1-rtr1")
    get("/api/dcim/interfaces/", device_id=devices.get("ams1-sw1"))
    get("/api/ipam/prefixes/", q="10.0.1")
    get("/api/ipam/prefixes/", type="container")
    get("/api/ipam/ip-addresses/", parent=prefixes.get("10.0.1.0/24"))
    get("/api/ipam/vlans/", vid=200)
    get("/api/ipam/vlans/", location="ams1")
    get("/api/tenancy/tenants/", name="Globex")
    get("/api/extras/tags/", name="lab")
    get("/api/dcim/manufacturers/", q="ari")
    get("/api/dcim/devices/", depth=1, limit=1)
    get(f"/api/dcim/devices/{devices.get('ams1-rtr1')}/", depth=1)
    get("/api/dcim/devices/", name="nothing-like-this")

    # ---- c. tenants: create, read, PATCH, PUT, delete, errors
    t = created(send("POST", "/api/tenancy/tenants/", {"name": "Initech", "description": "TPS reports"},
                     expect=201))
    get(f"/api/tenancy/tenants/{t}/")
    get("/api/tenancy/tenants/")
    send("PATCH", f"/api/tenancy/tenants/{t}/", {"description": "Software"})
    get(f"/api/tenancy/tenants/{t}/")
    send("PUT", f"/api/tenancy/tenants/{t}/", {"name": "Initech Inc", "comments": "renamed"})
    get(f"/api/tenancy/tenants/{t}/")
    get("/api/tenancy/tenants/", name="Initech Inc")
    send("POST", "/api/tenancy/tenants/", {"name": "Acme"}, expect=400)
    send("POST", "/api/tenancy/tenants/", {"description": "no name"}, expect=400)
    send("PATCH", f"/api/tenancy/tenants/{MISSING}/", {"description": "x"}, expect=404)
    send("DELETE", f"/api/tenancy/tenants/{t}/", expect=204)
    get(f"/api/tenancy/tenants/{t}/", expect=404)
    get("/api/tenancy/tenants/")
    send("DELETE", f"/api/tenancy/tenants/{MISSING}/", expect=404)

    # ---- d. manufacturers and device types
    m = created(send("POST", "/api/dcim/manufacturers/", {"name": "Cisco", "description": "routers"},
                     expect=201))
    get(f"/api/dcim/manufacturers/{m}/")
    send("PATCH", f"/api/dcim/manufacturers/{m}/", {"description": "routers and switches"})
    get(f"/api/dcim/manufacturers/{m}/")
    dt = created(send("POST", "/api/dcim/device-types/",
                      {"manufacturer": m, "model": "ASR1001-X", "u_height": 1, "part_number": "ASR1001-X"},
                      expect=201))
    get(f"/api/dcim/device-types/{dt}/")
    get("/api/dcim/device-types/", manufacturer="Cisco")
    send("PATCH", f"/api/dcim/device-types/{dt}/", {"u_height": 2, "comments": "2U"})
    get(f"/api/dcim/device-types/{dt}/")
    send("POST", "/api/dcim/device-types/", {"model": "no-maker"}, expect=400)

    # ---- e. a site (location) with a device and its interfaces
    lon = created(send("POST", "/api/dcim/locations/", {
        "name": "lon1", "location_type": location_types.get("Site"), "parent": locations.get("Europe"),
        "status": active, "description": "London", "time_zone": "Europe/London"}, expect=201))
    get(f"/api/dcim/locations/{lon}/")
    get("/api/dcim/locations/", parent="Europe")
    send("PATCH", f"/api/dcim/locations/{lon}/", {"facility": "Telehouse North", "asn": 65010})
    get(f"/api/dcim/locations/{lon}/")
    send("POST", "/api/dcim/locations/", {"name": "bad", "location_type": location_types.get("Site"),
                                          "status": active}, expect=400)
    dev = created(send("POST", "/api/dcim/devices/", {
        "name": "lon1-rtr1", "device_type": dt, "role": roles.get("router"), "location": lon,
        "status": planned, "serial": "FOX123"}, expect=201))
    get(f"/api/dcim/devices/{dev}/")
    get("/api/dcim/devices/", location="lon1")
    get("/api/dcim/devices/")
    send("PATCH", f"/api/dcim/devices/{dev}/", {"status": active, "asset_tag": "A-1001"})
    get(f"/api/dcim/devices/{dev}/")
    send("PATCH", f"/api/dcim/devices/{dev}/", {"tags": [tags.get("production"), tags.get("lab")]})
    get(f"/api/dcim/devices/{dev}/")
    get("/api/dcim/devices/", tags="lab")
    send("PUT", f"/api/dcim/devices/{dev}/", {
        "name": "lon1-rtr01", "device_type": dt, "role": roles.get("router"), "location": lon,
        "status": active, "serial": "FOX124"})
    get(f"/api/dcim/devices/{dev}/")
    send("POST", "/api/dcim/devices/", {"name": "ams1-sw1", "device_type": dt, "role": roles.get("router"),
                                        "location": locations.get("ams1"), "status": active}, expect=400)
    send("POST", "/api/dcim/devices/", {"name": "lost", "device_type": MISSING, "role": roles.get("router"),
                                        "location": lon, "status": active}, expect=400)
    send("PATCH", f"/api/dcim/devices/{dev}/", {"status": "no-such-status"}, expect=400)
    ifs = []
    for name in ("Gi0/0/0", "Gi0/0/1"):
        ifs.append(created(send("POST", "/api/dcim/interfaces/", {
            "device": dev, "name": name, "type": "1000base-t", "status": active}, expect=201)))
    get(f"/api/dcim/interfaces/{ifs[0]}/")
    get("/api/dcim/interfaces/", device_id=dev)
    send("PATCH", f"/api/dcim/interfaces/{ifs[0]}/", {"description": "uplink", "mtu": 9000, "enabled": False})
    get(f"/api/dcim/interfaces/{ifs[0]}/")
    send("POST", "/api/dcim/interfaces/", {"device": dev, "name": "Gi0/0/0", "type": "1000base-t",
                                           "status": active}, expect=400)
    send("POST", "/api/dcim/interfaces/", {"device": dev, "name": "x", "type": "warp-drive",
                                           "status": active}, expect=400)
    send("DELETE", f"/api/dcim/interfaces/{ifs[1]}/", expect=204)
    get(f"/api/dcim/interfaces/{ifs[1]}/", expect=404)
    get("/api/dcim/interfaces/", device_id=dev)
    # a location that holds a device cannot be deleted
    send("DELETE", f"/api/dcim/locations/{lon}/", expect=409)
    get(f"/api/dcim/locations/{lon}/")

    # ---- f. IPAM: VRFs, prefixes, IP addresses, VLANs
    vrf = created(send("POST", "/api/ipam/vrfs/", {"name": "green", "namespace": namespace, "rd": "65000:3",
                                                   "description": "guest"}, expect=201))
    get(f"/api/ipam/vrfs/{vrf}/")
    send("PATCH", f"/api/ipam/vrfs/{vrf}/", {"description": "guest wifi"})
    get(f"/api/ipam/vrfs/{vrf}/")
    get("/api/ipam/vrfs/")
    send("POST", "/api/ipam/vrfs/", {"name": "blue2", "namespace": namespace, "rd": "65000:1"}, expect=400)
    p = created(send("POST", "/api/ipam/prefixes/", {"prefix": "10.0.3.0/24", "namespace": namespace,
                                                     "status": active, "type": "network",
                                                     "description": "lon1 users"}, expect=201))
    get(f"/api/ipam/prefixes/{p}/")
    get("/api/ipam/prefixes/")
    send("PATCH", f"/api/ipam/prefixes/{p}/", {"description": "lon1 servers", "tenant": tenants.get("Globex")})
    get(f"/api/ipam/prefixes/{p}/")
    get("/api/ipam/prefixes/", tenant="Globex")
    send("POST", "/api/ipam/prefixes/", {"prefix": "10.0.3.0/33", "namespace": namespace, "status": active},
         expect=400)
    send("POST", "/api/ipam/prefixes/", {"prefix": "10.0.1.0/24", "namespace": namespace, "status": active},
         expect=400)
    get(f"/api/ipam/prefixes/{p}/available-ips/", limit=3)
    ip = created(send("POST", "/api/ipam/ip-addresses/", {"address": "10.0.3.10/24", "namespace": namespace,
                                                          "status": active, "dns_name": "lon1-rtr01.example.net"},
                      expect=201))
    get(f"/api/ipam/ip-addresses/{ip}/")
    get("/api/ipam/ip-addresses/", parent=p)
    send("PATCH", f"/api/ipam/ip-addresses/{ip}/", {"description": "loopback", "tags": [tags.get("lab")]})
    get(f"/api/ipam/ip-addresses/{ip}/")
    send("PUT", f"/api/ipam/ip-addresses/{ip}/", {"address": "10.0.3.10/24", "namespace": namespace,
                                                  "status": reserved})
    get(f"/api/ipam/ip-addresses/{ip}/")
    send("POST", "/api/ipam/ip-addresses/", {"address": "192.0.2.1/24", "namespace": namespace,
                                             "status": active}, expect=400)
    send("POST", "/api/ipam/ip-addresses/", {"address": "not-an-ip", "namespace": namespace,
                                             "status": active}, expect=400)
    send("DELETE", f"/api/ipam/ip-addresses/{ip}/", expect=204)
    get(f"/api/ipam/ip-addresses/{ip}/", expect=404)
    get("/api/ipam/ip-addresses/")
    vlan = created(send("POST", "/api/ipam/vlans/", {"vid": 300, "name": "voice", "status": active,
                                                     "location": locations.get("ams1")}, expect=201))
    get(f"/api/ipam/vlans/{vlan}/")
    send("PATCH", f"/api/ipam/vlans/{vlan}/", {"name": "voip", "description": "phones"})
    get(f"/api/ipam/vlans/{vlan}/")
    send("PUT", f"/api/ipam/vlans/{vlan}/", {"vid": 301, "name": "voip", "status": reserved})
    get(f"/api/ipam/vlans/{vlan}/")
    get("/api/ipam/vlans/")
    send("POST", "/api/ipam/vlans/", {"vid": 5000, "name": "too-big", "status": active}, expect=400)
    send("DELETE", f"/api/ipam/vlans/{vlan}/", expect=204)
    get(f"/api/ipam/vlans/{vlan}/", expect=404)
    send("DELETE", f"/api/ipam/prefixes/{p}/", expect=204)
    get(f"/api/ipam/prefixes/{p}/", expect=404)
    send("DELETE", f"/api/ipam/vrfs/{vrf}/", expect=204)
    get("/api/ipam/vrfs/")

    # ---- g. tags and tagging
    tag = created(send("POST", "/api/extras/tags/", {"name": "core", "color": "0000ff",
                                                    "content_types": ["dcim.device", "ipam.prefix"]},
                       expect=201))
    get(f"/api/extras/tags/{tag}/")
    send("PATCH", f"/api/extras/tags/{tag}/", {"description": "core network", "color": "3f51b5"})
    get(f"/api/extras/tags/{tag}/")
    send("PATCH", f"/api/dcim/devices/{devices.get('ams1-rtr1')}/", {"tags": [tags.get("production"), tag]})
    get(f"/api/dcim/devices/{devices.get('ams1-rtr1')}/")
    get("/api/dcim/devices/", tags="core")
    send("POST", "/api/extras/tags/", {"name": "production", "content_types": ["dcim.device"]}, expect=400)
    send("DELETE", f"/api/extras/tags/{tag}/", expect=204)
    get(f"/api/extras/tags/{tag}/", expect=404)
    get(f"/api/dcim/devices/{devices.get('ams1-rtr1')}/")
    get("/api/extras/tags/")

    # ---- h. circuit providers
    pr = created(send("POST", "/api/circuits/providers/", {"name": "Cogent", "asn": 174,
                                                          "account": "C-42"}, expect=201))
    get(f"/api/circuits/providers/{pr}/")
    send("PATCH", f"/api/circuits/providers/{pr}/", {"portal_url": "https://portal.example.net/",
                                                    "noc_contact": "noc@example.net"})
    get(f"/api/circuits/providers/{pr}/")
    send("PUT", f"/api/circuits/providers/{pr}/", {"name": "Cogent Communications", "asn": 174})
    get(f"/api/circuits/providers/{pr}/")
    get("/api/circuits/providers/")
    send("POST", "/api/circuits/providers/", {"name": "Zayo"}, expect=400)
    send("POST", "/api/circuits/providers/", {"name": "Bad ASN", "asn": "many"}, expect=400)
    send("DELETE", f"/api/circuits/providers/{pr}/", expect=204)
    get(f"/api/circuits/providers/{pr}/", expect=404)
    get("/api/circuits/providers/")

    # ---- i. bulk PATCH and bulk DELETE on list URLs
    extra = [created(send("POST", "/api/tenancy/tenants/", {"name": name}, expect=201))
             for name in ("Umbrella", "Hooli", "Soylent")]
    get("/api/tenancy/tenants/")
    send("PATCH", "/api/tenancy/tenants/", [{"id": extra[0], "description": "bulk one"},
                                            {"id": extra[1], "description": "bulk two"}])
    get(f"/api/tenancy/tenants/{extra[0]}/")
    get(f"/api/tenancy/tenants/{extra[1]}/")
    send("PATCH", "/api/dcim/devices/", [{"id": devices.get("nyc1-sw1"), "status": active},
                                         {"id": dev, "serial": "FOX125"}])
    get(f"/api/dcim/devices/{devices.get('nyc1-sw1')}/")
    get(f"/api/dcim/devices/{dev}/")
    send("DELETE", "/api/tenancy/tenants/", [{"id": extra[0]}, {"id": extra[1]}], expect=204)
    get(f"/api/tenancy/tenants/{extra[0]}/", expect=404)
    get(f"/api/tenancy/tenants/{extra[1]}/", expect=404)
    get("/api/tenancy/tenants/")
    send("PATCH", "/api/tenancy/tenants/", [{"description": "no id"}], expect=400)

    # ---- j. deletes in order: the device (its interfaces go with it), then its site; a manufacturer in use
    send("DELETE", f"/api/dcim/manufacturers/{m}/", expect=409)
    send("DELETE", f"/api/dcim/devices/{dev}/", expect=204)
    get(f"/api/dcim/devices/{dev}/", expect=404)
    get(f"/api/dcim/interfaces/{ifs[0]}/", expect=404)
    get("/api/dcim/interfaces/", device_id=dev, expect=400)  # a device that is gone: no valid choice
    send("DELETE", f"/api/dcim/locations/{lon}/", expect=204)
    get(f"/api/dcim/locations/{lon}/", expect=404)
    get("/api/dcim/locations/")
    send("DELETE", f"/api/dcim/device-types/{dt}/", expect=204)
    send("DELETE", f"/api/dcim/manufacturers/{m}/", expect=204)
    get(f"/api/dcim/manufacturers/{m}/", expect=404)
    get("/api/dcim/manufacturers/")
    get("/api/dcim/devices/")
    get("/api/tenancy/tenants/")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18301")
