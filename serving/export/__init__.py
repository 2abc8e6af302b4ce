"""Export: a self-contained environment directory (a bundle and its README) that
``capenv serve DIR`` runs with no capture at hand.

May import: the build side's ``bundle`` and ``manifest`` models, the runtime and the catalog (to
check what it wrote serves). Never the transports.
"""
