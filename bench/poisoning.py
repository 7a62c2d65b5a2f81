"""How the poisoning firewall (``memvault.firewall.screen``: its patterns, then its classifier)
reads chat memories and attacks.

The labelled sets (``tests/core/text/``) hold memories as people state them in a long chat
(LoCoMo-like, written for the sets, with the hard cases: "you must", "always", "ignore", links
shared, recipes, code, other languages, emoji joiners) and attacks after the published papers'
patterns (MINJA, AgentPoison, PoisonedRAG, InjecAgent, Greshake et al. 2023, BIPIA, Tensor
Trust, AgentDojo; see the module's docstring), each labelled with its family. For each set it
prints the share of chat memories flagged (goal: at most 1 %) and of attacks held (goal: at
least 95 %), by family, and every miss, then the same two shares for the patterns alone
(``screen_patterns``). The classifier was fitted on all these sets (``bench/firewall_training.py``
prints its figures with each set held out), so its figures here are not held out:

- ``tuning 1`` and ``tuning 2`` (``poisoning.yaml``, ``poisoning_second.yaml``): the rule was
  written against them, so their figures are not held out; ``tuning 3`` and ``tuning 4``
  (``poisoning_third.yaml``, ``poisoning_fourth.yaml``): written for the classifier's second
  round (English; fifteen other languages), after held out 5's misses were read; ``tuning 5``
  (``poisoning_fifth.yaml``): written for its fourth round after held out 5-7's misses were
  read (English and seven other languages); ``tuning 6`` (``poisoning_sixth.yaml``): written
  after held out 8 and 9's false alarms were read, preferences about the assistant and
  everyday orders beside planted records of the same form; measured with the fourth round's
  weights (45.3 % of its chat flagged), fitted on from the fifth;
- ``held out 0`` (``poisoning.yaml``'s ``held_out``): written after the rule's first version;
  its misses were read (for which kinds of pattern were missed) before the 2026-12-04 revision;
- ``held out 1`` (``poisoning_held_out.yaml``): written before that revision, measured once
  after it (0.8 % flagged, 76.7 % held), then its misses read the same way before a second
  round of changes, so no longer held out;
- ``held out 2`` (``poisoning_held_out_2.yaml``): written before the second round, measured
  once after it (1.0 % flagged, 92 % held), then its misses read before a third round, so no
  longer held out;
- ``held out 3`` (``poisoning_held_out_3.yaml``): written before the third round (0.8 %
  flagged, 82.6 % held before it, the same after); its misses were seen after the first
  figure (by mistake), not tuned on;
- ``held out 4`` (``poisoning_held_out_4.yaml``): written after the third round and measured
  once (0 % flagged, 84.6 % held): the figures to expect on memories the rule was not written
  against, before the classifier;
- ``held out 5`` (``poisoning_held_out_5.yaml``): written before the classifier by a helper who
  saw neither layer, never fitted on, measured once with the shipped weights (2.4 % flagged,
  84.7 % held; the patterns alone 1.6 % and 76.3 %), then its misses read and the set fitted
  on in the classifier's second round;
- ``held out 6`` (``poisoning_held_out_6.yaml``): written, like held out 5, by a helper who saw
  neither layer, before the second round; never fitted on, measured once after it (0 %
  flagged, 85.3 % held; the patterns alone 0 % and 69.8 %);
- ``held out 7`` (``poisoning_held_out_7.yaml``): written the same way after the second round's
  weights were fixed; never fitted on, measured once (1.6 % flagged, 91.5 % held; the patterns
  alone 1.2 % and 74.4 %). Held out 6 and 7 were measured again with the third round's weights
  (0 % and 1.2 % flagged, 90.5 % and 97.4 % held), then fitted on in the fourth round;
- ``held out 8`` (``poisoning_held_out_8.yaml``, 365 chat memories + 161 attacks): written
  2026-12-05 like held out 5-7, by a helper who saw no code, rule, data or other set; never
  fitted on; its shares only (not its misses) measured with the third round's weights (2.2 %
  flagged, all by the patterns, 92.5 % held) before the fourth round was fitted, then once
  with the fourth round's (``bench/README.md``), then read;
- ``held out 9`` (``poisoning_held_out_9.yaml``, 394 chat memories + 155 attacks): written the
  same way after the fourth round's weights were fixed; never fitted on; measured with a fifth
  round's candidate (not shipped), then read, then with the fourth round's (``bench/README.md``);
- ``held out 10`` (``poisoning_held_out_10.yaml``, 321 chat memories + 156 attacks): written the
  same way after held out 9; measured once with the fourth round's weights. Held out 8-10 were
  read and fitted on in the fifth round;
- ``held out 11`` and ``held out 12`` (``poisoning_held_out_11.yaml``, 353 + 153;
  ``_12.yaml``, 381 + 157): written the same way, by two helpers, while the fifth round was
  being fitted (before its weights were fixed); never fitted on; measured once with the fifth
  round's weights (the sixth round's weights differ only by the extracted facts fitted and
  budgeted, ``bench/firewall_training.py``);
- ``extracted_facts.yaml``: 536 ordinary facts as an LLM extractor writes them ("The user's
  phone number is 555-0147."), written 2026-12-05 by a helper who saw no firewall code or data;
  fitted on from the sixth round (cross-validated in two halves there), printed here as the
  share flagged.

With ``--locomo DATA`` it also reads every turn of the LoCoMo conversations there (natural chat
the patterns were not tuned on; the classifier was fitted on it, so held out only by
conversation in ``bench/firewall_training.py``) and prints the share flagged and each flagged
turn, and the milliseconds a turn of ``screen_many`` (batched, as listing held memories does).
Then the cost:
milliseconds a memory over the labelled sets (``screen``, one at a time), and seconds for the
slowest of a few hostile 32,000-character texts (the longest text a memory holds; the patterns
are linear in the length, the classifier reads at most 18 chunks of 2,000 characters).

Usage:
    uv run python bench/poisoning.py [--locomo ../shared/data/locomo]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import yaml

from memvault.conversations import load_conversation
from memvault.firewall import screen, screen_many, screen_patterns

SETS = Path(__file__).resolve().parents[1] / "tests/core/text"
HOSTILE_CHARS = 32_000
"""The longest text a memory holds (``memvault.items.MAX_TEXT_CHARS``)."""


def rates(labelled: dict, screener: Callable[[str], str | None] = screen) -> dict:
    """Flag rates on a labelled set: benign flagged, attacks held (all and by family).

    Args:
        labelled: ``{"benign": [str], "attacks": [{"text": str, "pattern": str}]}``; an
            attack without a ``pattern`` counts under ``"-"``.
        screener: The firewall (``screen``) or its patterns alone (``screen_patterns``).
    """
    flagged = [(text, screener(text)) for text in labelled["benign"]]
    flagged = [(text, reason) for text, reason in flagged if reason is not None]
    held: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missed = []
    for attack in labelled["attacks"]:
        family = attack.get("pattern", "-")
        total[family] += 1
        if screener(attack["text"]) is None:
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


def locomo_flags(data: Path) -> tuple[int, list[tuple[str, str]], float]:
    """Every LoCoMo turn under ``data`` the firewall flags, how many turns were read, and the
    seconds ``screen_many`` took on them (one batch a conversation)."""
    turns, flagged, seconds = 0, [], 0.0
    for path in sorted(data.glob("*.json")):
        texts = [turn.text for turn in load_conversation(path)]
        started = time.perf_counter()
        reasons = screen_many(texts)
        seconds += time.perf_counter() - started
        turns += len(texts)
        flagged += [(text, reason) for text, reason in zip(texts, reasons) if reason is not None]
    return turns, flagged, seconds


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


def hostile_texts() -> dict[str, str]:
    """Texts of :data:`HOSTILE_CHARS` characters that make the rule try the most."""
    n = HOSTILE_CHARS
    return {
        "word boundaries everywhere ('x, x, ...')": ("x, " * n)[:n],
        "spelled-apart letters ('a a a ...')": ("a " * n)[:n],
        "digits in words ('a1a1...')": ("a1" * n)[:n],
        "trigger words ('when the user asks ...')": ("when the user asks " * n)[:n],
        "chat ('I went to the market ...')": (
            "I went to the market with my sister and we bought apples, pears and cheese. " * n
        )[:n],
        "one word ('aaa...')": "a" * n,
    }


def slowest(texts: dict[str, str], runs: int = 3) -> tuple[str, float]:
    """The text ``screen`` takes longest on, and its seconds (the best of ``runs``).

    Each run's text ends in another digit, so the classifier's cache of reasons is not read.
    """
    seconds = {}
    for name, text in texts.items():
        times = []
        for run in range(runs):
            started = time.perf_counter()
            screen(f"{text[:-1]}{run}")
            times.append(time.perf_counter() - started)
        seconds[name] = min(times)
    name = max(seconds, key=seconds.__getitem__)
    return name, seconds[name]


def _read(name: str) -> dict:
    return yaml.safe_load((SETS / name).read_text(encoding="utf-8"))


def labelled_sets() -> dict[str, dict]:
    """The labelled sets by name (``"tuning 1"`` ... ``"held out 12"``), as :func:`rates` reads
    them.

    ``held out 0``'s attacks carry no family (``pattern``); ``bench/firewall_training.py``
    leaves ``held out 11`` and ``held out 12`` out.
    """
    first = _read("poisoning.yaml")
    old = first["held_out"]
    return {
        "tuning 1": first,
        "tuning 2": _read("poisoning_second.yaml"),
        "tuning 3": _read("poisoning_third.yaml"),
        "tuning 4": _read("poisoning_fourth.yaml"),
        "tuning 5": _read("poisoning_fifth.yaml"),
        "tuning 6": _read("poisoning_sixth.yaml"),
        "held out 0": {"benign": old["benign"], "attacks": [{"text": t} for t in old["attacks"]]},
        "held out 1": _read("poisoning_held_out.yaml"),
        "held out 2": _read("poisoning_held_out_2.yaml"),
        "held out 3": _read("poisoning_held_out_3.yaml"),
        "held out 4": _read("poisoning_held_out_4.yaml"),
        "held out 5": _read("poisoning_held_out_5.yaml"),
        "held out 6": _read("poisoning_held_out_6.yaml"),
        "held out 7": _read("poisoning_held_out_7.yaml"),
        "held out 8": _read("poisoning_held_out_8.yaml"),
        "held out 9": _read("poisoning_held_out_9.yaml"),
        "held out 10": _read("poisoning_held_out_10.yaml"),
        "held out 11": _read("poisoning_held_out_11.yaml"),
        "held out 12": _read("poisoning_held_out_12.yaml"),
    }


def extracted_facts() -> list[str]:
    """The facts of ``extracted_facts.yaml``: ordinary memories as an LLM extractor writes them
    ("The user's phone number is 555-0147."), none of them an instruction."""
    return list(_read("extracted_facts.yaml")["facts"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, help="folder of LoCoMo conversation files")
    args = parser.parse_args()
    sets = labelled_sets()
    screened, seconds = 0, 0.0
    for name, labelled in sets.items():
        started = time.perf_counter()
        found = rates(labelled)
        seconds += time.perf_counter() - started
        report(name, found)
        alone = rates(labelled, screen_patterns)
        print(
            f"{name}, the patterns alone: benign flagged {len(alone['flagged'])}/"
            f"{alone['benign']}, attacks held {alone['held']}/{alone['attacks']} "
            f"({100 * alone['held'] / alone['attacks']:.1f} %)"
        )
        screened += len(labelled["benign"]) + len(labelled["attacks"])
    print(f"screen: {1e3 * seconds / screened:.1f} ms a memory (the labelled sets, one at a time)")
    facts = extracted_facts()
    held_facts = [(text, why) for text, why in zip(facts, screen_many(facts)) if why is not None]
    print(
        f"extracted facts flagged (fitted on; held out in halves by the training script): "
        f"{len(held_facts)}/{len(facts)} "
        f"({100 * len(held_facts) / len(facts):.2f} %)"
    )
    for text, reason in held_facts:
        print(f"  {text[:120]!r} ({reason})")
    if args.locomo:
        turns, flagged, seconds = locomo_flags(args.locomo)
        print(
            f"LoCoMo turns flagged (the classifier was fitted on them): {len(flagged)}/{turns} "
            f"({100 * len(flagged) / max(turns, 1):.2f} %)"
        )
        for text, reason in flagged:
            print(f"  {text[:120]!r} ({reason})")
        print(f"screen_many: {1e3 * seconds / max(turns, 1):.1f} ms a LoCoMo turn (batched)")
    name, worst = slowest(hostile_texts())
    print(f"screen, slowest {HOSTILE_CHARS:,}-character text: {worst:.2f} s ({name})")


if __name__ == "__main__":
    main()
