"""The HTTP transport on 127.0.0.1 answers no request whose ``Host`` or ``Origin`` names
another site (DNS rebinding: a web page the user opens cannot reach the memories)."""

import json
import urllib.error
import urllib.request

import pytest

from tests.core.mcp_http import http_server

pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")

PING = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()


def status(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=PING, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json, text/event-stream")
    for name, value in headers.items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow  # a CLI subprocess
def test_another_host_or_origin_is_refused(tmp_path):
    with http_server(tmp_path, "alice") as url:
        assert status(url, {"Host": "evil.example"}) == 421
        assert status(url, {"Origin": "http://evil.example"}) == 403
