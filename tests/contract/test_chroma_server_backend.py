"""The shared topology passes the contract: a Chroma server's collection as the system of record
(dense search only; lexical tests skip), with an in-process client standing in for a server."""

from memvault import ChromaServerBackend
from memvault.testing import BackendContract
from tests.contract.chroma import ephemeral_client, new_collection


class TestChromaServerBackend(BackendContract):
    def make_backend(self):
        return ChromaServerBackend(ephemeral_client(), collection=new_collection())
