"""`-n ''` (an empty shell variable) is refused by every command, as `ingest -n ''` is, instead
of reaching every namespace; leaving the option out still reaches them all."""

import pytest

from memvault import MemoryStore
from tests.core.cli import cli

EMPTY = "error: namespace segment 0 is empty in ('',)"


@pytest.mark.parametrize(
    "args",
    [
        ("ingest", "chat.json", "-n", ""),
        ("search", "tea", "-n", ""),
        ("list", "-n", ""),
        ("export", "out.jsonl", "-n", ""),
        ("namespaces", "--prefix", ""),
    ],
    ids=lambda args: args[0],
)
def test_an_empty_namespace_is_refused(tmp_path, args):
    store = tmp_path / "store"
    with MemoryStore(store) as opened:
        opened.put(("users", "alice"), "tea", {"text": "Alice drinks tea"})
    (tmp_path / "chat.json").write_text('[{"role": "user", "content": "I drink tea."}]')
    args = tuple(str(tmp_path / a) if a.endswith((".json", ".jsonl")) else a for a in args)
    result = cli(*args, store=store, check=False)
    assert result.exit_code == 1
    assert result.stderr.startswith(EMPTY)
    assert cli("search", "tea", store=store).stdout.startswith(" 1. ")
