"""The gate: replay the timeline on a copy of the initial state and give each plan its verdict."""
