"""Every bad input to the Python API or the CLI is refused with a memvault error (one `error:`
line on stderr from the CLI, no traceback) and leaves the store as it was: its export before
equals its export after, read by a store opened anew.

Duplicate keys in an import file are refused, not resolved (an export never repeats a key, so a
repeated one means a damaged or concatenated file; the message names both lines).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from memvault import (
    AgentMemory,
    ChromaServerBackend,
    HashingEmbedder,
    MemoryStore,
    MemvaultError,
    amemory_context,
    memory_context,
)
from memvault.memory_tools import arun_memory_tool, run_memory_tool
from tests.core.bad_inputs import (
    ALICE,
    BIG,
    DEEP,
    DEEP_JSON,
    TEA,
    client_of_a_server_that_went_down,
    copy_of,
    exported,
    history_line,
    import_line,
    nested,
    open_store,
    prefilled_store,
    reopened_export,
    self_referencing,
)
from tests.core.cli import cli, memvault

LONG = "x" * 2000
TOO_LONG_TEXT = {"text": "x" * 32_001}  # one more than MAX_TEXT_CHARS
TEA_TURN = [{"role": "user", "content": "I like green tea."}]
FIVE_THOUSAND = ("a",) * 5000


@dataclass
class Context:
    """What a bad call gets: the pre-filled store, its folder and a folder for files."""

    store: MemoryStore
    folder: Path
    files: Path

    def file(self, name: str, text: str) -> Path:
        path = self.files / name
        path.write_text(text, encoding="utf-8")
        return path

    def raw(self, name: str, data: bytes) -> Path:
        path = self.files / name
        path.write_bytes(data)
        return path

    def lines(self, *lines: str) -> Path:
        return self.file("import.jsonl", "\n".join(lines) + "\n")

    def scope(self, **options):
        return AgentMemory(self.store, **options).scope(user_id="alice", thread_id="t1")


class WrongLength(HashingEmbedder):
    """Has the name and dim of HashingEmbedder(64) but returns 32 numbers per text."""

    def embed_documents(self, texts):
        return [vector[:32] for vector in super().embed_documents(texts)]


def use_after_close(c: Context):
    c.store.close()
    c.store.put(ALICE, "late", TEA)


def put_with_wrong_length_vectors(c: Context):
    c.store.close()
    MemoryStore(c.folder, embedder=WrongLength(64)).put(ALICE, "k", TEA)


def six_thousand_and_one(last_value) -> list:
    return [(f"k{n}", {"text": f"memory {n}"}) for n in range(6000)] + [("last", last_value)]


def generator_ending_badly():
    yield "fine", TEA
    yield "bad", {"text": "x", "n": float("nan")}


def run(coroutine):
    return asyncio.run(coroutine)


p = pytest.param

PYTHON_CASES = [
    # -- put: namespaces ---------------------------------------------------------------------
    p(lambda c: c.store.put("users", "k", TEA), id="put namespace is a str"),
    p(lambda c: c.store.put((), "k", TEA), id="put namespace is empty"),
    p(lambda c: c.store.put(("users", ""), "k", TEA), id="put namespace has an empty segment"),
    p(lambda c: c.store.put(("users", 5), "k", TEA), id="put namespace segment is an int"),
    p(lambda c: c.store.put(FIVE_THOUSAND, "k", TEA), id="put namespace of 5,000 segments"),
    p(lambda c: c.store.put(("a",) * 33, "k", TEA), id="put namespace of 33 segments"),
    p(lambda c: c.store.put(("u", "s" * 300), "k", TEA), id="put namespace segment of 300 chars"),
    p(lambda c: c.store.put(("users", "a\udc00"), "k", TEA), id="put namespace lone surrogate"),
    p(lambda c: c.store.put(("users", "a\x00"), "k", TEA), id="put namespace NUL"),
    p(lambda c: c.store.put(None, "k", TEA), id="put namespace None"),
    # -- put: keys ---------------------------------------------------------------------------
    p(lambda c: c.store.put(ALICE, None, TEA), id="put key None"),
    p(lambda c: c.store.put(ALICE, "", TEA), id="put key empty"),
    p(lambda c: c.store.put(ALICE, 5, TEA), id="put key int"),
    p(lambda c: c.store.put(ALICE, "k\udc00", TEA), id="put key lone surrogate"),
    p(lambda c: c.store.put(ALICE, "k\x00", TEA), id="put key NUL"),
    p(lambda c: c.store.put(ALICE, LONG, TEA), id="put key of 2,000 chars"),
    # -- put: values -------------------------------------------------------------------------
    p(lambda c: c.store.put(ALICE, "k", None), id="put value None"),
    p(lambda c: c.store.put(ALICE, "k", "Alice drinks tea"), id="put value str"),
    p(lambda c: c.store.put(ALICE, "k", {}), id="put value without text"),
    p(lambda c: c.store.put(ALICE, "k", {"text": "  "}), id="put value blank text"),
    p(lambda c: c.store.put(ALICE, "k", {"text": 5}), id="put value text int"),
    p(lambda c: c.store.put(ALICE, "k", {"text": "a\udc00"}), id="put value text lone surrogate"),
    p(lambda c: c.store.put(ALICE, "k", {"text": "a\x00b"}), id="put value text NUL"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "tags": ["x\x00"]}), id="put value list NUL"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "a\x00": 1}), id="put value key NUL"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": float("nan")}), id="put value NaN"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": float("inf")}), id="put value infinity"),
    p(
        lambda c: c.store.put(ALICE, "k", {**TEA, "a": [0, {"b": float("-inf")}]}),
        id="put value nested -infinity",
    ),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": BIG}), id="put value 401-digit int"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": 2**63}), id="put value int 2**63"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": -(2**63) - 1}), id="put value int -2**63-1"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "n": [BIG]}), id="put value nested big int"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "deep": DEEP}), id="put value nested 5,000 deep"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "d": nested(32)}), id="put value nested 33 deep"),
    p(lambda c: c.store.put(ALICE, "k", {"text": DEEP}), id="put value text nested 5,000 deep"),
    p(lambda c: c.store.put(ALICE, "k", {"text": "x" * 5_000_000}), id="put value text of 5 MB"),
    p(lambda c: c.store.put(ALICE, "tea", TOO_LONG_TEXT), id="put overwrite with 32,001 chars"),
    p(lambda c: c.store.put(ALICE, "k", self_referencing()), id="put value refers to itself"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "t": (1, 2)}), id="put value tuple"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "s": {1}}), id="put value set"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "o": object()}), id="put value object"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "b": b"x"}), id="put value bytes"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, 1: "x"}), id="put value int key"),
    p(lambda c: c.store.put(ALICE, "k", {**TEA, "k\ud800": 1}), id="put value key lone surrogate"),
    p(
        lambda c: c.store.put(ALICE, "k", {**TEA, "m": {"a\udc00": 1}}),
        id="put value nested key lone surrogate",
    ),
    p(
        lambda c: c.store.put(ALICE, "k", {**TEA, **{f"f{i}": i for i in range(5000)}}),
        id="put value with 5,000 fields",
    ),
    # -- put: ttl ----------------------------------------------------------------------------
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=0), id="put ttl 0"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=-1), id="put ttl negative"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=float("nan")), id="put ttl NaN"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=float("inf")), id="put ttl infinity"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl="60"), id="put ttl str"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=True), id="put ttl bool"),
    p(lambda c: c.store.put(ALICE, "k", TEA, ttl=9.999e11), id="put ttl beyond MAX_TTL"),
    # -- put_many ----------------------------------------------------------------------------
    p(lambda c: c.store.put_many(ALICE, None), id="put_many None"),
    p(lambda c: c.store.put_many(ALICE, [("k",)]), id="put_many 1-tuple"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA, 1)]), id="put_many 3-tuple"),
    p(lambda c: c.store.put_many(ALICE, 5), id="put_many int"),
    p(lambda c: c.store.put_many(ALICE, [None]), id="put_many [None]"),
    p(lambda c: c.store.put_many(ALICE, {"k": TEA}), id="put_many dict"),
    p(lambda c: c.store.put_many(ALICE, ["ab"]), id="put_many str item"),
    p(
        lambda c: c.store.put_many(ALICE, six_thousand_and_one({"text": "x", "n": BIG})),
        id="put_many 6,001 items last with 401-digit int",
    ),
    p(
        lambda c: c.store.put_many(ALICE, six_thousand_and_one({"text": "x", "deep": DEEP})),
        id="put_many 6,001 items last nested 5,000 deep",
    ),
    p(lambda c: c.store.put_many(ALICE, generator_ending_badly()), id="put_many generator"),
    p(
        lambda c: c.store.put_many(ALICE, [("a", TEA), ("b", TOO_LONG_TEXT)]),
        id="put_many last text of 32,001 chars",
    ),
    p(
        lambda c: c.store.put_many(ALICE, [("a", TEA), ("tea", {"text": "x", "n": BIG})]),
        id="put_many overwrite then bad",
    ),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], timestamp=float("nan")), id="timestamp NaN"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], timestamp=-1), id="timestamp negative"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], timestamp=1e300), id="timestamp 1e300"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], timestamp="now"), id="timestamp str"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], ttl=-5), id="put_many ttl negative"),
    # -- get / delete ------------------------------------------------------------------------
    p(lambda c: c.store.get("users", "tea"), id="get namespace str"),
    p(lambda c: c.store.get(ALICE, None), id="get key None"),
    p(lambda c: c.store.get(FIVE_THOUSAND, "k"), id="get namespace of 5,000 segments"),
    p(lambda c: c.store.get(ALICE, "k\udc00"), id="get key lone surrogate"),
    p(lambda c: c.store.delete(None, "tea"), id="delete namespace None"),
    p(lambda c: c.store.delete(ALICE, 5), id="delete key int"),
    p(lambda c: c.store.delete(ALICE, LONG), id="delete key of 2,000 chars"),
    # -- history and sources -----------------------------------------------------------------
    p(lambda c: c.store.put(ALICE, "k", TEA, source=""), id="put source empty"),
    p(lambda c: c.store.put(ALICE, "k", TEA, source="API"), id="put source upper case"),
    p(lambda c: c.store.put(ALICE, "k", TEA, source=None), id="put source None"),
    p(lambda c: c.store.put(ALICE, "k", TEA, source="x" * 33), id="put source of 33 chars"),
    p(lambda c: c.store.put(ALICE, "k", TEA, source="my tool"), id="put source with a space"),
    p(lambda c: c.store.put(ALICE, "tea", TEA, event="update"), id="put event update"),
    p(lambda c: c.store.put(ALICE, "tea", TEA, event="delete"), id="put event delete"),
    p(lambda c: c.store.put_many(ALICE, [("k", TEA)], source=5), id="put_many source int"),
    p(lambda c: c.store.delete(ALICE, "tea", source="Tool"), id="delete source upper case"),
    p(lambda c: c.store.delete(ALICE, "tea", source=""), id="delete source empty"),
    p(lambda c: c.store.history("users", "tea"), id="history namespace str"),
    p(lambda c: c.store.history((), "tea"), id="history namespace empty"),
    p(lambda c: c.store.history(FIVE_THOUSAND, "tea"), id="history namespace 5,000 segments"),
    p(lambda c: c.store.history(ALICE, None), id="history key None"),
    p(lambda c: c.store.history(ALICE, LONG), id="history key of 2,000 chars"),
    p(lambda c: c.store.history(ALICE, "k\udc00"), id="history key lone surrogate"),
    p(lambda c: run(c.store.ahistory(ALICE, 5)), id="ahistory key int"),
    p(lambda c: run(c.store.aput(ALICE, "k", TEA, source="-")), id="aput source dash"),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(event="edit"))),
        id="import history event unknown",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(event="add"))),
        id="import history add with a before",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(after=None))),
        id="import history update without after",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(source="An API"))),
        id="import history source bad",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(at=-1))),
        id="import history at negative",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), history_line(namespace=[]))),
        id="import history namespace empty",
    ),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(import_line(), history_line(after={"text": "x", "n": BIG}))
        ),
        id="import history after 401-digit int",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), '{"kind": "history", "key": "tea"}')),
        id="import history line missing fields",
    ),
    # -- search ------------------------------------------------------------------------------
    p(lambda c: c.store.search("users"), id="search prefix str"),
    p(lambda c: c.store.search(FIVE_THOUSAND), id="search prefix of 5,000 segments"),
    p(lambda c: c.store.search(ALICE, query=5), id="search query int"),
    p(lambda c: c.store.search(ALICE, query=b"tea"), id="search query bytes"),
    p(lambda c: c.store.search(ALICE, query="tea\udc00"), id="search query lone surrogate"),
    p(lambda c: c.store.search(ALICE, filter={"n": float("nan")}), id="filter NaN"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$gt": float("inf")}}), id="filter $gt inf"),
    p(lambda c: c.store.search(ALICE, filter={"n": BIG}), id="filter 401-digit int"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$lt": -BIG}}), id="filter $lt -big int"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$in": [1, 2**64]}}), id="filter $in 2**64"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$gt": "3"}}), id="filter $gt str"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$regex": "x"}}), id="filter unknown op"),
    p(lambda c: c.store.search(ALICE, filter="n=1"), id="filter str"),
    p(lambda c: c.store.search(ALICE, filter={"n\udc00": 1}), id="filter field lone surrogate"),
    p(lambda c: c.store.search(ALICE, filter={"n": "a\udc00"}), id="filter operand surrogate"),
    p(lambda c: c.store.search(ALICE, filter={"n": {}}), id="filter empty condition"),
    p(lambda c: c.store.search(ALICE, filter={"n": {"$in": []}}), id="filter $in empty"),
    p(lambda c: c.store.search(ALICE, filter={"n": DEEP}), id="filter operand nested 5,000 deep"),
    p(lambda c: c.store.search(ALICE, filter={5: 1}), id="filter field int"),
    p(lambda c: c.store.search(ALICE, query="tea", limit="5"), id="search limit str"),
    p(lambda c: c.store.search(ALICE, limit=0), id="search limit 0"),
    p(lambda c: c.store.search(ALICE, limit=-1), id="search limit negative"),
    p(lambda c: c.store.search(ALICE, limit=1.5), id="search limit float"),
    p(lambda c: c.store.search(ALICE, limit=True), id="search limit bool"),
    p(lambda c: c.store.search(ALICE, limit=10**7), id="search limit 10**7"),
    p(lambda c: c.store.search(ALICE, query="tea", offset=-1), id="search offset negative"),
    p(lambda c: c.store.search(ALICE, offset="0"), id="search offset str"),
    p(lambda c: c.store.search(ALICE, offset=None), id="search offset None"),
    p(lambda c: c.store.search(ALICE, query="tea", mode="fuzzy"), id="search mode unknown"),
    p(lambda c: c.store.search(ALICE, query="tea", mode=5), id="search mode int"),
    # -- list_namespaces / count -------------------------------------------------------------
    p(lambda c: c.store.list_namespaces(prefix="users"), id="list_namespaces prefix str"),
    p(lambda c: c.store.list_namespaces(prefix=FIVE_THOUSAND), id="list_namespaces deep prefix"),
    p(lambda c: c.store.list_namespaces(suffix=5), id="list_namespaces suffix int"),
    p(lambda c: c.store.list_namespaces(max_depth=0), id="list_namespaces max_depth 0"),
    p(lambda c: c.store.list_namespaces(max_depth="2"), id="list_namespaces max_depth str"),
    p(lambda c: c.store.list_namespaces(limit=0), id="list_namespaces limit 0"),
    p(lambda c: c.store.list_namespaces(offset=-1), id="list_namespaces offset negative"),
    p(lambda c: c.store.count("users"), id="count prefix str"),
    p(lambda c: c.store.count(5), id="count prefix int"),
    p(lambda c: c.store.count(FIVE_THOUSAND), id="count prefix of 5,000 segments"),
    # -- import_jsonl ------------------------------------------------------------------------
    p(lambda c: c.store.import_jsonl(None), id="import path None"),
    p(lambda c: c.store.import_jsonl(c.files / "missing.jsonl"), id="import missing file"),
    p(lambda c: c.store.import_jsonl(c.files), id="import a folder"),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), import_line(created_at="raw:NaN"))),
        id="import created_at NaN",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(updated_at=1e300))),
        id="import updated_at 1e300",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(created_at=-1e300))),
        id="import created_at -1e300",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(expires_at="raw:Infinity"))),
        id="import expires_at Infinity",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(expires_at="raw:-Infinity"))),
        id="import expires_at -Infinity",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(created_at=-1))),
        id="import created_at negative",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(created_at="yesterday"))),
        id="import created_at str",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(created_at=True))),
        id="import created_at bool",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(value={"text": "x", "n": BIG}))),
        id="import value 401-digit int",
    ),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(import_line(value="raw:" + '{"text": "x", "n": 1' + "0" * 5000 + "}"))
        ),
        id="import value 5,001-digit int",
    ),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(import_line(value="raw:" + '{"text": "x", "deep": ' + DEEP_JSON + "}"))
        ),
        id="import value nested 5,000 deep",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(value="raw:" + '{"text": "x\\udc00"}'))),
        id="import value lone surrogate escape",
    ),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(import_line(value={"text": "x", **{f"f{i}": i for i in range(5000)}}))
        ),
        id="import value with 5,000 fields",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(namespace=list(FIVE_THOUSAND)))),
        id="import namespace of 5,000 segments",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(namespace="users"))),
        id="import namespace str",
    ),
    p(lambda c: c.store.import_jsonl(c.lines(import_line(key=LONG))), id="import key too long"),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(import_line(), import_line(key="b", value=TOO_LONG_TEXT))
        ),
        id="import text of 32,001 chars",
    ),
    p(lambda c: c.store.import_jsonl(c.lines(import_line(), "[1, 2]")), id="import line array"),
    p(lambda c: c.store.import_jsonl(c.lines(import_line(), "{bad")), id="import line not JSON"),
    p(lambda c: c.store.import_jsonl(c.lines(DEEP_JSON)), id="import line nested 5,000 deep"),
    p(
        lambda c: c.store.import_jsonl(
            c.lines(
                *[import_line(key=f"k{n}") for n in range(6000)],
                import_line(key="last", value={"text": "x", "n": BIG}),
            )
        ),
        id="import 6,001 lines last with 401-digit int",
    ),
    p(
        lambda c: c.store.import_jsonl(c.lines(import_line(), import_line())),
        id="import duplicate keys",
    ),
    p(lambda c: c.store.import_jsonl(c.raw("bin.jsonl", b"\xff\xfe\n")), id="import not UTF-8"),
    # -- export_jsonl ------------------------------------------------------------------------
    p(lambda c: c.store.export_jsonl(None), id="export path None"),
    p(lambda c: c.store.export_jsonl(1.5), id="export path float"),
    p(lambda c: c.store.export_jsonl(c.files / "no" / "x.jsonl"), id="export missing folder"),
    p(lambda c: c.store.export_jsonl(c.files), id="export to a folder"),
    p(lambda c: c.store.export_jsonl(c.files / "x.jsonl", "users"), id="export prefix str"),
    # -- cleanup / expired -------------------------------------------------------------------
    p(lambda c: c.store.cleanup(0), id="cleanup max_age 0"),
    p(lambda c: c.store.cleanup(-1), id="cleanup max_age negative"),
    p(lambda c: c.store.cleanup("1"), id="cleanup max_age str"),
    p(lambda c: c.store.cleanup(float("nan")), id="cleanup max_age NaN"),
    p(lambda c: c.store.expired(float("inf")), id="expired max_age infinity"),
    p(lambda c: c.store.expired(True), id="expired max_age bool"),
    # -- async twins -------------------------------------------------------------------------
    p(lambda c: run(c.store.aput(ALICE, "k", {**TEA, "n": BIG})), id="aput 401-digit int"),
    p(lambda c: run(c.store.aput_many(ALICE, [("k", {"text": DEEP})])), id="aput_many deep"),
    p(lambda c: run(c.store.asearch(ALICE, filter={"n": float("nan")})), id="asearch filter NaN"),
    p(lambda c: run(c.store.acount(FIVE_THOUSAND)), id="acount 5,000 segments"),
    # -- the store itself --------------------------------------------------------------------
    p(lambda c: MemoryStore(c.folder, embedder=HashingEmbedder(64), ttl=0), id="open ttl 0"),
    p(
        lambda c: MemoryStore(c.folder, embedder=HashingEmbedder(32)),
        id="open with another embedder",
    ),
    p(
        lambda c: MemoryStore(c.folder, embedder=HashingEmbedder(64), search_mode="fuzzy"),
        id="open search_mode unknown",
    ),
    p(lambda c: MemoryStore(c.files / "x.jsonl", backend=c.store.backend), id="path and backend"),
    p(use_after_close, id="put after close"),
    p(put_with_wrong_length_vectors, id="embedder returns wrong-length vectors"),
    p(
        lambda c: MemoryStore(
            backend=ChromaServerBackend(client_of_a_server_that_went_down()),
            embedder=HashingEmbedder(64),
        ),
        id="Chroma server down",
    ),
    # -- memory_context ----------------------------------------------------------------------
    p(lambda c: memory_context(c.store, 5, namespace=ALICE), id="memory_context query int"),
    p(lambda c: memory_context(5, "tea", namespace=ALICE), id="memory_context store int"),
    p(lambda c: memory_context(None, "tea", namespace=ALICE), id="memory_context store None"),
    p(lambda c: memory_context(c.store, b"tea", namespace=ALICE), id="memory_context bytes"),
    p(lambda c: memory_context(c.store, "t\udc00", namespace=ALICE), id="memory_context surrogate"),
    p(lambda c: memory_context(c.store, "tea", namespace="users"), id="memory_context ns str"),
    p(lambda c: memory_context(c.store, "tea", namespace=()), id="memory_context ns empty"),
    p(
        lambda c: memory_context(c.store, "tea", namespace=FIVE_THOUSAND),
        id="memory_context ns of 5,000 segments",
    ),
    p(lambda c: memory_context(c.store, "tea", namespace=ALICE, k=0), id="memory_context k 0"),
    p(lambda c: memory_context(c.store, "tea", namespace=ALICE, k="5"), id="memory_context k str"),
    p(
        lambda c: memory_context(c.store, "tea", namespace=ALICE, filter={"n": BIG}),
        id="memory_context filter big int",
    ),
    p(
        lambda c: memory_context(c.store, "tea", namespace=ALICE, header=5),
        id="memory_context header int",
    ),
    p(
        lambda c: run(amemory_context(c.store, "tea", namespace=ALICE, k=True)),
        id="amemory_context k bool",
    ),
    # -- AgentMemory / MemoryScope -----------------------------------------------------------
    p(lambda c: AgentMemory(5), id="AgentMemory store int"),
    p(lambda c: AgentMemory(c.store, "users"), id="AgentMemory namespace str"),
    p(lambda c: AgentMemory(c.store, FIVE_THOUSAND), id="AgentMemory namespace 5,000 segments"),
    p(lambda c: AgentMemory(c.store, k=0), id="AgentMemory k 0"),
    p(lambda c: AgentMemory(c.store, similarity_threshold=2), id="AgentMemory threshold 2"),
    p(lambda c: AgentMemory(c.store, extractor="gpt"), id="AgentMemory extractor str"),
    p(lambda c: AgentMemory(c.store, name="my memory"), id="AgentMemory name with a space"),
    p(lambda c: AgentMemory(c.store, header=5), id="AgentMemory header int"),
    p(lambda c: AgentMemory(c.store, max_memory_chars=0), id="AgentMemory max_memory_chars 0"),
    p(lambda c: AgentMemory(c.store, max_block_chars="8k"), id="AgentMemory max_block_chars str"),
    p(
        lambda c: AgentMemory.from_config({"max_block_chars": 99}),
        id="AgentMemory.from_config max_block_chars 99",
    ),
    p(lambda c: AgentMemory(c.store, ttl=-1), id="AgentMemory ttl negative"),
    p(lambda c: AgentMemory(c.store, ttl="1h"), id="AgentMemory ttl str"),
    p(lambda c: AgentMemory(c.store, background="yes"), id="AgentMemory background str"),
    p(lambda c: AgentMemory(c.store, background=1), id="AgentMemory background int"),
    p(lambda c: AgentMemory(c.store).flush(timeout=-1), id="flush timeout negative"),
    p(lambda c: AgentMemory(c.store).flush(timeout="5s"), id="flush timeout str"),
    p(lambda c: AgentMemory(c.store).flush(timeout=float("nan")), id="flush timeout NaN"),
    p(
        lambda c: AgentMemory(c.store, background=True).flush(timeout=True),
        id="background flush timeout bool",
    ),
    p(lambda c: run(AgentMemory(c.store).aflush(timeout=-1)), id="aflush timeout negative"),
    p(
        lambda c: run(AgentMemory(c.store, background=True).aflush(timeout="1")),
        id="background aflush timeout str",
    ),
    p(lambda c: c.scope(background=True).save_turns("I like tea."), id="background save_turns str"),
    p(lambda c: c.scope(background=True).save_turns([5]), id="background save_turns item int"),
    p(
        lambda c: run(c.scope(background=True).asave_turns(None)),
        id="background asave_turns None",
    ),
    p(lambda c: AgentMemory(c.store, filter={"n": {"$gt": BIG}}), id="AgentMemory filter big"),
    p(lambda c: AgentMemory.from_config({"k": 0}), id="AgentMemory.from_config k 0"),
    p(lambda c: AgentMemory.from_config(5), id="AgentMemory.from_config int"),
    p(lambda c: AgentMemory(c.store).scope(), id="scope without user_id"),
    p(lambda c: AgentMemory(c.store).scope(5), id="scope ids int"),
    p(lambda c: AgentMemory(c.store).scope(user_id=5), id="scope user_id int"),
    p(lambda c: AgentMemory(c.store).scope(user_id="a" * 300), id="scope user_id 300 chars"),
    p(lambda c: AgentMemory(c.store).scope(user_id="a\udc00"), id="scope user_id surrogate"),
    p(
        lambda c: AgentMemory(c.store).scope(user_id="alice", session_id="s\udc00"),
        id="scope session_id surrogate",
    ),
    p(lambda c: c.scope().remember(""), id="remember empty"),
    p(lambda c: c.scope().remember(None), id="remember None"),
    p(lambda c: c.scope().remember("I like tea\udc00"), id="remember lone surrogate"),
    p(lambda c: c.scope().remember(DEEP), id="remember nested list"),
    p(lambda c: c.scope().remember("I like tea.", metadata=5), id="remember metadata int"),
    p(
        lambda c: c.scope().remember("I like tea.", metadata={"n": float("nan")}),
        id="remember metadata NaN",
    ),
    p(
        lambda c: c.scope().remember("I like tea.", metadata={"n": BIG}),
        id="remember metadata big int",
    ),
    p(
        lambda c: c.scope().remember("I like tea.", metadata={"kind": "secret"}),
        id="remember metadata reserved field",
    ),
    p(lambda c: c.scope().remember("I like tea.", kind="other"), id="remember kind unknown"),
    p(lambda c: c.scope().remember("I like tea.", sources=5), id="remember sources int"),
    p(lambda c: c.scope().remember("I like tea.", sources="k1"), id="remember sources str"),
    p(lambda c: c.scope().save_turns("I like tea."), id="save_turns str"),
    p(lambda c: c.scope().save_turns([5]), id="save_turns item int"),
    p(lambda c: c.scope().save_turns(None), id="save_turns None"),
    p(lambda c: c.scope().save_turns(TEA_TURN, timestamp=-1), id="save_turns timestamp negative"),
    p(lambda c: c.scope().save_turns(TEA_TURN, timestamp="May"), id="save_turns timestamp str"),
    p(
        lambda c: c.scope(background=True).save_turns(TEA_TURN, timestamp=1e12 - 1),
        id="background save_turns timestamp past year 9999",
    ),
    p(
        lambda c: run(c.scope().asave_turns(TEA_TURN, timestamp=float("nan"))),
        id="asave_turns timestamp NaN",
    ),
    p(lambda c: c.scope().forget(""), id="forget empty"),
    p(lambda c: c.scope().forget(5), id="forget int"),
    p(lambda c: c.scope().recall("tea", k=0), id="recall k 0"),
    p(lambda c: c.scope().recall(5), id="recall query int"),
    p(lambda c: c.scope().recall("tea", exclude=5), id="recall exclude int"),
    p(lambda c: c.scope().recall("tea", exclude=[5]), id="recall exclude [int]"),
    p(lambda c: c.scope().list(limit=0), id="list limit 0"),
    p(lambda c: c.scope().list("5"), id="list limit str"),
    p(lambda c: run(c.scope().aremember("")), id="aremember empty"),
    # -- memory tools ------------------------------------------------------------------------
    p(lambda c: run_memory_tool(c.scope(), "delete", {}), id="tool unknown"),
    p(lambda c: run_memory_tool(c.scope(), ["remember"], {}), id="tool name list"),
    p(lambda c: run_memory_tool(c.scope(), "remember", None), id="tool arguments None"),
    p(lambda c: run_memory_tool(None, "remember", {"text": "x"}), id="tool scope None"),
    p(lambda c: run_memory_tool(c.scope(), "remember", {"text": "a\udc00"}), id="tool surrogate"),
    p(lambda c: run_memory_tool(c.scope(), "remember", {"text": 5}), id="tool text int"),
    p(lambda c: run_memory_tool(c.scope(), "remember", {}), id="tool text missing"),
    p(lambda c: run_memory_tool(c.scope(), "recall", {"query": "x", "limit": 0}), id="tool limit"),
    p(lambda c: run_memory_tool(c.scope(), "list_memories", {"offset": -1}), id="tool offset"),
    p(lambda c: run_memory_tool(c.scope(), "forget", {"memory": ""}), id="tool forget empty"),
    p(
        lambda c: run(arun_memory_tool(c.scope(), "remember", {"text": "  "})),
        id="async tool blank text",
    ),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A closed store with a few memories, copied for each case."""
    folder = tmp_path_factory.mktemp("template") / "store"
    prefilled_store(folder).close()
    return folder


@pytest.mark.parametrize("bad_call", PYTHON_CASES)
def test_python_api(tmp_path, template, bad_call):
    folder, files = copy_of(template, tmp_path / "store"), tmp_path / "files"
    files.mkdir()
    store = open_store(folder)
    before = exported(store, tmp_path / "before.jsonl")
    try:
        with pytest.raises(MemvaultError):
            bad_call(Context(store, folder, files))
    finally:
        store.close()
    assert reopened_export(folder, tmp_path / "after.jsonl") == before


def _turns(*timestamps, content: str = "I like tea.") -> str:
    return json.dumps([{"role": "user", "content": content, "timestamp": t} for t in timestamps])


CLI_CASES = [
    # (arguments, with {file} replaced by a file holding the text given, exit status)
    p(["ingest", "{file}", "-n", "users/alice"], _turns(1, 2, 1e300), 1, id="ingest later 1e300"),
    p(["ingest", "{file}", "-n", "users/alice"], _turns(1, 2, -1), 1, id="ingest later negative"),
    p(["ingest", "{file}", "-n", "users/alice"], _turns(1, "NaN"), 1, id="ingest later NaN str"),
    p(
        ["ingest", "{file}", "-n", "users/alice"],
        _turns(1, 2).replace("2}]", "NaN}]"),
        1,
        id="ingest later NaN",
    ),
    p(
        ["ingest", "{file}", "-n", "users/alice"],
        _turns(1, "0001-01-01T00:00:00Z"),
        1,
        id="ingest later in year 1",
    ),
    p(
        ["ingest", "{file}", "-n", "users/alice"],
        _turns(1, 2).replace("I like tea.", "I like tea\\udc00"),
        1,
        id="ingest content lone surrogate",
    ),
    p(["ingest", "{file}", "-n", "users/alice"], DEEP_JSON, 1, id="ingest nested 5,000 deep"),
    p(
        ["ingest", "{file}", "-n", "users/alice"],
        '[{"role": "user", "content": "x", "n": 1' + "0" * 5000 + "}]",
        1,
        id="ingest 5,001-digit number",
    ),
    p(["ingest", "{file}", "-n", "/".join(FIVE_THOUSAND)], _turns(1), 1, id="ingest ns 5,000"),
    p(["ingest", "{file}", "-n", "users/" + "a" * 300], _turns(1), 1, id="ingest segment 300"),
    p(["ingest", "{file}", "-n", "users/alice", "--ttl", "1e13"], _turns(1), 2, id="ttl 1e13"),
    p(["ingest", "{file}", "-n", "users/alice", "--ttl", "inf"], _turns(1), 2, id="ttl inf"),
    p(["ingest", "{file}", "-n", "users/alice", "--ttl", "nan"], _turns(1), 2, id="ttl nan"),
    p(["ingest", "{folder}", "-n", "users/alice"], "", 1, id="ingest a folder"),
    p(
        ["ingest", "{file}", "-n", "users/alice"],
        _turns(1, 2, content="I like tea. " * 3000),
        1,
        id="ingest a message of 36,000 chars",
    ),
    p(["import", "{file}"], import_line(created_at="raw:NaN"), 1, id="import NaN"),
    p(["import", "{file}"], import_line(updated_at=1e300), 1, id="import 1e300"),
    p(["import", "{file}"], import_line(expires_at="raw:Infinity"), 1, id="import Infinity"),
    p(["import", "{file}"], DEEP_JSON, 1, id="import line nested 5,000 deep"),
    p(["import", "{file}"], import_line(value={"text": "x", "n": BIG}), 1, id="import big int"),
    p(["import", "{file}"], import_line() + "\n" + import_line(), 1, id="import duplicate keys"),
    p(["search", "tea", "--filter", '{"n": NaN}'], "", 1, id="filter NaN"),
    p(["search", "tea", "--filter", '{"n": 1' + "0" * 400 + "}"], "", 1, id="filter big int"),
    p(["search", "tea", "--filter", '{"n": 1' + "0" * 5000 + "}"], "", 1, id="filter 5,001 digits"),
    p(["search", "tea", "--filter", DEEP_JSON], "", 1, id="filter nested 5,000 deep"),
    p(["search", "tea", "-n", "/".join(FIVE_THOUSAND)], "", 1, id="search ns 5,000 segments"),
    p(["search", "tea", "-k", "0"], "", 2, id="search -k 0"),
    p(["search", "tea", "--mode", "fuzzy"], "", 2, id="search mode unknown"),
    p(["list", "--limit", "abc"], "", 2, id="list limit abc"),
    p(["get", "x" * 2000, "-n", "users/alice"], "", 1, id="get key 2,000 chars"),
    p(["forget", "absent", "-n", "users/alice"], "", 1, id="forget absent key"),
    p(["history", "absent", "-n", "users/alice"], "", 1, id="history of an absent key"),
    p(["history", "x" * 2000, "-n", "users/alice"], "", 1, id="history key 2,000 chars"),
    p(["history", "tea", "-n", "/".join(FIVE_THOUSAND)], "", 1, id="history ns 5,000"),
    p(["history", "tea"], "", 2, id="history without a namespace"),
    p(["import", "{file}"], history_line(event="edit"), 1, id="import history event unknown"),
    p(["export", "{folder}/no/x.jsonl"], "", 1, id="export to a missing folder"),
    p(["cleanup", "--max-age", "nan"], "", 2, id="cleanup max-age nan"),
    p(["cleanup", "--max-age", "inf"], "", 2, id="cleanup max-age inf"),
    p(["namespaces", "--prefix", "users//x"], "", 1, id="namespaces empty segment"),
]


@pytest.mark.parametrize(("args", "text", "status"), CLI_CASES)
def test_cli(tmp_path, template, args, text, status):
    folder, files = copy_of(template, tmp_path / "store"), tmp_path / "files"
    files.mkdir()
    before = reopened_export(folder, tmp_path / "before.jsonl")
    file = files / "input.jsonl"
    file.write_text(text, encoding="utf-8")
    args = [a.replace("{file}", str(file)).replace("{folder}", str(files)) for a in args]
    result = cli(*args, store=folder, check=False)
    assert isinstance(result.exception, SystemExit), result.exception  # nothing escaped
    assert result.exit_code == status
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert reopened_export(folder, tmp_path / "after.jsonl") == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["import", "{file}"], DEEP_JSON),
        (["ingest", "{file}", "-n", "users/alice"], DEEP_JSON),
        (["ingest", "{file}", "-n", "users/alice"], _turns(*range(1, 200), 1e300)),
    ],
    ids=["import nested 5,000 deep", "ingest nested 5,000 deep", "ingest 200th turn 1e300"],
)
def test_cli_in_a_fresh_process(tmp_path, template, args, text):
    folder = copy_of(template, tmp_path / "store")
    before = reopened_export(folder, tmp_path / "before.jsonl")
    file = tmp_path / "input.jsonl"
    file.write_text(text, encoding="utf-8")
    result = memvault(*[a.replace("{file}", str(file)) for a in args], store=folder, check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert reopened_export(folder, tmp_path / "after.jsonl") == before
