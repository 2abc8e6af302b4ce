#!/usr/bin/env python3
"""Seed a fresh Home Assistant 2024.3.3 through its REST API (standard library only).

Usage: seed.py BASE_URL TOKEN  (run by start.sh on the app port, never through the recording proxy)

Every call sends token.txt's long-lived access token as `Authorization: Bearer`. First it puts the states
of the entities configuration.yaml makes in a fixed order: their integrations (input_boolean, counter,
zone) start concurrently, so `GET /api/states` (in the order states were first set) lists them in another
order at each start; each is read, removed (`DELETE`) and set again with the same state and attributes
(`POST`), in CONFIGURED's order (the entities stay loaded and keep writing their state in place). What it
makes (README "Seed data"): three states set by `POST /api/states/<entity_id>` (each answered 201, new):
`sensor.living_room_temperature` (21.3, °C, a device class), `sensor.outdoor_humidity` (64, %) and
`binary_sensor.front_door` (off, a device class). configuration.yaml makes the rest: the input_booleans
`porch_light` (off) and `guest_mode` (on), the counter `door_openings` (3) and `zone.home`.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2].strip()
AUTH = {"Authorization": f"Bearer {TOKEN}"}

CONFIGURED = ["input_boolean.porch_light", "input_boolean.guest_mode", "counter.door_openings", "zone.home"]
for entity_id in CONFIGURED:
    held = checked_call(BASE, "GET", f"/api/states/{entity_id}", AUTH, expect=(200,))
    checked_call(BASE, "DELETE", f"/api/states/{entity_id}", AUTH, expect=(200,))
    checked_call(BASE, "POST", f"/api/states/{entity_id}", AUTH,
                 {"state": held["state"], "attributes": held["attributes"]}, expect=(201,))

for entity_id, body in [
    ("sensor.living_room_temperature", {"state": "21.3", "attributes": {
        "unit_of_measurement": "°C", "device_class": "temperature", "friendly_name": "Living room temperature"}}),
    ("sensor.outdoor_humidity", {"state": "64", "attributes": {
        "unit_of_measurement": "%", "friendly_name": "Outdoor humidity"}}),
    ("binary_sensor.front_door", {"state": "off", "attributes": {
        "device_class": "door", "friendly_name": "Front door"}}),
]:
    checked_call(BASE, "POST", f"/api/states/{entity_id}", AUTH, body, expect=(201,))
