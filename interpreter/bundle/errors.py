"""The error any build step raises for bad input from the user (the CLI answers it with one line
and exit 2): it lives below every step, so none imports the CLI to raise it."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a bad request from the user: exit 2 with this one-line message."""
