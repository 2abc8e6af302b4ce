"""Run ``capenv serve … --http`` as a subprocess for a test: wait for the URL it prints, stop it after."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def served_process(command: list[str], env: dict[str, str], stop_timeout: float = 20
                   ) -> Iterator[tuple[str, list[str]]]:
    """Start ``command``; yield (the base URL it announces, the lines it printed until then)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines, base_url = [], None
        for line in process.stdout:  # the server prints its URLs once it accepts connections
            lines.append(line)
            if line.startswith("capenv serving on "):
                base_url = line.split()[-1]
                break
        assert base_url, "".join(lines) + process.stderr.read()
        yield base_url, lines
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(stop_timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
