"""Serving ops: what a plan's field rules run at serving time, registered by name."""
