"""The Postgres backend passes the contract when every dense search goes through its HNSW
index (``exact_scope=0``: pgvector's iterative index scan, then ties ordered by id)."""

import pytest

from memvault.backends.postgres import PostgresBackend
from memvault.testing import BackendContract
from tests.postgres import fresh_schema


class TestPostgresBackendSearchingItsIndex(BackendContract):
    @pytest.fixture(autouse=True)
    def _server(self, postgres_dsn: str) -> None:
        self.dsn = postgres_dsn

    def make_backend(self):
        return PostgresBackend(self.dsn, schema=fresh_schema(), exact_scope=0)
