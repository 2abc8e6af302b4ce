"""Transports of the serving runtime (DESIGN.md §7), built on ``capenv.serving.runtime_api``.

* ``mcp_server``: the MCP server (official SDK) and ``run_stdio``;
* ``http_app``: the ASGI app of ``capenv serve --http`` (MCP, data plane, the
  application's paths) and ``run_http``;
* ``data_client``: the client side of ``capenv data get|reset|add --url``.

Import the module you need; this package imports nothing, so the CLI stays quick to start.

May import: ``serving.runtime_api``, the runtime and its HTTP surface, the store, the build side's ``bundle`` and
``manifest`` models. Nothing of serving imports a transport (an import contract,
pyproject.toml).
"""
