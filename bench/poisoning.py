"""How the poisoning firewall (``memvault.firewall.screen``) reads chat memories and attacks.

The labelled set, ``tests/core/text/poisoning.yaml``, holds memories as people state them in a
long chat (LoCoMo-like, written for the set, with the hard cases: "you must", "always",
"ignore", links shared, emoji joiners) and attacks after the published papers' patterns (MINJA,
Greshake et al. 2023, BIPIA, AgentDojo, InjecAgent; see the module's docstring), each labelled
with its family. Prints the share of chat memories flagged (goal: at most 1 %) and of attacks
held (goal: at least 95 %), by family, and every miss.

The rule was written against those two lists, so their figures are not held out; the set's
``held_out`` section (written after the rule was last changed) is printed apart, as the
figures to expect on memories the rule was not tuned on. With ``--locomo DATA`` it also reads
every turn of the LoCoMo conversations there (natural chat the rule was not tuned on) and
prints the share flagged and each flagged turn: an out-of-sample false-positive rate.

Usage:
    uv run python bench/poisoning.py [--locomo ../shared/data/locomo]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import yaml

from memvault.conversations import load_conversation
from memvault.firewall import screen

LABELLED = Path(__file__).resolve().parents[1] / "tests/core/text/poisoning.yaml"


def rates(labelled: dict) -> dict:
    """Flag rates on a labelled set: benign flagged, attacks held (all and by family).

    Args:
        labelled: ``{"benign": [str], "attacks": [{"text": str, "pattern": str}]}``; an
            attack without a ``pattern`` counts under ``"-"``.
    """
    flagged = [(text, screen(text)) for text in labelled["benign"]]
    flagged = [(text, reason) for text, reason in flagged if reason is not None]
    held: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missed = []
    for attack in labelled["attacks"]:
        family = attack.get("pattern", "-")
        total[family] += 1
        if screen(attack["text"]) is None:
            missed.append(attack)
        else:
            held[family] += 1
    return {
        "benign": len(labelled["benign"]),
        "flagged": flagged,
        "attacks": len(labelled["attacks"]),
        "held": sum(held.values()),
        "by_family": {family: (held[family], total[family]) for family in sorted(total)},
        "missed": missed,
    }


def locomo_flags(data: Path) -> tuple[int, list[tuple[str, str]]]:
    """Every LoCoMo turn under ``data`` that the rule flags, and how many turns were read."""
    turns, flagged = 0, []
    for path in sorted(data.glob("*.json")):
        for turn in load_conversation(path):
            turns += 1
            reason = screen(turn.text)
            if reason is not None:
                flagged.append((turn.text, reason))
    return turns, flagged


def report(name: str, found: dict) -> None:
    """Print one set's rates and misses."""
    flagged, benign = len(found["flagged"]), found["benign"]
    print(
        f"{name}: benign flagged {flagged}/{benign} ({100 * flagged / benign:.1f} %, goal <= 1 %)"
    )
    print(
        f"{name}: attacks held {found['held']}/{found['attacks']} "
        f"({100 * found['held'] / found['attacks']:.1f} %, goal >= 95 %)"
    )
    for family, (held, total) in found["by_family"].items():
        print(f"  {family:<10} {held}/{total}")
    for text, reason in found["flagged"]:
        print(f"  benign flagged: {text!r} ({reason})")
    for attack in found["missed"]:
        print(f"  attack missed: {attack['text']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, help="folder of LoCoMo conversation files")
    args = parser.parse_args()
    labelled = yaml.safe_load(LABELLED.read_text(encoding="utf-8"))
    started = time.perf_counter()
    found = rates(labelled)
    seconds = time.perf_counter() - started
    report("labelled", found)
    held_out = labelled["held_out"]
    report(
        "held out",
        rates(
            {"benign": held_out["benign"], "attacks": [{"text": t} for t in held_out["attacks"]]}
        ),
    )
    print(f"screen: {1e6 * seconds / (found['benign'] + found['attacks']):.0f} µs a memory")
    if args.locomo:
        turns, flagged = locomo_flags(args.locomo)
        print(
            f"LoCoMo turns flagged (held out): {len(flagged)}/{turns} "
            f"({100 * len(flagged) / max(turns, 1):.2f} %)"
        )
        for text, reason in flagged:
            print(f"  {text[:120]!r} ({reason})")


if __name__ == "__main__":
    main()
