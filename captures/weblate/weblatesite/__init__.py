"""Weblate's site for captures/weblate (settings.py): start.sh puts this folder on PYTHONPATH."""
