"""``langchain-memvault`` without its ``agents`` extra imports (``import *`` included); the agent
parts then raise an ImportError naming what is missing, or the versions needed and installed."""

import json
import subprocess
import sys

WITHOUT_AGENTS = """
import json, sys
for name in ("langchain", "langgraph"):
    sys.modules[name] = None  # as if the agents extra were not installed
from langchain_memvault import *
import langchain_memvault
try:
    langchain_memvault.MemoryMiddleware
except ImportError as error:
    message = str(error)
print(json.dumps({"names": sorted(n for n in dir() if n[0].isupper()), "error": message}))
"""

TOO_OLD = """
import langgraph.store.base
del langgraph.store.base.validate_op_namespace  # as in langgraph-checkpoint < 4.3
import langchain_memvault
try:
    langchain_memvault.MemvaultLangGraphStore
except ImportError as error:
    print(error)
"""


def run(script: str) -> str:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_base_parts_import_and_agent_parts_name_the_missing_module():
    got = json.loads(run(WITHOUT_AGENTS))
    assert {"MemvaultKVStore", "MemvaultRetriever", "RememberTool"} <= set(got["names"])
    assert "MemoryMiddleware" not in got["names"]
    assert got["error"] == (
        "MemoryMiddleware needs the 'agents' extra, and 'langchain' is not installed: "
        "pip install 'langchain-memvault[agents]'"
    )


def test_too_old_agent_packages_are_named_with_the_versions_needed():
    message = run(TOO_OLD)
    assert message.startswith("MemvaultLangGraphStore cannot be imported (cannot import name")
    assert "langgraph-checkpoint<5,>=4.3" in message and "langgraph-checkpoint 4." in message
    assert message.rstrip().endswith("pip install --upgrade 'langchain-memvault[agents]'")
