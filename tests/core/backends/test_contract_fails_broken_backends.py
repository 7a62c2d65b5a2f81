"""The backend contract is no rubber stamp: backends broken on purpose fail the tests that
check what they break (run by pytest in a subprocess, on the in-memory backend)."""

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree

import pytest

pytestmark = pytest.mark.slow  # pytest in subprocesses: once, on the main Python (.ci/run)

BROKEN = '''
import dataclasses

from memvault import InMemoryBackend
from memvault.model import Validity
from memvault.testing import BackendTests

EVERY = Validity(since=0.0)  # admits every record, closed ones too


class DotProduct(InMemoryBackend):
    """Scores by dot product with the query as given, not by cosine."""

    def dense(self, prefix, *, embedding, clauses, now, valid, limit):
        norm = sum(x * x for x in embedding) ** 0.5
        hits = super().dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        return [(i, s * norm) for i, s in hits]


class NewCreatedAt(InMemoryBackend):
    """Forgets the created_at of the version it replaces."""

    def upsert(self, records, embeddings, *, now, change):
        self.delete([r.id for r in records], now=now, source=change.source)
        return super().upsert(records, embeddings, now=now, change=change)


class ForgetsImportedHistory(InMemoryBackend):
    """Drops the history an import carries."""

    def upsert(self, records, embeddings, *, now, change):
        change = dataclasses.replace(change, imported_history=())
        return super().upsert(records, embeddings, now=now, change=change)


class IgnoresExpected(InMemoryBackend):
    """Declares compare-and-set but writes and deletes whatever is stored."""

    def upsert(self, records, embeddings, *, now, change):
        change = dataclasses.replace(change, expected=())
        return super().upsert(records, embeddings, now=now, change=change)

    def delete(self, ids, *, now, source, expected=(), erase=False):
        super().delete(ids, now=now, source=source, erase=erase)


class CountsExpired(InMemoryBackend):
    """Counts expired records too."""

    def count(self, prefix, *, now):
        return sum(1 for _ in self.scan(prefix, now=None))


class TiesInReverse(InMemoryBackend):
    """Orders records updated at the same time by descending id."""

    def recent(self, prefix, *, clauses, now, valid, limit, offset=0):
        found = super().recent(prefix, clauses=clauses, now=now, valid=valid, limit=10**6)
        found.sort(key=lambda r: (-r.updated_at, [-ord(c) for c in r.id]))
        return found[offset : offset + limit]


class StringPrefix(InMemoryBackend):
    """Lists namespaces by string prefix: ("u", "a") also covers ("u", "ab")."""

    def namespaces(self, prefix, *, now):
        every = super().namespaces((), now=now)
        return [ns for ns in every if "/".join(ns).startswith("/".join(prefix))]


class BothRankingsUnfiltered(InMemoryBackend):
    """Fetches both rankings at once, but forgets the filter of the lexical one."""

    def both_rankings(self, query, prefix, *, embedding, clauses, now, valid, limit):
        dense = self.dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        return dense, self.lexical(query, prefix, clauses=[], now=now, valid=valid, limit=limit)


class DenseRecordsUnfiltered(InMemoryBackend):
    """Reads the dense ranking with its records, but forgets the filter."""

    def dense_records(self, prefix, *, embedding, clauses, now, valid, limit):
        return super().dense_records(
            prefix, embedding=embedding, clauses=[], now=now, valid=valid, limit=limit
        )


class IgnoresValidity(InMemoryBackend):
    """Reads every record whatever its validity: closed ones too."""

    def recent(self, prefix, *, clauses, now, valid, limit, offset=0):
        return super().recent(
            prefix, clauses=clauses, now=now, valid=EVERY, limit=limit, offset=offset
        )

    def dense(self, prefix, *, embedding, clauses, now, valid, limit):
        return super().dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=EVERY, limit=limit
        )

    def dense_records(self, prefix, *, embedding, clauses, now, valid, limit):
        return super().dense_records(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=EVERY, limit=limit
        )

    def lexical(self, query, prefix, *, clauses, now, valid, limit):
        return super().lexical(query, prefix, clauses=clauses, now=now, valid=EVERY, limit=limit)

    def both_rankings(self, query, prefix, *, embedding, clauses, now, valid, limit):
        return super().both_rankings(
            query, prefix, embedding=embedding, clauses=clauses, now=now, valid=EVERY, limit=limit
        )


class ValidityAfterLimit(InMemoryBackend):
    """Takes the dense top ``limit`` first and drops the records ``valid`` leaves out after."""

    def dense(self, prefix, *, embedding, clauses, now, valid, limit):
        hits = super().dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=EVERY, limit=limit
        )
        records = self.get([i for i, _ in hits])
        return [hit for hit, record in zip(hits, records) if record.holds(valid)]


class ErasesLikeADelete(InMemoryBackend):
    """Erases as a plain delete does: the history keeps every value it held."""

    def delete(self, ids, *, now, source, expected=(), erase=False):
        super().delete(ids, now=now, source=source, expected=expected)


class TestDotProduct(BackendTests):
    def make_backend(self):
        return DotProduct()


class TestNewCreatedAt(BackendTests):
    def make_backend(self):
        return NewCreatedAt()


class TestCountsExpired(BackendTests):
    def make_backend(self):
        return CountsExpired()


class TestTiesInReverse(BackendTests):
    def make_backend(self):
        return TiesInReverse()


class TestStringPrefix(BackendTests):
    def make_backend(self):
        return StringPrefix()


class TestForgetsImportedHistory(BackendTests):
    def make_backend(self):
        return ForgetsImportedHistory()


class TestIgnoresExpected(BackendTests):
    def make_backend(self):
        return IgnoresExpected()


class TestBothRankingsUnfiltered(BackendTests):
    def make_backend(self):
        return BothRankingsUnfiltered()


class TestDenseRecordsUnfiltered(BackendTests):
    def make_backend(self):
        return DenseRecordsUnfiltered()


class TestIgnoresValidity(BackendTests):
    def make_backend(self):
        return IgnoresValidity()


class TestValidityAfterLimit(BackendTests):
    def make_backend(self):
        return ValidityAfterLimit()


class TestErasesLikeADelete(BackendTests):
    def make_backend(self):
        return ErasesLikeADelete()
'''

EXPECTED = {  # tests each broken backend must fail
    "TestDotProduct": {"test_dense_scores_are_cosine_similarities"},
    "TestNewCreatedAt": {
        "test_upsert_keeps_created_at_of_a_version_live_at_now[never-expires]",
        "test_upsert_keeps_created_at_of_a_version_live_at_now[live]",
        "test_upsert_of_a_batch_replaces_and_inserts_in_order",
    },
    "TestCountsExpired": {
        "test_recent_follows_now",
        "test_count_namespaces_and_scan_follow_scope_and_expiry",
    },
    "TestTiesInReverse": {"test_recent_orders_live_matching_records_newest_first"},
    "TestStringPrefix": {"test_count_namespaces_and_scan_follow_scope_and_expiry"},
    "TestForgetsImportedHistory": {"test_imported_history_is_written_once_as_given"},
    "TestIgnoresExpected": {
        "test_upsert_checks_the_expected_versions_before_it_writes",
        "test_delete_checks_the_expected_versions_before_it_deletes",
    },
    "TestBothRankingsUnfiltered": {"test_both_rankings_are_what_dense_and_lexical_return"},
    "TestDenseRecordsUnfiltered": {"test_dense_records_are_dense_with_their_records"},
    "TestIgnoresValidity": {
        f"test_reads_return_what_the_validity_admits[{read}]"
        for read in ["recent", "dense", "dense_records", "lexical", "both_rankings", "search"]
    },
    "TestValidityAfterLimit": {"test_reads_return_what_the_validity_admits[dense]"},
    "TestErasesLikeADelete": {
        "test_erase_keeps_no_value_in_the_history",
        "test_erase_of_a_key_with_only_history_left_scrubs_it",
    },
}


@pytest.fixture(scope="module")
def failures(tmp_path_factory) -> dict[str, set[str]]:
    folder = tmp_path_factory.mktemp("broken")
    (folder / "test_broken_backends.py").write_text(textwrap.dedent(BROKEN))
    (folder / "pytest.ini").write_text("[pytest]\n")  # not the repository's settings
    report = folder / "report.xml"
    names = {name.split("[")[0] for expected in EXPECTED.values() for name in expected}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "test_broken_backends.py",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            "-k",
            " or ".join(sorted(names)),  # only the tests expected to fail somewhere
        ],
        cwd=folder,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},  # the contract needs none
        capture_output=True,
        check=False,
    )
    found: dict[str, set[str]] = {name: set() for name in EXPECTED}
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            found[case.get("classname").rsplit(".", 1)[-1]].add(case.get("name"))
    return found


@pytest.mark.parametrize("broken", sorted(EXPECTED))
def test_each_broken_backend_fails_what_it_breaks(failures, broken):
    assert EXPECTED[broken] <= failures[broken]  # (and maybe more)
