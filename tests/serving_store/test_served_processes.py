"""``capenv serve`` processes on one store (the issue's acceptance): two servers serve one state;
8 MCP clients x 100 creates against one server leave exactly 800 new entities with unique
sequence ids; a server killed with SIGKILL in the middle of a write load loses no acknowledged
write and keeps no partial one. Each runs on a SQLite file and on a PostgreSQL schema."""

from __future__ import annotations

import http.client

import json
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from serving_store_support import CALL_TIMEOUT_SECONDS, POST_BODY, HttpClient, posts_of, serving, start_server
from support.served import capenv

INITIAL_POST_IDS = [1, 2, 3]


def data_get(server) -> dict[str, Any]:
    client = HttpClient(server.port)
    try:
        return client.json("GET", "/_capenv/data/get")
    finally:
        client.close()


def test_two_servers_on_one_store_serve_one_state(bundle_path: Path, shared_store_url: str, tmp_path: Path) -> None:
    with serving(bundle_path, shared_store_url, tmp_path / "a.log") as a, \
            serving(bundle_path, shared_store_url, tmp_path / "b.log") as b:
        through_a, through_b = HttpClient(a.port), HttpClient(b.port)
        created = through_a.json("POST", "/posts", POST_BODY)
        assert created["id"] == 4
        assert through_b.json("GET", "/posts/4") == created  # written through one, read through the other
        assert through_b.json("POST", "/posts", {**POST_BODY, "title": "via b"})["id"] == 5
        assert [p["id"] for p in through_a.json("GET", "/posts")] == [*INITIAL_POST_IDS, 4, 5]
        assert through_a.json("PATCH", "/posts/5", {"views": 77})["views"] == 77
        assert through_b.json("GET", "/posts/5")["views"] == 77
        through_b.json("POST", "/_capenv/data/reset")
        assert through_a.request("GET", "/posts/4")[0] == 404
        through_a.close()
        through_b.close()

        # Both at once: every write is decided on the state the other left, never over it.
        ids: list[list[int]] = [[], []]

        def load(server, into: list[int]) -> None:
            client = HttpClient(server.port)
            for n in range(40):
                into.append(client.json("POST", "/posts", {**POST_BODY, "title": f"{server.port}-{n}"})["id"])
            client.close()

        threads = [threading.Thread(target=load, args=(server, into)) for server, into in zip((a, b), ids)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        served = ids[0] + ids[1]
        assert len(served) == 80 and len(set(served)) == 80
        assert data_get(a) == data_get(b)
        assert {p["id"] for p in posts_of(data_get(a))} == {*INITIAL_POST_IDS, *served}


@pytest.mark.slow
def test_eight_mcp_clients_make_800_creates_with_unique_sequence_ids(bundle_path: Path, shared_store_url: str,
                                                                     tmp_path: Path) -> None:
    clients, per_client = 8, 100
    with serving(bundle_path, shared_store_url, tmp_path / "server.log") as server:
        ids: list[list[int]] = [[] for _ in range(clients)]

        async def client(number: int) -> None:
            async with Client(server.base_url + "/mcp") as session:
                for n in range(per_client):
                    result = await session.call_tool("post_posts", {"body": {**POST_BODY, "title": f"c{number}-{n}"}},
                                                     meta={"idempotencyKey": f"c{number}-{n}"})
                    assert result.is_error is False, result.structured_content
                    ids[number].append(result.structured_content["body"]["id"])

        async def main() -> None:
            with anyio.fail_after(240):
                async with anyio.create_task_group() as group:
                    for number in range(clients):
                        group.start_soon(client, number)

        anyio.run(main)
        served = [i for chunk in ids for i in chunk]
        assert len(served) == clients * per_client and len(set(served)) == len(served)
        posts = posts_of(data_get(server))
        assert len(posts) == len(INITIAL_POST_IDS) + clients * per_client
        held = [p["id"] for p in posts]
        assert len(set(held)) == len(held) and set(held) == {*INITIAL_POST_IDS, *served}
        titles = {p["value"]["title"] for p in posts[len(INITIAL_POST_IDS):]}
        assert titles == {f"c{c}-{n}" for c in range(clients) for n in range(per_client)}
        verified = capenv("history", "verify", "--bundle", str(bundle_path), "--store", shared_store_url, "--json")
        assert verified.returncode == 0, (verified.stdout, verified.stderr)
        assert json.loads(verified.stdout)["writes"] == clients * per_client


@pytest.mark.slow
def test_sigkill_in_the_middle_of_a_write_load_loses_no_acknowledged_write(bundle_path: Path, shared_store_url: str,
                                                                           tmp_path: Path) -> None:
    server = start_server(bundle_path, shared_store_url, tmp_path / "killed.log")
    acknowledged: dict[int, str] = {}  # id -> title, for every create answered 201
    lock = threading.Lock()
    stop = threading.Event()

    def load(worker: int) -> None:
        client = HttpClient(server.port)
        n = 0
        while not stop.is_set():
            title = f"w{worker}-{n}"
            try:
                status, body = client.request("POST", "/posts", {**POST_BODY, "title": title})
            except (OSError, http.client.HTTPException):  # the server is gone (possibly mid-answer):
                return                                        # this create may or may not have landed
            if status == 201:
                with lock:
                    acknowledged[json.loads(body)["id"]] = title
            n += 1

    workers = [threading.Thread(target=load, args=(w,), daemon=True) for w in range(3)]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + CALL_TIMEOUT_SECONDS
    while len(acknowledged) < 500 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # mid-load: the workers are still sending
    stop.set()
    for worker in workers:
        worker.join(CALL_TIMEOUT_SECONDS)
    assert len(acknowledged) >= 500

    with serving(bundle_path, shared_store_url, tmp_path / "restarted.log") as restarted:
        document = data_get(restarted)
        held = {p["id"]: p["value"]["title"] for p in posts_of(document)}
        missing = {i: t for i, t in acknowledged.items() if held.get(i) != t}
        assert not missing, f"acknowledged writes lost: {sorted(missing)[:10]}"
        # No partial write: the stored state is exactly the replay of the recorded history, and
        # every post beyond the initial ones is one recorded create.
        verified = capenv("history", "verify", "--bundle", str(bundle_path), "--store", shared_store_url, "--json")
        assert verified.returncode == 0, (verified.stdout, verified.stderr)
        assert json.loads(verified.stdout)["writes"] == len(held) - len(INITIAL_POST_IDS)
        # data/get loads back through data/add unchanged.
        client = HttpClient(restarted.port)
        status, got = client.request("GET", "/_capenv/data/get")
        assert status == 200
        assert client.request("POST", "/_capenv/data/add", got)[0] == 200
        assert client.request("GET", "/_capenv/data/get") == (200, got)
        # And the restarted server goes on from where the killed one stopped.
        assert client.json("POST", "/posts", POST_BODY)["id"] == max(held) + 1
        client.close()
