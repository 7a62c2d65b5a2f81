from llama_index.core.schema import MetadataMode, NodeWithScore
from llama_index.memory.memvault import MemvaultRetriever

from memvault import AgentMemory


def _seed(store):
    store.put(
        ("users", "alice"), "allergy", {"text": "The user is allergic to peanuts.", "kind": "fact"}
    )
    store.put(("users", "alice"), "city", {"text": "The user lives in Porto.", "kind": "fact"})
    store.put(("users", "bob"), "allergy", {"text": "The user is allergic to peanuts too."})


def test_nodes_come_best_first_with_ids_scores_and_metadata(store):
    _seed(store)
    nodes = MemvaultRetriever(store, user_id="alice", similarity_top_k=2).retrieve(
        "peanuts allergy"
    )

    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == ["users/alice/allergy", "users/alice/city"]
    assert nodes[0].score > nodes[1].score
    first = nodes[0].node
    assert first.get_content() == "The user is allergic to peanuts."
    assert first.get_content(metadata_mode=MetadataMode.LLM) == "The user is allergic to peanuts."
    assert first.metadata["kind"] == "fact" and first.metadata["namespace"] == "users/alice"
    assert first.metadata["created_at"] > 1.7e9
    assert first.metadata["score_type"] == "hybrid"  # the store's default search is hybrid


def test_recall_says_each_thing_once(store):
    _seed(store)
    store.put(("users", "alice"), "again", {"text": "the user is ALLERGIC to peanuts!"})
    memory = AgentMemory(store, k=5)

    nodes = MemvaultRetriever(memory, user_id="alice").retrieve("peanuts allergy")

    ids = [n.node.node_id for n in nodes]
    # The two wordings rank alike (ties go by id); one of them is said, once.
    assert ids in (
        ["users/alice/allergy", "users/alice/city"],
        ["users/alice/again", "users/alice/city"],
    )


async def test_async_retrieval_and_filters_stay_in_the_namespace(store):
    _seed(store)
    retriever = MemvaultRetriever(store, user_id="bob", filter={"kind": "fact"})
    assert await retriever.aretrieve("peanuts") == []

    nodes = await MemvaultRetriever(store, user_id="bob").aretrieve("peanuts")
    assert [n.node.node_id for n in nodes] == ["users/bob/allergy"]
