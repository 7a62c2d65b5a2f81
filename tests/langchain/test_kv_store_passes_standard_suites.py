import pytest
from langchain_memvault import MemvaultKVStore
from langchain_tests.integration_tests import BaseStoreAsyncTests, BaseStoreSyncTests

from tests.langchain.fakes import small_store

VALUES = (
    {"text": "Ada drinks green tea", "topic": "food"},
    {"text": "Ada lives in Lisbon", "topic": "home", "since": 2019},
    {"text": "Ada's cat is called Pixel", "tags": ["pets"], "note": None},
)


class TestKVStoreSyncInMemory(BaseStoreSyncTests):
    @pytest.fixture
    def kv_store(self) -> MemvaultKVStore:
        return MemvaultKVStore(small_store(), ("users", "ada", "kv"))

    @pytest.fixture
    def three_values(self) -> tuple:
        return VALUES


class TestKVStoreSyncChroma(BaseStoreSyncTests):
    @pytest.fixture
    def kv_store(self, tmp_path) -> MemvaultKVStore:
        return MemvaultKVStore(small_store(tmp_path), ("users", "ada", "kv"))

    @pytest.fixture
    def three_values(self) -> tuple:
        return VALUES


class TestKVStoreAsyncInMemory(BaseStoreAsyncTests):
    @pytest.fixture
    async def kv_store(self) -> MemvaultKVStore:
        return MemvaultKVStore(small_store(), ("users", "ada", "kv"))

    @pytest.fixture
    def three_values(self) -> tuple:
        return VALUES
