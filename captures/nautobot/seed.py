"""Seed a fresh Nautobot 3.2.7 through its REST API, then fix every clock in PostgreSQL.

Usage: seed.py BASE_URL TOKEN PSQL PG_PORT  (run by start.sh on the app port, not recorded)

start.sh runs it against a server whose UUIDs come from a fixed sequence (nautobot_config.py), so
every object below has the same id on every fresh start. What it makes (beside what migrations
made: the statuses Active, Planned, ..., the namespace Global):
- location types Region and Site (Site under Region; devices, prefixes, VLANs and circuits allowed);
- regions Europe and North America, sites ams1 and fra1 (Europe) and nyc1 (North America);
- tenants Acme and Globex; tags production and lab (for devices, interfaces, prefixes, IP addresses);
- manufacturers Juniper and Arista, device types MX204 (Juniper) and 7050SX-64 (Arista);
- device roles router and switch;
- devices ams1-rtr1 (MX204, router), ams1-sw1 and nyc1-sw1 (7050SX-64, switch), with interfaces
  et-0/0/0 and et-0/0/1 on ams1-rtr1, Ethernet1 and Ethernet2 on ams1-sw1;
- VRFs blue and red, prefixes 10.0.0.0/16 (container), 10.0.1.0/24 and 10.0.2.0/24 (reserved), IP addresses
  10.0.1.1/24 and 10.0.1.2/24, VLANs 100 (users) and 200 (servers) at ams1;
- circuit providers Zayo and Lumen.
Then every created/last_updated clock is set to 2026-12-01T00:00:00Z (the seed's own clocks would
differ on every start).
"""
import json
import subprocess
import sys
import urllib.error
import urllib.request

BASE, TOKEN, PSQL, PG_PORT = sys.argv[1:5]
FIXED_CLOCK = "2026-12-01 00:00:00+00"


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method, headers={
        "Authorization": f"Token {TOKEN}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path} {body}: {e.code} {e.read()[:500]!r}")


def make(path, body):
    return call("POST", path, body)["id"]


def status(name):
    return call("GET", f"/api/extras/statuses/?name={name}")["results"][0]["id"]


def main():
    active, planned, reserved = status("Active"), status("Planned"), status("Reserved")
    namespace = call("GET", "/api/ipam/namespaces/?name=Global")["results"][0]["id"]
    region_type = make("/api/dcim/location-types/", {"name": "Region", "nestable": True})
    site_type = make("/api/dcim/location-types/", {
        "name": "Site", "parent": region_type,
        "content_types": ["dcim.device", "ipam.prefix", "ipam.vlan", "circuits.circuittermination"]})
    europe = make("/api/dcim/locations/", {"name": "Europe", "location_type": region_type, "status": active})
    america = make("/api/dcim/locations/", {"name": "North America", "location_type": region_type,
                                            "status": active})
    acme = make("/api/tenancy/tenants/", {"name": "Acme", "description": "Acme Corporation"})
    make("/api/tenancy/tenants/", {"name": "Globex"})
    ams1 = make("/api/dcim/locations/", {"name": "ams1", "location_type": site_type, "parent": europe,
                                         "status": active, "tenant": acme, "facility": "Equinix AM3"})
    make("/api/dcim/locations/", {"name": "fra1", "location_type": site_type, "parent": europe,
                                  "status": planned})
    nyc1 = make("/api/dcim/locations/", {"name": "nyc1", "location_type": site_type, "parent": america,
                                         "status": active})
    tagged = ["dcim.device", "dcim.interface", "ipam.prefix", "ipam.ipaddress"]
    production = make("/api/extras/tags/", {"name": "production", "color": "ff0000", "content_types": tagged})
    make("/api/extras/tags/", {"name": "lab", "color": "00ff00", "content_types": tagged})
    juniper = make("/api/dcim/manufacturers/", {"name": "Juniper"})
    arista = make("/api/dcim/manufacturers/", {"name": "Arista"})
    mx204 = make("/api/dcim/device-types/", {"manufacturer": juniper, "model": "MX204", "u_height": 1})
    sx64 = make("/api/dcim/device-types/", {"manufacturer": arista, "model": "7050SX-64", "u_height": 1})
    router = make("/api/extras/roles/", {"name": "router", "color": "2196f3", "content_types": ["dcim.device"]})
    switch = make("/api/extras/roles/", {"name": "switch", "color": "4caf50", "content_types": ["dcim.device"]})
    rtr = make("/api/dcim/devices/", {"name": "ams1-rtr1", "device_type": mx204, "role": router,
                                      "location": ams1, "status": active, "tenant": acme,
                                      "serial": "JN1234", "tags": [production]})
    sw = make("/api/dcim/devices/", {"name": "ams1-sw1", "device_type": sx64, "role": switch,
                                     "location": ams1, "status": active})
    make("/api/dcim/devices/", {"name": "nyc1-sw1", "device_type": sx64, "role": switch,
                                "location": nyc1, "status": planned})
    for device, names in ((rtr, ("et-0/0/0", "et-0/0/1")), (sw, ("Ethernet1", "Ethernet2"))):
        for name in names:
            make("/api/dcim/interfaces/", {"device": device, "name": name, "type": "10gbase-x-sfpp",
                                           "status": active})
    make("/api/ipam/vrfs/", {"name": "blue", "namespace": namespace, "rd": "65000:1"})
    make("/api/ipam/vrfs/", {"name": "red", "namespace": namespace, "rd": "65000:2"})
    make("/api/ipam/prefixes/", {"prefix": "10.0.0.0/16", "namespace": namespace, "status": active,
                                 "type": "container"})
    make("/api/ipam/prefixes/", {"prefix": "10.0.1.0/24", "namespace": namespace, "status": active,
                                 "type": "network", "tenant": acme, "tags": [production]})
    make("/api/ipam/prefixes/", {"prefix": "10.0.2.0/24", "namespace": namespace, "status": reserved,
                                 "type": "network"})
    for address in ("10.0.1.1/24", "10.0.1.2/24"):
        make("/api/ipam/ip-addresses/", {"address": address, "namespace": namespace, "status": active})
    make("/api/ipam/vlans/", {"vid": 100, "name": "users", "status": active, "location": ams1})
    make("/api/ipam/vlans/", {"vid": 200, "name": "servers", "status": active, "location": ams1})
    make("/api/circuits/providers/", {"name": "Zayo", "asn": 6461})
    make("/api/circuits/providers/", {"name": "Lumen", "asn": 3356})
    fix_clocks()


def fix_clocks():
    """Every table with created and last_updated clocks: one fixed instant."""
    psql = [PSQL, "-h", "127.0.0.1", "-p", PG_PORT, "-U", "postgres", "-d", "nautobot", "-v", "ON_ERROR_STOP=1",
            "-q", "-At"]
    tables = subprocess.run(psql + ["-c", """
        SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name IN ('created', 'last_updated')
        GROUP BY table_name HAVING count(*) = 2 ORDER BY table_name"""],
        check=True, capture_output=True, text=True).stdout.split()
    sql = "".join(f"UPDATE \"{t}\" SET created = '{FIXED_CLOCK}', last_updated = '{FIXED_CLOCK}';\n"
                  for t in tables)
    subprocess.run(psql + ["-c", "BEGIN;\n" + sql + "COMMIT;"], check=True)


if __name__ == "__main__":
    main()
