"""The catalog: the MCP tools a bundle serves (read tools and served write tools), their input
schemas and their descriptions within the discovery budget.

May import: the build side's ``bundle`` and ``manifest`` models, ``serving.reads`` (what a read
answers from), ``serving.read_call``, ``serving.runtime_api``. Never ``state``'s store, the
runtime or the transports.
"""
