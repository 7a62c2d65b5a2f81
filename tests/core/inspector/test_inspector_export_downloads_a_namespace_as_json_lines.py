"""``/export/<namespace>`` downloads the store's JSON Lines export of that namespace (memories
and history), which imports into another store as it was."""

import json

from tests.core.inspector_client import browser, new_store


def test_the_download_is_the_stores_export(tmp_path):
    store = new_store()
    store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    store.put(("users", "alice"), "tea", {"text": "Alice likes green tea"})
    store.put(("users", "bob"), "dog", {"text": "Bob has a dog"})
    client, _ = browser(store)

    answer = client.get("/export/users/alice")

    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/jsonl")
    assert answer.headers["content-disposition"] == (
        'attachment; filename="memvault-users-alice.jsonl"'
    )
    lines = [json.loads(line) for line in answer.text.splitlines()]
    items = [line for line in lines if line.get("kind") != "history"]
    assert [(i["key"], i["value"]["text"]) for i in items] == [("tea", "Alice likes green tea")]
    assert [h["event"] for h in lines if h.get("kind") == "history"] == ["add", "update"]
    (tmp_path / "alice.jsonl").write_bytes(answer.content)
    other = new_store()
    assert other.import_jsonl(tmp_path / "alice.jsonl") == 1
    assert other.get(("users", "alice"), "tea").text == "Alice likes green tea"
