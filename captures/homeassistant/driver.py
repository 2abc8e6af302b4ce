#!/usr/bin/env python3
"""Scenario driver for Home Assistant 2024.3.3's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18701 --mode capture [-v]

Entities are named by dotted ids in the path (`/api/states/sensor.kitchen_temperature`); a state is
`{entity_id, state, attributes, last_changed, last_updated, context: {id, parent_id, user_id}}` with
per-answer µs clocks and a ULID `context.id`. `POST /api/states/<entity_id>` upserts (201 when new,
200 when it existed; attributes replaced by what the body sends), `DELETE` removes. Every call sends
token.txt's long-lived access token as `Authorization: Bearer`; bodies are JSON. The seed (seed.py, run
by start.sh, not recorded): README "Seed data". Every call is sequential, with a random 50-150 ms sleep
before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
SEED_IDS = ["input_boolean.porch_light", "input_boolean.guest_mode", "counter.door_openings", "zone.home",
            "sensor.living_room_temperature", "sensor.outdoor_humidity", "binary_sensor.front_door"]


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200):
        return call("GET", path, expect=expect)[1]

    def ids(answer):
        return [s["entity_id"] for s in answer] if isinstance(answer, list) else answer

    def state(answer):
        return answer.get("state") if isinstance(answer, dict) else answer

    def put_state(entity_id, body, expect):
        return call("POST", f"/api/states/{entity_id}", body, expect=expect)[1]

    # ---- a. auth and reads before any write
    call("GET", "/api/states", token=None, expect=401)
    call("GET", "/api/states", token="not-a-token", expect=401)
    get("/api/")
    get("/api/config")
    check("states before", ids(get("/api/states")), SEED_IDS)
    for entity_id in SEED_IDS:
        get(f"/api/states/{entity_id}")
    get("/api/states/sensor.kitchen_temperature", expect=404)
    get("/api/states/light.nowhere", expect=404)
    get("/api/services")
    get("/api/events")

    # ---- b. creates: new entity ids (201)
    put_state("sensor.kitchen_temperature", {"state": "21.5", "attributes": {
        "unit_of_measurement": "°C", "device_class": "temperature", "friendly_name": "Kitchen temperature"}}, 201)
    check("kitchen", state(get("/api/states/sensor.kitchen_temperature")), "21.5")
    put_state("sensor.bedroom_humidity", {"state": "48", "attributes": {"unit_of_measurement": "%"}}, 201)
    get("/api/states/sensor.bedroom_humidity")
    put_state("binary_sensor.back_door", {"state": "on", "attributes": {"device_class": "door"}}, 201)
    get("/api/states/binary_sensor.back_door")
    put_state("input_boolean.made_by_api", {"state": "off"}, 201)
    get("/api/states/input_boolean.made_by_api")
    put_state("sensor.power_meter", {"state": "1520"}, 201)  # no attributes: stored as {}
    get("/api/states/sensor.power_meter")
    check("states after creates", ids(get("/api/states")), SEED_IDS + [
        "sensor.kitchen_temperature", "sensor.bedroom_humidity", "binary_sensor.back_door",
        "input_boolean.made_by_api", "sensor.power_meter"])

    # ---- c. upserts of existing ids (200): the state and the attributes are replaced
    put_state("sensor.kitchen_temperature", {"state": "22.0", "attributes": {
        "unit_of_measurement": "°C", "device_class": "temperature", "friendly_name": "Kitchen temperature"}}, 200)
    check("kitchen after upsert", state(get("/api/states/sensor.kitchen_temperature")), "22.0")
    put_state("sensor.kitchen_temperature", {"state": "22.5"}, 200)  # attributes left out: emptied
    get("/api/states/sensor.kitchen_temperature")
    put_state("sensor.living_room_temperature", {"state": "20.8", "attributes": {
        "unit_of_measurement": "°C", "device_class": "temperature", "friendly_name": "Living room temperature"}}, 200)
    get("/api/states/sensor.living_room_temperature")
    put_state("sensor.bedroom_humidity", {"state": "48", "attributes": {"unit_of_measurement": "%"}}, 200)  # same
    get("/api/states/sensor.bedroom_humidity")
    put_state("binary_sensor.front_door", {"state": "on", "attributes": {
        "device_class": "door", "friendly_name": "Front door"}}, 200)
    get("/api/states/binary_sensor.front_door")
    put_state("sensor.power_meter", {"state": "1610", "attributes": {"unit_of_measurement": "W"}}, 200)
    get("/api/states/sensor.power_meter")
    get("/api/states")

    # ---- d. services that change states (answered with the states they changed)
    call("POST", "/api/services/input_boolean/turn_on", {"entity_id": "input_boolean.porch_light"}, expect=200)
    check("porch light on", state(get("/api/states/input_boolean.porch_light")), "on")
    call("POST", "/api/services/input_boolean/toggle", {"entity_id": "input_boolean.guest_mode"}, expect=200)
    check("guest mode toggled", state(get("/api/states/input_boolean.guest_mode")), "off")
    call("POST", "/api/services/input_boolean/turn_off", {"entity_id": "input_boolean.porch_light"}, expect=200)
    get("/api/states/input_boolean.porch_light")
    call("POST", "/api/services/counter/increment", {"entity_id": "counter.door_openings"}, expect=200)
    check("counter +1", state(get("/api/states/counter.door_openings")), "4")
    call("POST", "/api/services/counter/increment", {"entity_id": "counter.door_openings"}, expect=200)
    get("/api/states/counter.door_openings")
    call("POST", "/api/services/counter/reset", {"entity_id": "counter.door_openings"}, expect=200)
    check("counter reset", state(get("/api/states/counter.door_openings")), "3")
    call("POST", "/api/services/input_boolean/turn_on", {"entity_id": "input_boolean.nothing_here"}, expect=200)
    call("POST", "/api/services/light/turn_on", {"entity_id": "light.nowhere"}, expect=400)

    # ---- e. events and templates (no state change)
    call("POST", "/api/events/capenv_doorbell", {"door": "front"}, expect=200)
    call("POST", "/api/events/capenv_doorbell", expect=200)
    call("POST", "/api/template", {"template": "{{ states('sensor.kitchen_temperature') }}"}, expect=200)
    call("POST", "/api/template", {"template": "{{ states.sensor | count }} sensors"}, expect=200)
    call("POST", "/api/template", {"template": "{{ 1 + }}"}, expect=400)

    # ---- f. deletes of sensor., binary_sensor. and input_boolean. ids
    call("DELETE", "/api/states/sensor.bedroom_humidity", expect=200)
    get("/api/states/sensor.bedroom_humidity", expect=404)
    call("DELETE", "/api/states/sensor.bedroom_humidity", expect=404)
    call("DELETE", "/api/states/binary_sensor.back_door", expect=200)
    get("/api/states/binary_sensor.back_door", expect=404)
    call("DELETE", "/api/states/sensor.outdoor_humidity", expect=200)
    get("/api/states/sensor.outdoor_humidity", expect=404)
    call("DELETE", "/api/states/input_boolean.made_by_api", expect=200)
    get("/api/states/input_boolean.made_by_api", expect=404)
    call("DELETE", "/api/states/sensor.never_made", expect=404)
    check("states after deletes", ids(get("/api/states")), [
        "input_boolean.porch_light", "input_boolean.guest_mode", "counter.door_openings", "zone.home",
        "sensor.living_room_temperature", "binary_sensor.front_door", "sensor.kitchen_temperature",
        "sensor.power_meter"])
    # a deleted id made again: new (201), at the end of the list
    put_state("sensor.outdoor_humidity", {"state": "70", "attributes": {"unit_of_measurement": "%"}}, 201)
    get("/api/states/sensor.outdoor_humidity")

    # ---- g. errors
    put_state("sensor.kitchen_temperature", {"attributes": {"unit_of_measurement": "°C"}}, 400)  # no state
    call("POST", "/api/states/sensor.kitchen_temperature", raw="state=23", expect=400)  # not JSON
    put_state("kitchen_temperature", {"state": "23"}, 400)  # no domain
    get("/api/states/sensor.kitchen_temperature")
    # an id in capitals is stored lower-cased: a new entity (201) at sensor.kitchen, read in either spelling
    put_state("Sensor.Kitchen", {"state": "23"}, 201)
    get("/api/states/sensor.kitchen")
    get("/api/states/SENSOR.KITCHEN")

    # ---- h. the lists once more after every write
    check("states at the end", ids(get("/api/states")), [
        "input_boolean.porch_light", "input_boolean.guest_mode", "counter.door_openings", "zone.home",
        "sensor.living_room_temperature", "binary_sensor.front_door", "sensor.kitchen_temperature",
        "sensor.power_meter", "sensor.outdoor_humidity", "sensor.kitchen"])
    for entity_id in ["sensor.living_room_temperature", "binary_sensor.front_door", "sensor.power_meter"]:
        get(f"/api/states/{entity_id}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18701")
