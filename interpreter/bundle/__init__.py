"""The hand-over between the build side and serving: the bundle's models, its exact JSON codec and
I/O, and the little both sides must compute alike (op parameters and names, paths, JSON values at
a locator, insert order, the slug and text functions, the user's-error type), and the JSON Schema
subset serving checks in plain Python before its validator (``schema_precheck``).

May import: nothing of capenv but ``manifest/models.py`` (the manifest the bundle carries).
Everything imports it; serving imports nothing else of the build side.
"""
