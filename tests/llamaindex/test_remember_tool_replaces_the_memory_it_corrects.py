"""``remember(text, replaces=KEY)`` closes the memory it corrects instead of overwriting it:
recall now gives the correction, recall as of before it the old memory."""

from llama_index.memory.memvault import MemvaultRetriever, MemvaultToolSpec

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from tests.llamaindex.moves import APRIL, JUNE, MARCH


def test_the_correction_holds_now_and_the_old_memory_as_of_april():
    now = [MARCH.timestamp()]
    store = MemoryStore(
        embedder=HashingEmbedder(256), backend=InMemoryBackend(), clock=lambda: now[0]
    )
    store.put(("users", "alice"), "lisbon", {"text": "I live in Lisbon."})
    now[0] = JUNE.timestamp()
    remember = MemvaultToolSpec(store, user_id="alice").to_tool_list(["remember"])[0]

    remember.call(text="I live in Porto.", replaces="lisbon")

    lisbon = store.get(("users", "alice"), "lisbon")
    assert lisbon.valid_to == JUNE.timestamp()
    porto = store.get(("users", "alice"), lisbon.value["superseded_by"])
    assert (porto.text, porto.valid_from, porto.valid_to) == ("I live in Porto.", now[0], None)
    recalled = MemvaultRetriever(store, user_id="alice").retrieve("Where do I live?")
    assert [node.node.text for node in recalled] == ["I live in Porto."]
    then = MemvaultRetriever(store, user_id="alice", as_of=APRIL).retrieve("Where do I live?")
    assert [node.node.text for node in then] == ["I live in Lisbon."]
