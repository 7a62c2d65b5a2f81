"""The Postgres topology: one PostgreSQL database, the system of record of every machine.

Any number of processes on any number of machines share it; nothing is kept beside it.

One schema (``memvault`` by default) holds three tables, written together in one transaction
per write:

- ``items``: per record its id (the JSON array of namespace and key, see
  :func:`~memvault.backends.base.record_id`), ``ns`` (the namespace as
  :func:`~memvault.model.ns_key` spells it, so that a namespace prefix is a range of one
  B-tree index, collation ``"C"``), the value (``json``: kept as written, so ``1e+20`` reads
  back as a float; ``jsonb`` would rewrite it as an integer), ``created``, ``updated``,
  ``expires``, ``valid_from`` and ``valid_to`` (Unix seconds, ``double precision``; a
  ``valid_to`` of ``NULL`` still holds, see :class:`~memvault.model.Validity`), ``origin``
  and ``session`` (its :class:`~memvault.model.Provenance`; ``NULL``: ``"api"``), the
  embedding (pgvector ``vector(dim)`` at unit length, an HNSW index with cosine distance) and
  ``words`` (a ``tsvector`` with a GIN index); its ``ns`` index carries ``expires`` and
  ``length``, so a scope is counted and its mean length read from the index alone, and a
  record stays whole in its row up to 8 kB;
- ``history``: one row per change to a key (record id, time, event, source, value before and
  after), kept after the record is deleted (:mod:`memvault.history`);
- ``meta``: the schema version
  (:data:`~memvault.backends.postgres.schema.SCHEMA_VERSION`), the embedding dimension and the
  store's settings (embedder name, dimension, fingerprint; checked by the store at open).

**Lexical search** ranks by Okapi BM25 as every backend does (:func:`memvault.lexical.bm25`,
here computed in SQL in one query): the records holding any query word are matched record by
record in a scope of up to ``exact_scope`` records, and found by the GIN index of ``words`` in a
larger one. The statistics are the record file's, those of the **searched scope**: how many
records are stored under the prefix and their mean length in words (expired records not yet
cleaned up included, read from the ``ns`` index alone), and how many live ones hold each
query word; the contract checks every backend's scores against one plain computation
(:func:`memvault.testing.oracle.bm25_score`). Its words are memvault's own
(:func:`~memvault.lexical.terms_of`, :func:`~memvault.lexical.query_terms`), as the record
file's, so it finds exactly the records the local backends find. Its cost follows the
records that hold a query word, plus one count of the scope (``bench/postgres.py`` measures
it; figures in ``bench/README.md``).

**Dense search** ranks a scope of at most ``exact_scope`` live records
(:data:`~memvault.backends.postgres.statements.EXACT_SCOPE`)
exactly (a sequential scan by the ``ns`` index, ties by id); a larger scope asks the HNSW
index (pgvector's iterative scan, so filters do not starve it) and is approximate, as a
local store's Chroma index is.

**Hybrid search** (:meth:`PostgresBackend.search
<memvault.backends.postgres.backend.PostgresBackend.search>`): one SQL statement, one round trip,
returns the dense and the BM25 ranking (the dense one counting the scope by the BM25
statistics' count) with the records of their tops; the store's one fusion
(:mod:`memvault.fusion`) orders them. A dense and a lexical search are one round trip too.

**Validity**: every read keeps the records its :class:`~memvault.model.Validity` admits in
its SQL, as it keeps the live ones; a lexical search counts a word's rarity over the live
records whatever their validity (validity narrows the records returned, as a filter does).

**Erase** (``delete(..., erase=True)``): one transaction deletes the rows (the value and its
words, the store's only copies besides the history), empties ``before`` and ``after`` of
every history entry of those keys and records ``"erase"``; what the server still keeps is in
:class:`PostgresBackend`'s docstring.

**Many writers**: every write takes a transaction-level advisory lock per key (in one sorted
order, so two writers never deadlock) before it reads the versions it replaces, so two
processes writing one key are serialised by the database; readers see every committed write.
There are no lock files.

One concept a module:

- :mod:`~memvault.backends.postgres.backend`: :class:`PostgresBackend`, the class a store is
  given (re-exported here);
- :mod:`~memvault.backends.postgres.schema`: the tables, :data:`SCHEMA_VERSION
  <memvault.backends.postgres.schema.SCHEMA_VERSION>`, the migrations, the ``meta`` values,
  and the schema name's check;
- :mod:`~memvault.backends.postgres.connections`: the pool, its checks and retries, psycopg's
  errors as memvault's, and the connection string's check;
- :mod:`~memvault.backends.postgres.writes`: writes with history and compare-and-set, under
  the keys' advisory locks;
- :mod:`~memvault.backends.postgres.statements`: the SQL of the searches (dense exact or
  HNSW, BM25, hybrid with the records carried);
- :mod:`~memvault.backends.postgres.rankings`: the rows of those statements read back as
  rankings and records;
- :mod:`~memvault.backends.postgres.dialect`: filters as SQL over the ``json`` value
  (:class:`~memvault.backends.postgres.dialect.JsonSql`);
- :mod:`~memvault.backends.postgres.words`: a record's words as a ``tsvector``, a query's as a
  ``tsquery``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memvault.backends.postgres.backend import PostgresBackend

__all__ = ["PostgresBackend"]


def __getattr__(name: str) -> Any:
    """:class:`PostgresBackend`, imported at first use.

    So that its building blocks (the schema name's and the connection string's checks, which
    the command line runs before any store is opened) are imported without the backend.

    Raises:
        AttributeError: For any other name.
    """
    if name != "PostgresBackend":
        raise AttributeError(f"module 'memvault.backends.postgres' has no attribute {name!r}")
    from memvault.backends.postgres.backend import PostgresBackend

    return PostgresBackend
