"""An edit the store would refuse (empty text, a NUL, over 32,000 characters) is refused by the
inspector's own form check, in words naming the form's field ("field 'text': ..."), not the
store's internal ones (``items[0] value["text"]``), and writes nothing."""

import pytest

from tests.core.inspector_client import browser, new_store, submit, texts

ALICE = ("users", "alice")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "field 'text' is empty"),
        ("  \r\n ", "field 'text' is empty"),
        ("green\x00tea", "field 'text' holds U+0000 (NUL)"),
        ("y" * 32_001, "field 'text' has 32,001 characters, more than the 32,000"),
    ],
    ids=["empty", "blank", "nul", "too long"],
)
def test_a_refused_edit_names_the_field(text, words):
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes tea"})
    client, secrets = browser(store)
    shown_at = repr(store.get(ALICE, "tea").updated_at)

    answer = submit(client, secrets, "/edit/users/alice/tea", text=text, updated_at=shown_at)

    assert answer.status_code == 400
    (message,) = texts(answer.text, "error-message")
    assert message.startswith(f"400: {words}")
    assert "items[0]" not in message and 'value["text"]' not in message
    assert store.get(ALICE, "tea").text == "Alice likes tea"
