"""The served state: the indexed in-memory copy and its edits, and the same state kept in a store
as entity-level subjects (holder, subjects, ranks, mirror, catch-up, commits, install, the
history's records and its verification).

May import: the build side's ``bundle`` and ``manifest`` models, ``serving.store`` (the backends),
and for the history's replay ``serving.writes`` and the runtime's call models. Never ``catalog``
or the transports.
"""
