"""capenv serving side: runs bundle plans against a store; never imports the evaluator.

One package per family of docs/architecture.md (reads, writes, state, catalog, ops, store,
transport, export, compare); the top level keeps the runtime's entry modules (``runtime``,
``runtime_api``, ``read_call``, ``data_plane``, ``http_surface``). Serving imports only the
build side's ``bundle`` and ``manifest`` models (import contracts in pyproject.toml).
"""
