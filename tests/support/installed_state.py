"""Give a runtime a state through data/add: the current state with one collection's entities replaced."""

from __future__ import annotations

import json
from typing import Any


def install_entities(runtime: Any, path: str, values: list[dict]) -> None:
    """data/add of the runtime's current state, the collection at ``path`` holding ``values``
    (each by its ``id``)."""
    state = json.loads(runtime.data_get())
    for collection in state["collections"]:
        if collection["path"] == path:
            collection["entities"] = [{"id": v["id"], "value": v, "records": []} for v in values]
    runtime.data_add(json.dumps(state).encode())
