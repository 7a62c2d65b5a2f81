"""`--version`, `-h` as well as `--help`, and help that shows flags as plain flags."""

import importlib.metadata

import pytest

from tests.core.cli import cli

COMMANDS = [
    "ingest",
    "search",
    "get",
    "list",
    "namespaces",
    "forget",
    "export",
    "import",
    "stats",
    "cleanup",
]


def test_version():
    result = cli("--version")
    assert result.stdout == f"memvault {importlib.metadata.version('memvault')}\n"


def test_no_command_shows_the_help():
    assert cli().stdout == cli("--help").stdout


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_dash_h_is_help_and_flags_take_no_value(command):
    short, long = cli(*command, "-h"), cli(*command, "--help")
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: memvault")
    assert "<bool>" not in short.stdout
    for line in short.stdout.splitlines():
        if line.strip().startswith(("--json", "--dry-run", "--version")):
            assert line.split()[1][0].isupper(), line  # the help text follows the flag


def test_cleanup_has_a_dry_run_flag_and_says_what_max_age_counts_from():
    text = " ".join(cli("cleanup", "-h").stdout.split())
    assert "--dry-run " in text and "--no-dry-run" not in text
    assert "when they were last written, or for an ingested turn when it was said" in text
