"""How the statement rules read requests to remember, and what they make of LoCoMo's turns.

The labelled set, ``tests/core/text/remember_requests.yaml``, holds chat messages as people type
them to an assistant: requests to remember ("Can you remember that my birthday is on May 5?",
"Note to self - ..."), each with the exact text ``memvault.statements.memorable_text`` must keep,
and messages that must keep nothing (tag questions, questions, questions about what the assistant
remembers, requests to forget, pleasantries). Prints the share classified right on each side and
by kind, and every miss.

With ``--locomo DATA`` it also reads every turn of the LoCoMo conversations there (as the agent
replay of ``bench/locomo.py`` saves them, each turn a user message) and writes, per turn, the
speech act of each sentence, the kept text and its memory key to ``OUT/remember_locomo.json``;
``--against`` an earlier such file (written by another version of the rules) counts and prints
the sentences whose speech act changed and the turns whose kept text or key changed.

Usage:
    uv run python bench/remember_requests.py [--locomo ../shared/data/locomo] [--against FILE]
        [--out DIR]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import yaml

from memvault.conversations import load_conversation
from memvault.statements import memorable_text, memory_key, sentences, speech_act

LABELLED = Path(__file__).resolve().parents[1] / "tests/core/text/remember_requests.yaml"


def misses(labelled: dict) -> list[tuple[str, str, str, str | None]]:
    """Every labelled message the rules get wrong: (side, kind, message, what was kept)."""
    wrong = []
    for entry in labelled["stored"]:
        kept = memorable_text(entry["said"])
        if kept != entry["stores"]:
            wrong.append(("stored", "request to remember", entry["said"], kept))
    for entry in labelled["not_stored"]:
        kept = memorable_text(entry["said"])
        if kept is not None:
            wrong.append(("not_stored", entry["kind"], entry["said"], kept))
    return wrong


def rates(labelled: dict) -> list[tuple[str, int, int]]:
    """(group, right, total) for each side, each kind of the unstored side, and overall."""
    totals = Counter(["stored"] * len(labelled["stored"]))
    totals.update(f"not stored: {entry['kind']}" for entry in labelled["not_stored"])
    wrong = Counter(
        "stored" if side == "stored" else f"not stored: {kind}"
        for side, kind, _, _ in misses(labelled)
    )
    unstored = [group for group in totals if group != "stored"]
    rows = [(group, totals[group] - wrong[group], totals[group]) for group in totals]
    rows.append(
        (
            "not stored, all",
            sum(totals[g] - wrong[g] for g in unstored),
            sum(totals[g] for g in unstored),
        )
    )
    rows.append(("all", sum(totals.values()) - sum(wrong.values()), sum(totals.values())))
    return rows


def locomo_reading(data: Path) -> dict[str, dict]:
    """Per LoCoMo turn (by its key): each sentence with its speech act and kept text, and the
    turn's kept text and its memory key."""
    reading = {}
    for file in sorted(data.glob("*.json")):
        for turn in load_conversation(file):
            kept = memorable_text(turn.text)
            reading[turn.key] = {
                "sentences": [[s, speech_act(s), memorable_text(s)] for s in sentences(turn.text)],
                "kept": kept,
                "key": memory_key(kept) if kept else None,
            }
    return reading


def compare(before: dict[str, dict], after: dict[str, dict]) -> None:
    """Print how many sentences changed speech act or kept text, and turns kept text or key."""
    pairs = [
        (was, now)
        for key in after
        for was, now in zip(before[key]["sentences"], after[key]["sentences"])
    ]
    acts = [(was, now) for was, now in pairs if was[1] != now[1]]
    kept = [(was, now) for was, now in pairs if was[2] != now[2]]
    stored = Counter((was[2] is not None, now[2] is not None) for was, now in kept)
    turns = [k for k in after if before[k]["kept"] != after[k]["kept"]]
    keys = [k for k in after if before[k]["key"] != after[k]["key"]]
    print(
        f"\nLoCoMo, {len(pairs)} sentences of {len(after)} turns: {len(acts)} change speech act,"
        f" {len(kept)} kept text ({stored[True, False]} no longer kept, {stored[False, True]}"
        f" newly kept, {stored[True, True]} kept otherwise); {len(turns)} turns keep another"
        f" text, {len(keys)} another key"
    )
    for was, now in acts:
        print(f"  {was[1]} -> {now[1]}: {now[0]}")
    for was, now in kept:
        print(f"  kept {was[2]!r}\n    -> {now[2]!r}")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labelled", type=Path, default=LABELLED)
    parser.add_argument("--locomo", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--against", type=Path, help="an earlier remember_locomo.json")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    labelled = yaml.safe_load(args.labelled.read_text(encoding="utf-8"))
    rows = rates(labelled)
    print("| messages | right | rate |\n|---|---|---|")
    for group, right, total in rows:
        print(f"| {group} | {right} / {total} | {right / total:.3f} |")
    for side, kind, said, kept in misses(labelled):
        print(f"miss ({side}, {kind}): {said!r} -> {kept!r}")
    results: dict = {"rates": {group: [right, total] for group, right, total in rows}}
    if args.locomo:
        reading = locomo_reading(args.locomo)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "remember_locomo.json").write_text(json.dumps(reading, indent=1))
        if args.against:
            compare(json.loads(args.against.read_text()), reading)
        results["locomo"] = reading
    return results


if __name__ == "__main__":
    main()
