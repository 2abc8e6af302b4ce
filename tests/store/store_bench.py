"""A quick commit-rate figure: served-write-shaped batches (an entity, a collection's order, the
meta subject) committed one after another on one thread.

    python tests/store/store_bench.py [memory: | sqlite:PATH[?synchronous=NORMAL] | postgresql://…] [N]

Not a test: pytest does not collect it. Prints commits per second and subject writes per second.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.store import NO_ACTOR, Expect, RecordEnvelope, SubjectWrite, open_store


def bench(url: str, count: int) -> tuple[float, float]:
    with open_store(url) as store:
        meta_revision = None
        order: list[str] = []
        order_revision = None
        started = time.perf_counter()
        for i in range(count):
            entity_id = f"item-{i}"
            order.append(entity_id)
            writes = [
                SubjectWrite("item", entity_id, Expect.absent(),
                             {"id": entity_id, "name": f"Item {i}", "price": JsonNumber("19.90"), "qty": i,
                              "tags": ["a", "b"], "created_at": "2026-03-01T12:00:00Z"}),
                SubjectWrite("collection_order", "items", Expect.absent() if order_revision is None
                             else Expect.revision(order_revision), {"ids": order[-50:]}),
                SubjectWrite("meta", "runtime", Expect.absent() if meta_revision is None
                             else Expect.revision(meta_revision), {"clock": i, "counter": i, "sequences": {"item": i}}),
            ]
            commit = store.commit(RecordEnvelope(f"write-{i}", "2026-03-01T12:00:00Z", NO_ACTOR), writes)
            order_revision = commit.writes[1].revision
            meta_revision = commit.writes[2].revision
        elapsed = time.perf_counter() - started
    return count / elapsed, 3 * count / elapsed


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else "memory:"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    with tempfile.TemporaryDirectory() as tmp:
        url = url.replace("{tmp}", str(Path(tmp)))
        commits, writes = bench(url, count)
    print(f"{url}: {commits:,.0f} commits/s ({writes:,.0f} subject writes/s) over {count} commits")


if __name__ == "__main__":
    main()
