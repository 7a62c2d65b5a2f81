"""``memvault ui`` binds a loopback address only: another host is refused in one line naming
--allow-remote, before any store is opened; without the extra it says what to install."""

import sys

from tests.core.cli import cli


def test_another_host_is_refused(tmp_path):
    folder = tmp_path / "store"
    result = cli("ui", "--host", "0.0.0.0", "--no-browser", store=folder, check=False)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: host 0.0.0.0 is not this machine's loopback")
    assert "the inspector's token would cross the network" in result.stderr
    assert "give --allow-remote to bind 0.0.0.0 anyway" in result.stderr
    assert not folder.exists()


def test_without_the_extra_it_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "starlette", None)  # import starlette raises ImportError
    folder = tmp_path / "store"
    result = cli("ui", "--no-browser", store=folder, check=False)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the inspector needs its web packages: pip install 'memvault[ui]'\n"
    )
    assert not folder.exists()


def test_a_port_out_of_range_is_a_usage_error(tmp_path):
    result = cli("ui", "--port", "70000", store=tmp_path, check=False)
    assert result.exit_code == 2
    assert "--port" in result.stderr
