"""``memvault ui --port 0 --no-browser`` in a fresh process prints one URL with a token, on
127.0.0.1 and the port it picked; that URL signs a browser in (a cookie) and serves the
store's namespaces, and the same address without the token is refused."""

import http.cookiejar
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from memvault import MemoryStore
from tests.core.cli import REPO

pytest.importorskip("starlette", reason="needs the extra memvault[ui]")


@pytest.mark.slow  # a CLI subprocess, and the default embedder to write the store
def test_the_printed_url_serves_the_store(tmp_path):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    command = [sys.executable, "-m", "memvault", "ui", "--port", "0", "--no-browser"]
    server = subprocess.Popen(
        [*command, "--path", str(folder)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", line)
        assert found, line + server.stderr.read() if server.poll() is not None else line
        port, token = int(found.group(1)), found.group(2)
        assert port != 0 and len(token) >= 40

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(found.group(0), timeout=30) as page:
            html = page.read().decode()
            assert page.url == f"http://127.0.0.1:{port}/"  # the token left the URL
        assert 'data-namespace="users/alice"' in html
        assert [c.name for c in jar] == [f"memvault_ui_{port}"]

        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30)
        assert refused.value.code == 401
    finally:
        server.terminate()
        server.wait(timeout=30)
