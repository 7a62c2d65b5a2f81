"""The benchmarks import matplotlib only when they draw a chart (bench/charts.py), not when
they are imported: a run that writes no chart never pays for it."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

pytestmark = pytest.mark.slow  # a fresh interpreter


def test_importing_the_chart_module_and_a_benchmark_leaves_matplotlib_unimported():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import charts, speed; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(BENCH)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
