"""The environment-state view: types, initial state, the read gate (DESIGN.md §5)."""
