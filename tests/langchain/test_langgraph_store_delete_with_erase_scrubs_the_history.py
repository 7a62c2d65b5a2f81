"""MemvaultLangGraphStore.delete(..., erase=True) removes the item's text from its history; a
LangGraph delete keeps it there, as memvault's own delete does."""

import pytest
from langchain_memvault import MemvaultLangGraphStore
from langgraph.store.base import InvalidNamespaceError

from memvault import InvalidArgumentError
from tests.langchain.fakes import small_store

NOTES = ("notes", "ada")
VALUE = {"text": "Ada's blood type is AB negative."}


@pytest.fixture
def core():
    return small_store()


async def test_erase_keeps_the_events_without_their_values(core):
    store = MemvaultLangGraphStore(core)
    store.put(NOTES, "blood", VALUE)
    store.delete(NOTES, "blood", erase=True)
    await store.aput(NOTES, "again", VALUE)
    await store.adelete(NOTES, "again", erase=True)

    for key in ("blood", "again"):
        assert store.get(NOTES, key) is None
        history = core.history(NOTES, key)
        assert [entry.event for entry in history] == ["add", "erase"]
        assert all(entry.before is None and entry.after is None for entry in history)


async def test_a_plain_delete_keeps_the_text_in_the_history(core):
    store = MemvaultLangGraphStore(core)
    store.put(NOTES, "blood", VALUE)
    store.delete(NOTES, "blood")
    await store.aput(NOTES, "again", VALUE)
    await store.adelete(NOTES, "again", erase=False)
    for key in ("blood", "again"):
        assert core.history(NOTES, key)[-1].event == "delete"
        assert "AB negative" in repr(core.history(NOTES, key))


def test_erase_checks_labels_and_its_flag(core):
    store = MemvaultLangGraphStore(core)
    with pytest.raises(InvalidNamespaceError):
        store.delete(("notes", "a.b"), "blood", erase=True)
    with pytest.raises(InvalidArgumentError, match="erase"):
        store.delete(NOTES, "blood", erase="yes")
