"""Hold every style of the convention matrix and print one line each and the totals:
``.venv/bin/python tests/generality/run_matrix.py [--seed N] [NAME-SUBSTRING…]`` (another seed
draws another pairwise sample)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from generality.matrix import SEED, styles  # noqa: E402
from generality.matrix_hold import hold_style  # noqa: E402


def main(argv: list[str]) -> int:
    seed = SEED
    if argv[:1] == ["--seed"]:
        seed, argv = int(argv[1]), argv[2:]
    wanted = [c for c in styles(seed) if not argv or any(a in c.name for a in argv)]
    outcomes = []
    for conventions in wanted:
        with tempfile.TemporaryDirectory() as folder:
            outcome = hold_style(conventions, Path(folder))
        print(outcome.line(), flush=True)
        outcomes.append(outcome)
    crashed = sum(1 for o in outcomes if o.crash)
    wrong = sum(1 for o in outcomes if o.wrong)
    served = sum(len(o.served) for o in outcomes)
    print(f"{len(outcomes)} styles: {crashed} crashing, {wrong} answering wrongly "
          f"({sum(len(o.wrong) for o in outcomes)} wrong probes), "
          f"write tools served {served}/{sum(o.tools for o in outcomes)}")
    return 1 if crashed or wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
