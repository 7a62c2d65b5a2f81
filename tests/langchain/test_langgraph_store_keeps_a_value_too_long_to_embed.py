"""A LangGraph value of any size is kept: LangGraph's own stores take a 100 KB document, so
MemvaultLangGraphStore embeds and indexes its first ``MAX_TEXT_CHARS`` characters (what memvault
stores as a value's text) and returns the value whole from ``get`` and ``search``."""

from langchain_memvault import MemvaultLangGraphStore

from tests.langchain.fakes import small_store

DOCUMENT = {"title": "Field notes", "body": "The heron waited by the weir at dawn. " * 2700}


def test_a_100_kb_document_reads_back_whole_and_is_found():
    assert len(DOCUMENT["body"]) > 100_000
    store = MemvaultLangGraphStore(small_store(), index={"fields": ["body"]})
    store.put(("notes",), "heron", DOCUMENT)

    assert store.get(("notes",), "heron").value == DOCUMENT
    (found,) = store.search(("notes",), query="heron weir")
    assert found.value == DOCUMENT
