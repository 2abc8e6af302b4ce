"""Zou's Flask application for gunicorn, with its key-value store in memory (in_memory_kv)."""
import in_memory_kv  # noqa: F401  (before zou.app: patches redis)
from zou.app import create_app

application = create_app()
