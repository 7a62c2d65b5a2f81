"""The default backend with its Chroma index on an in-process client passes the contract:
small scopes are ranked exactly from the record file, the index catches up at close."""

from memvault import ChromaBackend
from memvault.testing import BackendContract
from tests.contract.chroma import ephemeral_client, new_collection


class TestChromaBackend(BackendContract):
    def make_backend(self):
        return ChromaBackend(client=ephemeral_client(), collection=new_collection())
