"""Evidence recall on LoCoMo (Maharana et al., ACL 2024): memvault against its peers.

For each conversation: one namespace; every turn is stored through ``MemoryStore.put_many``
(one call per session, with the session's date as the items' time and speaker/date as metadata,
exactly as ``memvault.conversations.load_conversation`` reads the file). Then for every question
with evidence, the top 20 are recalled and

    recall@k = |top-k dia_ids ∩ evidence dia_ids| / |evidence|

is averaged over questions, overall and per category, for k = 1, 5, 10, 20, with the latency
of each recall call (p50/p95, ms).

Peers, on the same turns with the same embedder (all-MiniLM-L6-v2 int8, each text embedded once
per run and shared): raw Chroma (a collection queried with explicit embeddings), LangGraph
``InMemoryStore`` with an index, LlamaIndex ``SimpleVectorStore`` (the store under
``VectorMemoryBlock``), and BM25 (``bm25s``). Peers store what a user would hand them, the
turn as ``speaker: text``; memvault stores ``Turn.value()`` (text plus the neighbouring-turn
context it derives). Query embeddings are cached too, so latencies compare retrieval alone.

``memvault agent`` replays each conversation through the agent-memory layer instead, the path
both adapters save turns by: every turn is handed to ``MemoryScope.save_turns`` on its own, as
one user message named by its speaker, dated by its session (``timestamp=``), in a scope whose
session id is the LoCoMo session; questions are recalled with ``MemoryScope.recall``. Only the
statements are stored (questions and pleasantries are not memories), repeats merge into one
memory, and each memory's context is built as the turns are saved (the next turn completes the
previous memory's). A memory stands for the turns it was saved from, in saving order.

How the store's ranking constants were chosen (leave one conversation out) is
``bench/ranking_choice.py``'s job.

Usage:
    uv run python bench/locomo.py ../shared/data/locomo [--conversations N] [--out DIR]
        [--context B,A] [--sessions N]

``--context B,A`` remakes each turn's context with B turns before it and A after it
(:func:`memvault.conversations.with_context`) instead of the library's default window; the
``memvault agent`` replay keeps the library's window (``memvault.turn_context``).

Prints the tables, writes ``locomo.json``, ``locomo.png`` (recall@k by system) and
``locomo-categories.png`` (recall@10 by question category and system) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from itertools import groupby
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cached_embedder import EMBEDDERS, CachedEmbedder  # noqa: E402
from charts import grouped_bars  # noqa: E402

from memvault import AgentMemory, MemoryStore  # noqa: E402
from memvault.conversations import Turn, load_conversation, with_context  # noqa: E402

KS = (1, 5, 10, 20)
DEPTH = max(KS)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
Retriever = Callable[[str], list[str]]


def evidence_ids(question: dict) -> set[str]:
    """The dia_ids a question cites (some files join two in one string, "D8:6; D9:17")."""
    return {m for item in question.get("evidence") or [] for m in re.findall(r"D\d+:\d+", item)}


def peer_text(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


# -- systems: each builder indexes one conversation and returns query -> ranked dia_ids -------


def memvault_system(mode: str) -> Callable:
    def build(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
        store = MemoryStore(workdir / f"memvault-{mode}", embedder=embedder)
        namespace = ("locomo", turns[0].key.split(":")[0])
        for _, session in groupby(turns, key=lambda t: t.session):
            session = list(session)
            store.put_many(
                namespace, [(t.key, t.value()) for t in session], timestamp=session[0].timestamp
            )

        def recall(question: str) -> list[str]:
            hits = store.search(namespace, query=question, limit=DEPTH, mode=mode)
            return [hit.value["turn_id"] for hit in hits]

        return recall

    return build


def agent_system(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
    store = MemoryStore(workdir / "memvault-agent", embedder=embedder)
    memory = AgentMemory(store, ("locomo", "{conversation}"))
    conversation = turns[0].key.split(":")[0]
    said_in: dict[str, list[str]] = defaultdict(list)  # memory key -> dia_ids saved into it
    for turn in turns:
        scope = memory.scope(conversation=conversation, session_id=f"session-{turn.session}")
        message = {"role": "user", "name": turn.speaker, "content": turn.text}
        for item in scope.save_turns([message], timestamp=turn.timestamp):
            said_in[item.key].append(turn.turn_id)
    reader = memory.scope(conversation=conversation)

    def recall(question: str) -> list[str]:
        hits = reader.recall(question, k=DEPTH)
        return [dia_id for hit in hits for dia_id in said_in[hit.key]][:DEPTH]

    return recall


def chroma_system(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(
        str(workdir / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_or_create_collection(
        "locomo", embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )
    collection.add(
        ids=[t.turn_id for t in turns],
        embeddings=embedder.array([peer_text(t) for t in turns]),
        metadatas=[{"speaker": t.speaker, "date": t.session_date or ""} for t in turns],
    )

    def recall(question: str) -> list[str]:
        found = collection.query(
            query_embeddings=embedder.array([question], queries=True),
            n_results=min(DEPTH, len(turns)),
        )
        return found["ids"][0]

    return recall


def langgraph_system(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore(
        index={"dims": embedder.dim, "embed": embedder.embed_documents, "fields": ["text"]}
    )
    for t in turns:
        store.put(("locomo",), t.turn_id, {"text": peer_text(t), "date": t.session_date})

    def recall(question: str) -> list[str]:
        return [item.key for item in store.search(("locomo",), query=question, limit=DEPTH)]

    return recall


def llamaindex_system(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores import SimpleVectorStore, VectorStoreQuery

    store = SimpleVectorStore()
    vectors = embedder.array([peer_text(t) for t in turns])
    store.add(
        [
            TextNode(id_=t.turn_id, text=peer_text(t), embedding=v.tolist())
            for t, v in zip(turns, vectors)
        ]
    )

    def recall(question: str) -> list[str]:
        vector = embedder.array([question], queries=True)[0]
        query = VectorStoreQuery(query_embedding=vector.tolist(), similarity_top_k=DEPTH)
        return list(store.query(query).ids or [])

    return recall


def bm25_system(turns: list[Turn], embedder: CachedEmbedder, workdir: Path) -> Retriever:
    import bm25s

    retriever = bm25s.BM25()
    corpus = [peer_text(t) for t in turns]
    retriever.index(
        bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False
    )

    def recall(question: str) -> list[str]:
        tokens = bm25s.tokenize([question], stopwords="en", return_ids=False, show_progress=False)
        if not tokens[0]:
            return []
        found, _ = retriever.retrieve(tokens, k=min(DEPTH, len(turns)), show_progress=False)
        return [turns[int(i)].turn_id for i in found[0]]

    return recall


SYSTEMS: dict[str, Callable] = {
    "memvault": memvault_system("hybrid"),
    "memvault dense": memvault_system("dense"),
    "memvault lexical": memvault_system("lexical"),
    "memvault agent": agent_system,
    "chroma": chroma_system,
    "langgraph": langgraph_system,
    "llamaindex": llamaindex_system,
    "bm25s": bm25_system,
}


# -- turns and recall@k, shared with the other LoCoMo scripts ---------------------------------

Window = tuple[int, int] | None
"""Turns (before, after) in each turn's context, or None for the library's default."""


def conversation_turns(file: Path, context: Window = None) -> list[Turn]:
    """The file's turns as ``load_conversation`` reads them, the context window re-made when
    ``context`` gives one."""
    turns = load_conversation(file)
    if context is not None:
        turns = with_context(turns, before=context[0], after=context[1])
    return turns


def recalls(ranked: list[str], wanted: set[str]) -> list[float]:
    """Evidence recall@k of one question for each k of :data:`KS`: the share of ``wanted`` ids
    among the first k of ``ranked`` (best first)."""
    return [len(set(ranked[:k]) & wanted) / len(wanted) for k in KS]


def loco_tables(result: dict) -> str:
    """Per-conversation and pooled R@1/5/10/20 by system, then temporal R@k per conversation."""
    convs = result["conversations"]
    labels = list(next(iter(convs.values())))
    lines = [
        "| conversation | system | R@1 | R@5 | R@10 | R@20 | temporal R@1 | R@5 | R@10 | R@20 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label in labels:
        for conv, entry in convs.items():
            got = entry[label]
            name = f"{label} ({result['picked'][conv]})" if label.startswith("LOCO") else label
            cells = [f"{v:.3f}" for v in got["all"] + got["temporal"]]
            lines.append(f"| {conv} | {name} | " + " | ".join(cells) + " |")
        n = np.array([e[label]["questions"] for e in convs.values()])
        t = np.array([e[label]["temporal_questions"] for e in convs.values()])
        pooled = np.array([e[label]["all"] for e in convs.values()]).T @ n / n.sum()
        temporal = np.array([e[label]["temporal"] for e in convs.values()]).T @ t / t.sum()
        cells = [f"**{v:.3f}**" for v in [*pooled, *temporal]]
        lines.append(f"| all ({n.sum()}) | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# -- scoring ----------------------------------------------------------------------------------


def run(
    data: Path,
    *,
    conversations: int | None,
    systems: list[str],
    embedder: CachedEmbedder,
    context: Window = None,
    sessions: int | None = None,
) -> dict:
    """Score every system on the conversations in ``data``; returns the results dict.

    ``sessions`` keeps the first N sessions of each conversation and the questions whose
    evidence lies within them (a small slice that runs in seconds, as the notebooks use it).
    """
    files = sorted(data.glob("*.json"))[:conversations]
    if not files:
        raise SystemExit(f"no LoCoMo *.json files in {data}")
    scores = {s: defaultdict(list) for s in systems}
    by_conversation = {s: defaultdict(list) for s in systems}
    latency = {s: [] for s in systems}
    ingest = dict.fromkeys(systems, 0.0)
    questions = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number, file in enumerate(files):
            turns = conversation_turns(file, context)
            qa = [q for q in json.loads(file.read_text())["qa"] if evidence_ids(q)]
            if sessions is not None:
                turns = [t for t in turns if t.session is not None and t.session <= sessions]
                said = {t.turn_id for t in turns}
                qa = [q for q in qa if evidence_ids(q) <= said]
            questions += len(qa)
            embedder.warm([q["question"] for q in qa], queries=True)
            embedder.warm([peer_text(t) for t in turns] + [f"{t.text}\n{t.context}" for t in turns])
            for system in systems:
                workdir = Path(tmp) / f"{number}-{system.replace(' ', '-')}"
                workdir.mkdir()
                start = time.perf_counter()
                recall = SYSTEMS[system](turns, embedder, workdir)
                ingest[system] += time.perf_counter() - start
                for q in qa:
                    start = time.perf_counter()
                    ranked = recall(q["question"])
                    latency[system].append(time.perf_counter() - start)
                    wanted = evidence_ids(q)
                    for k in KS:
                        got = len(set(ranked[:k]) & wanted) / len(wanted)
                        scores[system][("all", k)].append(got)
                        scores[system][(CATEGORIES.get(q["category"], "other"), k)].append(got)
                        by_conversation[system][(file.stem, k)].append(got)
    results = {
        "conversations": [f.stem for f in files],
        "sessions": sessions,
        "questions": questions,
        "ks": list(KS),
        "systems": {},
    }
    for system in systems:
        groups = sorted({group for group, _ in scores[system]})
        ms = np.array(latency[system]) * 1000
        results["systems"][system] = {
            "recall": {
                group: {str(k): round(float(np.mean(scores[system][(group, k)])), 4) for k in KS}
                for group in groups
            },
            "questions": {group: len(scores[system][(group, 1)]) for group in groups},
            "conversations": {
                conv: {
                    str(k): round(float(np.mean(by_conversation[system][(conv, k)])), 4) for k in KS
                }
                for conv in results["conversations"]
            },
            "latency_ms": {
                "p50": round(float(np.percentile(ms, 50)), 3),
                "p95": round(float(np.percentile(ms, 95)), 3),
            },
            "ingest_s": round(ingest[system], 3),
        }
    return results


def table(results: dict) -> str:
    """The results as a Markdown table: overall recall@k, then per-category recall@10."""
    systems = results["systems"]
    categories = [c for c in CATEGORIES.values() if c in next(iter(systems.values()))["recall"]]
    head = ["system", *(f"R@{k}" for k in results["ks"]), *(f"R@10 {c}" for c in categories)]
    head += ["p50 ms", "p95 ms"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, got in systems.items():
        row = [name, *(f"{got['recall']['all'][str(k)]:.3f}" for k in results["ks"])]
        row += [f"{got['recall'][c]['10']:.3f}" for c in categories]
        row += [f"{got['latency_ms']['p50']:.2f}", f"{got['latency_ms']['p95']:.2f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def replay_table(results: dict, ingest: str = "memvault", replay: str = "memvault agent") -> str:
    """Recall@k of the agent replay next to the ingest path and the gap, per conversation and
    pooled."""
    systems = results["systems"]
    ks = [str(k) for k in results["ks"]]
    pairs = {
        conv: (systems[ingest]["conversations"][conv], systems[replay]["conversations"][conv])
        for conv in results["conversations"]
    }
    pairs["all"] = (systems[ingest]["recall"]["all"], systems[replay]["recall"]["all"])
    lines = [
        "| conversation | path | " + " | ".join(f"R@{k}" for k in ks) + " |",
        "|---|---|" + "---|" * len(ks),
    ]
    for conv, (ingested, replayed) in pairs.items():
        lines.append(f"| {conv} | ingest | " + " | ".join(f"{ingested[k]:.3f}" for k in ks) + " |")
        lines.append(
            f"| {conv} | agent replay | " + " | ".join(f"{replayed[k]:.3f}" for k in ks) + " |"
        )
        gaps = [f"{replayed[k] - ingested[k]:+.3f}" for k in ks]
        lines.append(f"| {conv} | replay - ingest | " + " | ".join(gaps) + " |")
    return "\n".join(lines)


def charts(results: dict, out: Path) -> list[Path]:
    """Write ``locomo.png`` (recall@k by system) and ``locomo-categories.png`` (recall@10 by
    question category and system) to ``out``; returns their paths."""
    systems = results["systems"]
    count = len(results["conversations"])
    sliced = f" (sessions 1-{results['sessions']})" if results.get("sessions") else ""
    run = f"{count} conversation{'s' * (count != 1)}{sliced}, {results['questions']} questions"
    categories = [c for c in CATEGORIES.values() if c in next(iter(systems.values()))["recall"]]
    asked = next(iter(systems.values()))["questions"]
    return [
        grouped_bars(
            out / "locomo.png",
            groups=[f"recall@{k}" for k in results["ks"]],
            series={
                name: [got["recall"]["all"][str(k)] for k in results["ks"]]
                for name, got in systems.items()
            },
            title=f"LoCoMo evidence recall by system ({run})",
            xlabel="cut-off k (memories recalled per question)",
            ylabel="evidence recall (share of cited turns, 0-1)",
            legend="system",
            ylim=(0, 1),
        ),
        grouped_bars(
            out / "locomo-categories.png",
            groups=[f"{c} ({asked[c]})" for c in categories],
            series={
                name: [got["recall"][c]["10"] for c in categories] for name, got in systems.items()
            },
            title=f"LoCoMo recall@10 by question category ({run})",
            xlabel="question category (questions)",
            ylabel="evidence recall@10 (0-1)",
            legend="system",
            ylim=(0, 1),
        ),
    ]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--conversations", type=int, help="only the first N files (sorted)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument(
        "--embedder", choices=EMBEDDERS, default="minilm", help="the model every system embeds with"
    )
    parser.add_argument("--vectors", type=Path, help="an .npz of vectors, read and saved")
    parser.add_argument(
        "--sessions", type=int, help="only the first N sessions of each (and their questions)"
    )
    parser.add_argument(
        "--context",
        metavar="B,A",
        help="each turn's context window: B turns before, A after (default: the library's)",
    )
    args = parser.parse_args(argv)
    context: Window = None
    if args.context:
        try:
            before, after = (int(n) for n in args.context.split(","))
        except ValueError:
            parser.error(f"--context takes B,A (two ints), got {args.context!r}")
        context = (before, after)
    systems = [s.strip() for s in args.systems.split(",")]
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        parser.error(f"unknown systems {sorted(unknown)}; choose from {list(SYSTEMS)}")
    embedder = CachedEmbedder(EMBEDDERS[args.embedder]())
    if args.vectors:
        embedder.load(args.vectors)
    results = run(
        args.data,
        conversations=args.conversations,
        systems=systems,
        embedder=embedder,
        context=context,
        sessions=args.sessions,
    )
    results["context"] = list(context) if context else None
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "locomo.json").write_text(json.dumps(results, indent=2))
    drawn = charts(results, args.out)
    print(f"{len(results['conversations'])} conversations, {results['questions']} questions")
    print(table(results))
    if {"memvault", "memvault agent"} <= set(systems):
        print("\nThe agent-memory replay against the ingest path (hybrid, the same store)")
        print(replay_table(results))
    if args.vectors:
        embedder.save(args.vectors)
    print(f"wrote {args.out / 'locomo.json'}, " + " and ".join(str(p) for p in drawn))
    return results


if __name__ == "__main__":
    main()
