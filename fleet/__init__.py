"""``capenv.fleet``: the client of a fleet of environments (``capenv serve --http … --instances``;
``docs/instances.md``), for training and evaluation loops.

    from capenv.fleet import Fleet

    with Fleet("http://127.0.0.1:8123", token).create() as env:   # a fresh instance, deleted on exit
        run_agent(env.mcp_url)                                     # the agent's MCP endpoint
        reward = score(env.grader.get())                           # data/get of this instance

``AsyncFleet`` is the same for asyncio (``async with fleet.create() as env``).
"""

from capenv.serving.transport.fleet_client import (
    AsyncFleet, AsyncGrader, Fleet, FleetError, Grader, Instance,
)

__all__ = ["AsyncFleet", "AsyncGrader", "Fleet", "FleetError", "Grader", "Instance"]
