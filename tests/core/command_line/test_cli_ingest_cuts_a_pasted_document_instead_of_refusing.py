"""`memvault ingest` of a conversation holding a message longer than a memory may hold stores
it cut, with a marker, instead of refusing the whole file (a chat export with one pasted
document is still a conversation)."""

from memvault.items import MAX_TEXT_CHARS
from tests.core.cli import chat, cli, cli_json


def test_the_long_message_is_stored_cut_and_the_rest_whole(tmp_path):
    store = tmp_path / "store"
    document = "word " * 60_000
    file = chat(tmp_path / "chat.json", "I am a nurse.", document)
    cli("ingest", str(file), "-n", "users/ada", store=store)
    texts = [item["value"]["text"] for item in cli_json("list", "-n", "users/ada", store=store)]
    assert "I am a nurse." in texts
    (cut,) = [text for text in texts if text.startswith("word")]
    assert len(cut) <= MAX_TEXT_CHARS
    assert cut.endswith("more characters]")
