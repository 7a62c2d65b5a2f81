"""Print the scenario suite's counts after the run (each goal 0)."""

from tests.scenarios.knowledge_updates import COUNTS
from tests.scenarios.script import TALLIES


def pytest_terminal_summary(terminalreporter) -> None:
    """Write one line per framework: blocks seen and the three failure counts."""
    for framework, counts in sorted(TALLIES.items()):
        figures = ", ".join(f"{name}: {n}" for name, n in sorted(counts.items()))
        terminalreporter.write_line(f"memory scenarios through {framework}: {figures}")
    for framework, counts in sorted(COUNTS.items()):
        figures = ", ".join(f"{name}: {n}" for name, n in sorted(counts.items()))
        terminalreporter.write_line(f"knowledge updates through {framework}: {figures}")
