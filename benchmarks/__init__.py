"""Benchmarks of build and serving (issue 6 item 5): commands that print figures and write
``docs/benchmarks.md``; never tests, never asserted.

    python -m benchmarks                  # every section, then writes docs/benchmarks.md
    python -m benchmarks build            # one section (build | serving | http); replaces its part of the file

Run from the repository root with the project's virtual environment.
"""
