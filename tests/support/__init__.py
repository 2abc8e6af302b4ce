"""Helpers shared by the test suites.

``tests/conftest.py`` puts ``tests/`` on ``sys.path`` (pytest's default import mode), so
import them as ``from support.har_builder import HarBuilder``.
"""
