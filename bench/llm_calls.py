"""LLM calls per ingested turn, for each way of configuring the model, on LoCoMo conversations.

Each LoCoMo conversation (Maharana et al., ACL 2024) is replayed through
``AgentMemory.scope(...).save_turns``: a turn is one message of the first speaker (the "user")
with the second speaker's reply (the "assistant"), in order, one session per ``session_id``.
The model is a deterministic stand-in that answers every prompt the way a careful model would
and counts the calls by kind:

- extraction: the user's statements (``memvault.statements.memorable_text``) as the facts;
- reconciliation (facts shown): NONE for a fact a shown memory already states word for word
  (the same ``memory_key``), ADD otherwise;
- one call per turn (a reconciler alone, the conversation shown): ADD each statement, or NONE
  as above.

Configurations: ``extractor`` (``FactExtractor`` alone: facts added or merged),
``extractor+reconciler`` (Mem0's pipeline, Chhikara et al., arXiv:2504.19413: extraction, then
one update call per batch) and ``reconciler`` (one call draws and decides). The calls depend on
the store (whether similar memories exist), which is why this replays real conversations.

Usage:
    uv run python bench/llm_calls.py ../shared/data/locomo [--conversations N] [--turns N]
        [--out DIR]

Prints, per configuration: turns, calls per turn (mean), how many turns took 0, 1 and 2 calls,
and the memories stored; writes them as ``llm_calls.json`` and ``llm_calls.png`` (turns by the
LLM calls they took, per configuration) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cached_embedder import CachedEmbedder  # noqa: E402
from charts import grouped_bars  # noqa: E402

from memvault import (  # noqa: E402
    AgentMemory,
    FactExtractor,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
    memory_key,
)
from memvault.conversations import Turn, load_conversation  # noqa: E402
from memvault.extraction import DEFAULT_EXTRACTION_PROMPT  # noqa: E402
from memvault.reconcile import DEFAULT_RECONCILIATION_PROMPT  # noqa: E402
from memvault.statements import memorable_text  # noqa: E402

CONFIGURATIONS = ("extractor", "extractor+reconciler", "reconciler")


class CountingModel:
    """A deterministic stand-in for a chat model; ``calls`` counts its calls by kind."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def __call__(self, messages: list[dict[str, str]]) -> str:
        system, data = messages[0]["content"], messages[1]["content"]
        if system == DEFAULT_EXTRACTION_PROMPT:
            self.calls["extraction"] += 1
            transcript = json.loads(data.split("\n", 1)[1])
            said = [
                memorable_text(line.removeprefix("user: "))
                for line in transcript.split("\n")
                if line.startswith("user: ")
            ]
            return json.dumps({"facts": [s for s in said if s]})
        shown = json.loads(data)
        known = {memory_key(m["text"]): m["id"] for m in shown["existing_memories"]}
        if system == DEFAULT_RECONCILIATION_PROMPT:
            self.calls["reconciliation"] += 1
            facts = [(f["fact"], f["text"]) for f in shown["new_facts"]]
        else:
            self.calls["turn"] += 1
            said = [
                memorable_text(m["content"]) for m in shown["conversation"] if m["role"] == "user"
            ]
            facts = [(None, s) for s in said if s]
        decisions = []
        for fact, text in facts:
            key = memory_key(text)
            if key in known:
                decisions.append({"fact": fact, "event": "NONE", "id": known[key]})
            else:
                decisions.append({"fact": fact, "event": "ADD", "text": text})
        return json.dumps({"decisions": decisions})


def turns_of(path: Path) -> list[tuple[int | None, list[dict[str, str]]]]:
    """``(session, [user message, assistant reply])`` pairs, the first speaker as the user."""
    turns: list[Turn] = load_conversation(path)
    user = turns[0].speaker
    pairs: list[tuple[int | None, list[dict[str, str]]]] = []
    for turn in turns:
        role = "user" if turn.speaker == user else "assistant"
        message = {"role": role, "content": turn.text}
        if role == "user" or not pairs or pairs[-1][0] != turn.session:
            pairs.append((turn.session, [message]))
        else:
            pairs[-1][1].append(message)
    return [(session, chat) for session, chat in pairs if chat[0]["role"] == "user"]


def replay(configuration: str, conversations: list[list], embedder: CachedEmbedder) -> dict:
    """Replay every conversation under one configuration; returns its figures."""
    model = CountingModel()
    store = MemoryStore(embedder=embedder, backend=InMemoryBackend())
    extractor = FactExtractor(model) if "extractor" in configuration else None
    reconciler = Reconciler(model) if "reconciler" in configuration else None
    memory = AgentMemory(store, extractor=extractor, reconciler=reconciler)
    per_turn: Counter[int] = Counter()
    for number, turns in enumerate(conversations):
        for session, chat in turns:
            before = sum(model.calls.values())
            memory.scope(user_id=str(number), session_id=str(session)).save_turns(chat)
            per_turn[sum(model.calls.values()) - before] += 1
    total = sum(per_turn.values())
    return {
        "turns": total,
        "calls_per_turn": round(sum(n * c for n, c in per_turn.items()) / total, 3),
        "turns_by_calls": {str(n): per_turn[n] for n in sorted(per_turn)},
        "calls_by_kind": dict(model.calls),
        "memories": store.count(),
    }


def chart(results: dict, path: Path) -> Path:
    """Write how many turns took 0, 1, 2... LLM calls, per configuration, as a PNG."""
    most = max(int(n) for got in results.values() for n in got["turns_by_calls"])
    calls = [str(n) for n in range(most + 1)]
    turns = next(iter(results.values()))["turns"]
    return grouped_bars(
        path,
        groups=[
            f"{name}\n({got['calls_per_turn']:.2f} calls/turn)" for name, got in results.items()
        ],
        series={
            f"{n} call{'s' * (n != '1')}": [
                got["turns_by_calls"].get(n, 0) for got in results.values()
            ]
            for n in calls
        },
        title=f"LLM calls per ingested turn ({turns} LoCoMo turns, scripted model)",
        xlabel="configuration (mean LLM calls per turn)",
        ylabel="turns (count)",
        legend="LLM calls in a turn",
        note="calls counted for real on a deterministic stand-in model; no latency measured",
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--conversations", type=int, help="only the first N files (sorted)")
    parser.add_argument("--turns", type=int, help="only the first N turns of each")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    files = sorted(args.data.glob("*.json"))[: args.conversations]
    if not files:
        raise SystemExit(f"no LoCoMo *.json files in {args.data}")
    conversations = [turns_of(f)[: args.turns] for f in files]
    embedder = CachedEmbedder()
    embedder.warm([m["content"] for c in conversations for _, chat in c for m in chat])
    results = {c: replay(c, conversations, embedder) for c in CONFIGURATIONS}
    print(f"{len(files)} conversations, {results['extractor']['turns']} turns")
    print(f"{'configuration':<22} {'calls/turn':>10} {'0 / 1 / 2 calls':>18} {'memories':>9}")
    for name, got in results.items():
        spread = " / ".join(str(got["turns_by_calls"].get(str(n), 0)) for n in range(3))
        print(f"{name:<22} {got['calls_per_turn']:>10.3f} {spread:>18} {got['memories']:>9}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "llm_calls.json").write_text(json.dumps(results, indent=2) + "\n")
    drawn = chart(results, args.out / "llm_calls.png")
    print(f"wrote {args.out / 'llm_calls.json'} and {drawn}")
    return results


if __name__ == "__main__":
    main()
