"""A LangGraph store put (``runtime.store``, ``create_agent(..., store=...)``) is a direct write:
its memory's provenance is ``"api"`` in no session, so an ``AgentMemory`` over the same store
trusts it by default."""

from langchain_memvault import MemvaultLangGraphStore

from memvault.model import Provenance
from tests.langchain.fakes import small_store


def test_a_graph_store_put_is_an_api_write():
    core = small_store()
    MemvaultLangGraphStore(core).put(("users", "ada"), "tea", {"text": "Ada drinks green tea"})
    (item,) = core.search(("users", "ada"))
    assert item.provenance == Provenance("api", None)
