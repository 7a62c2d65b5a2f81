"""`memvault stats` counts each memory once, in its own namespace, also when namespaces nest."""

from tests.core.cli import chat, cli, cli_json

CONVERSATIONS = {
    "users": ["The team meets on Mondays."],
    "users/lena": ["I work as a nurse.", "I live in Graz."],
    "users/lena/x/y": ["I like rye bread."],
}


def test_nested_namespaces_are_not_summed_into_their_parents(tmp_path):
    store = tmp_path / "store"
    for number, (namespace, texts) in enumerate(CONVERSATIONS.items()):
        file = chat(tmp_path / f"chat{number}.json", *texts)
        cli("ingest", str(file), "-n", namespace, store=store)

    stats = cli_json("stats", store=store)
    assert stats["memories"] == 4
    assert stats["namespaces"] == {"users": 1, "users/lena": 2, "users/lena/x/y": 1}
    assert cli("stats", store=store).stdout.startswith("4 memories in 3 namespaces\n")
