"""The YAML rule tables (package data)."""
