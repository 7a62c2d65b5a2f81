"""A batch reads the store as it was before the batch's writes, as InMemoryStore does.

LangGraph's stores run a batch's ``GetOp``, ``SearchOp`` and ``ListNamespacesOp`` first and its
``PutOp``\\ s after, the last put on a key winning; the same batches on ``InMemoryStore`` and on
``MemvaultLangGraphStore`` give the same results and leave the same items.
"""

from langgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp

from tests.langchain.langgraph_pairs import keys, paired_stores

ADA = ("docs", "ada")
BATCH = [
    PutOp(ADA, "new", {"text": "written in this batch"}),
    GetOp(ADA, "new"),
    PutOp(ADA, "old", None),  # delete
    GetOp(ADA, "old"),
    SearchOp(ADA, limit=10),
    SearchOp(("docs",), query="old", limit=10),
    ListNamespacesOp(),
    PutOp(("docs", "eve"), "twice", {"text": "first"}),
    PutOp(("docs", "eve"), "twice", {"text": "second"}),
    GetOp(ADA, "old"),
]


def plain(result):
    """A batch result as comparable data (searches without a query as sets: order differs)."""
    if result is None or isinstance(result, list) and result and isinstance(result[0], tuple):
        return result
    if isinstance(result, list):
        return sorted(keys(result))
    return (result.namespace, result.key, result.value)


def fill(store):
    store.put(ADA, "old", {"text": "an old note"})
    store.put(ADA, "kept", {"text": "a kept note"})


def test_reads_in_a_batch_do_not_see_its_writes():
    reference, ours = paired_stores()
    for store in (reference, ours):
        fill(store)
    theirs, mine = reference.batch(BATCH), ours.batch(BATCH)
    assert [plain(r) for r in mine] == [plain(r) for r in theirs]
    assert mine[1] is None and mine[3].value == {"text": "an old note"}
    assert [i.key for i in mine[5]] == [i.key for i in theirs[5]]  # ranked: same order
    for store in (reference, ours):
        assert store.get(ADA, "new").value == {"text": "written in this batch"}
        assert store.get(ADA, "old") is None
        assert store.get(("docs", "eve"), "twice").value == {"text": "second"}


async def test_async_batches_read_before_writing_too():
    reference, ours = paired_stores()
    for store in (reference, ours):
        fill(store)
    theirs, mine = await reference.abatch(BATCH), await ours.abatch(BATCH)
    assert [plain(r) for r in mine] == [plain(r) for r in theirs]
