"""The record file: a local store's system of record, on SQLite.

One SQLite database (:class:`~memvault.backends.sqlite.record_file.RecordFile`) holds, per
record: its id, namespace, key, value (JSON), times, its embedding (float32, unit length), and
its words for BM25 search; an FTS5 index of those words and of the record's namespace
prefixes, which finds the records of a scope holding a query word; a table of namespaces with
their item counts and total length in words; an **outbox** of the ids whose change the vector
index has not applied yet; a **quarantine** of ids the vector index refused; ``meta`` (the
store's settings and the index generation); and the **history** of every key, which outlives
the records. :class:`~memvault.backends.local.LocalBackend` keeps its records here (under
Chroma, and in memory).

One concept a module:

- :mod:`~memvault.backends.sqlite.record_file`: the connection, its transactions and errors,
  and every operation on the file (writes with history and compare-and-set, reads);
- :mod:`~memvault.backends.sqlite.schema`: the tables, :data:`SCHEMA_VERSION
  <memvault.backends.sqlite.schema.SCHEMA_VERSION>` and the migrations;
- :mod:`~memvault.backends.sqlite.rows`: the rows of a record (item, FTS5, namespace counts)
  and of its history;
- :mod:`~memvault.backends.sqlite.terms`: a record's words as the file keeps them;
- :mod:`~memvault.backends.sqlite.outbox`: the outbox and the quarantine;
- :mod:`~memvault.backends.sqlite.search`: exact nearest neighbours and BM25 over a scope;
- :mod:`~memvault.backends.sqlite.rebuild`: filling the file anew from the index's copies;
- :mod:`~memvault.backends.sqlite.meta`: the named values of the ``meta`` table.

See ``docs/architecture.md``.
"""
