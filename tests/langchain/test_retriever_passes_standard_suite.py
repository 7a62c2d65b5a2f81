from langchain_memvault import MemvaultRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

from tests.langchain.fakes import small_store

STORE = small_store()
STORE.put_many(
    ("users", "ada"),
    [
        ("tea", {"text": "Ada drinks green tea every morning"}),
        ("city", {"text": "Ada lives in Lisbon"}),
        ("cat", {"text": "Ada has a cat called Pixel"}),
        ("job", {"text": "Ada works as a nurse"}),
    ],
)


class TestMemvaultRetriever(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[MemvaultRetriever]:
        return MemvaultRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"store": STORE, "namespace": ("users", "ada")}

    @property
    def retriever_query_example(self) -> str:
        return "what does Ada drink?"
