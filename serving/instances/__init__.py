"""Many isolated environments of one bundle in one server (issue 14, ``docs/instances.md``).

Everything immutable is built once and shared (the bundle, the catalog, the replayer, the views,
the plans); each instance holds only its state. An instance starts on a frozen copy of the
initial state that every instance shares (``base``): its store is an overlay that keeps only the
subjects the instance changed (``overlay``), and its in-process copy of the state is the base's
own until its first write (``holder``). The fleet (``fleet``) creates, lists, snapshots, deletes
and expires instances; its registry is kept in the store (``registry``), so several processes
on one PostgreSQL store serve one fleet.

May import: ``serving.state``, ``serving.store``, ``serving.writes`` and the runtime; never the
transports (the fleet's HTTP routes are ``transport/fleet_app``).
"""
