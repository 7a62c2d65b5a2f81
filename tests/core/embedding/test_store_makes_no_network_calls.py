"""Opening a store, embedding, writing and searching make no network call (no DNS lookup, no
connection), in a fresh process with the default embedder and Chroma backend."""

import json
import os
import subprocess
import sys

SCRIPT = """
import json, socket, sys
calls = []
real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo
def connect(self, address):
    if self.family != socket.AF_UNIX:
        calls.append(["connect", repr(address)])
    return real_connect(self, address)
def getaddrinfo(host, *args, **kwargs):
    calls.append(["getaddrinfo", repr(host)])
    return real_getaddrinfo(host, *args, **kwargs)
socket.socket.connect, socket.getaddrinfo = connect, getaddrinfo

from memvault import MemoryStore
store = MemoryStore(sys.argv[1])
store.put(("users", "alice"), "tea", {"text": "Alice drinks green tea"})
hits = store.search(("users",), query="what does alice drink?")
store.close()
print(json.dumps({"calls": calls, "top": hits[0].key}))
"""


def test_no_socket_activity(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "ORT_DISABLE_TELEMETRY")}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "store")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["top"] == "tea"
    assert report["calls"] == []
