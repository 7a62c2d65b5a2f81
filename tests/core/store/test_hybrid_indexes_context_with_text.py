"""A value's "context" is embedded and indexed with its text, and comes back unchanged."""

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.conversations import parse_locomo, with_context
from memvault.lexical import indexed_text

NS = ("locomo", "26")


def test_a_short_reply_is_found_by_what_it_answers():
    conversation = {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {
                "speaker": "Caroline",
                "dia_id": "D1:1",
                "text": "Did you finish the sunrise painting?",
            },
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "Yes, last Friday!"},
            {"speaker": "Caroline", "dia_id": "D1:3", "text": "I went hiking in the hills."},
        ],
    }
    turns = with_context(parse_locomo(conversation, source="26"))
    assert turns[1].context == (
        "1:56 pm on 8 May, 2023\n"
        "Caroline: Did you finish the sunrise painting?\n"
        "Melanie: Yes, last Friday!\n"
        "Caroline: I went hiking in the hills."
    )
    with MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64)) as store:
        store.put_many(NS, [(t.key, t.value()) for t in turns], timestamp=turns[0].timestamp)
        found = store.search(NS, query="When did Melanie finish the sunrise painting?", limit=2)
        assert "D1:2" in {hit.value["turn_id"] for hit in found}
        reply = store.get(NS, "26:D1:2")
        assert reply.text == "Yes, last Friday!"
        assert reply.value["speaker"] == "Melanie"


def test_indexed_text_is_text_then_context():
    assert indexed_text({"text": "Yes!"}) == "Yes!"
    assert indexed_text({"text": "Yes!", "context": "Did you go?"}) == "Yes!\nDid you go?"
    assert indexed_text({"text": "Yes!", "context": "  "}) == "Yes!"
    assert indexed_text({"text": "Yes!", "context": ["not", "a", "string"]}) == "Yes!"
