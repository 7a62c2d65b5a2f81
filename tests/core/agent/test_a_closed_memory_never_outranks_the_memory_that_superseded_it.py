"""Where a closed memory and the memory that superseded it both come back (a question naming a
past period widens recall to what held then), the current one is ranked above, however the
search ranked them; a chain of supersedes comes back newest first."""

from datetime import datetime, timezone

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryItem, MemoryStore
from memvault.agent.recall import current_first

ALICE = ("users", "alice")
MARCH = datetime(2023, 3, 1, 12, tzinfo=timezone.utc).timestamp()
JUNE = datetime(2023, 6, 2, 12, tzinfo=timezone.utc).timestamp()


def said(text):
    return [{"role": "user", "content": text}]


def test_a_question_naming_the_old_city_still_gets_the_current_one_first():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    scope = AgentMemory(store).scope(user_id="alice")  # no model: statements kept raw
    (lisbon,) = scope.save_turns(said("I live in Lisbon, in Alfama."), timestamp=MARCH)
    (porto,) = scope.save_turns(said("I moved to Porto."), timestamp=JUNE)
    store.supersede(ALICE, lisbon.key, by=porto.key)  # a caller without a model

    query = "Did I live in Lisbon, in Alfama, in April 2023?"
    ranked = store.search(ALICE, query=query)
    assert [item.key for item in ranked] == [lisbon.key, porto.key]  # the search's order
    recalled = scope.recall(query)
    assert [(item.key, item.valid_to) for item in recalled] == [
        (porto.key, None),
        (lisbon.key, JUNE),
    ]


def item(key, successor=None):
    value = {"text": key} | ({"superseded_by": successor} if successor else {})
    return MemoryItem(
        namespace=ALICE,
        key=key,
        value=value,
        created_at=0,
        updated_at=0,
        valid_to=1 if successor else None,
    )


def test_a_chain_comes_back_newest_first_and_the_rest_keep_their_places():
    lisbon, porto, braga = item("lisbon", "porto"), item("porto", "braga"), item("braga")
    cat, dog = item("cat"), item("dog")
    ranked = [cat, lisbon, porto, dog, braga]

    assert [i.key for i in current_first(ranked)] == ["cat", "dog", "braga", "porto", "lisbon"]


def test_a_successor_not_recalled_or_in_another_namespace_leaves_the_order_as_it_is():
    lisbon, cat = item("lisbon", "porto"), item("cat")
    elsewhere = MemoryItem(
        namespace=("users", "bob"), key="porto", value={"text": "x"}, created_at=0, updated_at=0
    )
    assert current_first([lisbon, cat, elsewhere]) == [lisbon, cat, elsewhere]
