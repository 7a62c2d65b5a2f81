"""The default backend passes the contract when every dense search goes through Chroma's index
(``exact_scope=0``) and the index lags a few writes behind the record file (``drain_at=3``:
the outbox is applied every third write; the ids it holds are ranked exactly)."""

from memvault import ChromaBackend
from memvault.testing import BackendContract
from tests.contract.chroma import ephemeral_client, new_collection


class TestChromaBackendSearchingItsIndex(BackendContract):
    def make_backend(self):
        return ChromaBackend(
            client=ephemeral_client(), collection=new_collection(), exact_scope=0, drain_at=3
        )
