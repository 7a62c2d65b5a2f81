"""README says what `uv run pytest` runs (issue 29): the notebooks are marked slow and the
default selection leaves slow tests out, so every `uv run pytest` README shows says so in its
comment, beside the command that runs everything, as CI does."""

import importlib.util
import re
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[2]
BASH = re.compile(r"^```bash\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def marked_slow(path: Path) -> bool:
    """Whether the repository's conftest marks a test collected from ``path`` slow."""
    spec = importlib.util.spec_from_file_location("root_conftest", REPO / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    markers = []
    item = SimpleNamespace(path=path, add_marker=lambda mark: markers.append(mark.name))
    conftest.pytest_collection_modifyitems([item])
    return markers == ["slow"]


def test_readme_tells_what_the_default_run_leaves_out():
    assert "-m 'not slow'" in (REPO / "pyproject.toml").read_text()
    assert marked_slow(REPO / "notebooks" / "quickstart.ipynb")

    blocks = BASH.findall((REPO / "README.md").read_text())
    runs = [block for block in blocks if re.search(r"^uv run pytest\b", block, re.MULTILINE)]
    assert len(runs) >= 2  # Quick start and Development
    for block in runs:
        commands = {
            line.split("#")[0].strip(): line.partition("#")[2]
            for line in block.splitlines()
            if line.startswith("uv run pytest")
        }
        assert "not marked slow: no notebooks" in commands["uv run pytest"]
        assert "everything" in commands['uv run pytest -m "slow or not slow"']
