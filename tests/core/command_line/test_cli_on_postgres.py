"""``memvault --dsn URI`` keeps the store in a PostgreSQL database: ingest, search, get,
history, stats, export and import work as on a folder; ``--schema`` keeps a store apart in its
own schema, and a read of a schema without a store is an error that creates nothing; an option
on the command line wins over the other one's environment variable;
errors stay one line; a command closes its store."""

import json
import time
import uuid

import psycopg
from typer.testing import CliRunner

from memvault.cli import app
from memvault.conversations import source_id
from tests.core.cli import EXAMPLE


def _database(dsn: str) -> str:
    """A new, empty database on the server of ``dsn``; its URI."""
    name = f"cli_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return dsn.replace("/postgres?", f"/{name}?")


def _cli(dsn: str, *args: str, check: bool = True):
    result = CliRunner().invoke(app, ["--dsn", dsn, *args], prog_name="memvault")
    if check:
        assert result.exit_code == 0, result.stderr or result.exception
    return result


def test_commands_run_on_a_database(postgres_dsn, tmp_path):
    dsn = _database(postgres_dsn)
    _cli(dsn, "ingest", str(EXAMPLE), "-n", "users/alice")
    hits = json.loads(_cli(dsn, "search", "trip", "-k", "3", "--json").stdout)
    assert len(hits) == 3
    for mode in ("dense", "lexical"):
        assert json.loads(_cli(dsn, "search", "Kyoto", "--mode", mode, "--json").stdout)
    key = f"{source_id(EXAMPLE)}:1"
    first = json.loads(_cli(dsn, "get", key, "-n", "users/alice", "--json").stdout)[0]
    assert first["value"]["text"].startswith("Hi! I'm Alice.")
    assert json.loads(_cli(dsn, "history", key, "-n", "users/alice", "--json").stdout)
    stats = json.loads(_cli(dsn, "stats", "--json").stdout)
    assert stats["memories"] == 10 and stats["namespaces"] == {"users/alice": 10}
    exported = tmp_path / "out.jsonl"
    assert json.loads(_cli(dsn, "export", str(exported), "--json").stdout)["exported"] == 10
    other = _database(postgres_dsn)
    assert json.loads(_cli(other, "import", str(exported), "--json").stdout)["imported"] == 10


def test_dsn_and_path_together_are_a_one_line_usage_error(postgres_dsn, tmp_path):
    result = _cli(postgres_dsn, "stats", "--path", str(tmp_path), check=False)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: give a store folder") and "Traceback" not in (
        result.stderr + result.stdout
    )


def test_an_unreachable_database_is_one_line_error(tmp_path):
    result = _cli(f"postgresql://postgres@/postgres?host={tmp_path}", "stats", check=False)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and str(tmp_path) in result.stderr


def test_an_option_on_the_command_line_wins_over_the_other_ones_variable(postgres_dsn, tmp_path):
    dsn = _database(postgres_dsn)
    folder = tmp_path / "store"
    runner = CliRunner()
    on_db = runner.invoke(
        app,
        ["--dsn", dsn, "ingest", str(EXAMPLE), "-n", "users/alice"],
        env={"MEMVAULT_PATH": str(folder)},
    )
    assert on_db.exit_code == 0, on_db.stderr
    assert not folder.exists()  # --dsn on the command line, $MEMVAULT_PATH set aside
    on_folder = runner.invoke(
        app,
        ["ingest", str(EXAMPLE), "-n", "users/alice", "--path", str(folder)],
        env={"MEMVAULT_DSN": dsn},
    )
    assert on_folder.exit_code == 0, on_folder.stderr
    assert (folder / "chroma.sqlite3").exists()  # --path on the command line, $MEMVAULT_DSN aside
    both = runner.invoke(app, ["stats"], env={"MEMVAULT_DSN": dsn, "MEMVAULT_PATH": str(folder)})
    assert both.exit_code == 2 and both.stderr.startswith("error: give a store folder")
    # Where a value came from decides, not whether it equals the variable.
    empty = tmp_path / "empty"  # the folder is chosen, and holds no store
    variables = {"MEMVAULT_DSN": dsn, "MEMVAULT_PATH": str(empty)}
    typed = runner.invoke(app, ["stats", "--path", str(empty)], env=variables)
    assert typed.exit_code == 1 and typed.stderr.startswith(f"error: no memvault store at {empty}")
    twice = runner.invoke(
        app, ["--dsn", dsn, "stats", "--path", str(folder)], env={"MEMVAULT_PATH": str(folder)}
    )
    assert twice.exit_code == 2 and twice.stderr.startswith("error: give a store folder")


def test_an_empty_dsn_on_the_command_line_is_refused(tmp_path):
    result = CliRunner().invoke(app, ["--dsn", "", "stats", "--path", str(tmp_path)])
    assert result.exit_code == 2 and "--dsn" in result.stderr and "is empty" in result.stderr


def test_a_command_leaves_no_connection_open(postgres_dsn):
    dsn = _database(postgres_dsn)
    _cli(dsn, "ingest", str(EXAMPLE), "-n", "users/alice")
    _cli(dsn, "search", "trip")
    # A closed connection's server process leaves pg_stat_activity as it exits, a moment after
    # the client has closed: a connection still listed 5 s later is one left open.
    deadline = time.monotonic() + 5.0
    with psycopg.connect(postgres_dsn) as admin:
        while True:
            (open_connections,) = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                (psycopg.conninfo.conninfo_to_dict(dsn)["dbname"],),
            ).fetchone()
            if open_connections == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    assert open_connections == 0


def test_schema_keeps_a_store_apart_in_one_database(postgres_dsn):
    dsn = _database(postgres_dsn)
    _cli(dsn, "--schema", "team_a", "ingest", str(EXAMPLE), "-n", "users/alice")
    assert json.loads(_cli(dsn, "--schema", "team_a", "stats", "--json").stdout)["memories"] == 10
    missing = _cli(dsn, "--schema", "team_b", "search", "tea", check=False)  # a typo
    assert missing.exit_code == 1 and missing.stderr.startswith("error: no memvault store")
    with psycopg.connect(dsn) as connection:
        (rows,) = connection.execute("SELECT count(*) FROM team_a.items").fetchone()
        (made,) = connection.execute(
            "SELECT count(*) FROM pg_namespace WHERE nspname IN ('team_b', 'memvault')"
        ).fetchone()
    assert rows == 10 and made == 0  # the read of team_b made no empty store


def test_a_bad_schema_or_one_without_a_dsn_is_one_line_error(postgres_dsn, tmp_path):
    bad = _cli(postgres_dsn, "--schema", "Team A", "stats", check=False)
    assert bad.exit_code == 2 and "schema must be" in bad.stderr  # a usage error
    alone = CliRunner().invoke(
        app, ["--schema", "team_a", "stats", "--path", str(tmp_path)], prog_name="memvault"
    )
    assert alone.exit_code == 2 and "--dsn" in alone.stderr
    assert "Traceback" not in bad.stderr + alone.stderr
