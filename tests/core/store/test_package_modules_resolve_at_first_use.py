"""``import memvault`` imports none of its modules, yet each stays an attribute of its package
(``memvault.errors``, ``memvault.backends.chroma``), imported at first use, as when the package
imported them all; a name neither holds is an AttributeError."""

import json
import subprocess
import sys

import pytest

from tests.core.cli import REPO

SCRIPT = """
import json, sys
import memvault
imported = sorted(name for name in sys.modules if name.startswith("memvault."))
found = [
    memvault.errors.StoreBusyError.__name__,
    memvault.backends.chroma.ChromaBackend.__name__,
    memvault.agent.memory.AgentMemory.__name__,
    memvault.MemoryStore.__name__,
]
missing = []
for package, name in ((memvault, "nonsense"), (memvault.backends, "nonsense")):
    try:
        getattr(package, name)
    except AttributeError as error:
        missing.append(str(error))
print(json.dumps({"imported": imported, "found": found, "missing": missing}))
"""


@pytest.mark.slow
def test_modules_are_attributes_imported_at_first_use():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=REPO, check=True
    )
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["imported"] == []
    assert report["found"] == ["StoreBusyError", "ChromaBackend", "AgentMemory", "MemoryStore"]
    assert report["missing"] == [
        "module 'memvault' has no attribute 'nonsense'",
        "module 'memvault.backends' has no attribute 'nonsense'",
    ]
