"""The real embedded default passes the contract: a store folder with its SQLite record file,
an embedded Chroma (``PersistentClient``) and the folder's file lock, a new folder per backend.

Opening and closing a folder costs about 0.3 s, so the state machine runs 25 examples here
instead of 200 (the same rules run 200 times on the other Chroma backends)."""

from hypothesis import settings

from memvault import ChromaBackend
from memvault.testing import BackendContract


class TestChromaBackendInAFolder(BackendContract):
    state_machine_settings = settings(BackendContract.state_machine_settings, max_examples=25)

    def make_backend(self):
        return ChromaBackend(self.fresh_folder())
