"""tests/agent_session uses ``valid_arguments`` of tests/writes_serving."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "writes_serving"))
