"""A real LoCoMo conversation, ingested by the CLI and reopened in a new process, recalls the
evidence turns of its questions."""

import json
import subprocess
import sys

import pytest

from tests.core.cli import REPO, memvault_json

pytestmark = pytest.mark.slow

LOCOMO = REPO.parent / "shared" / "data" / "locomo" / "26.json"

RECALL = """
import json, sys
from memvault import MemoryStore
store = MemoryStore(sys.argv[1])
qa = json.load(open(sys.argv[2]))["qa"]
hits = 0
for q in qa:
    if not q.get("evidence"):
        continue
    found = store.search(("locomo", "26"), query=q["question"], limit=10)
    hits += bool({i.value["turn_id"] for i in found} & set(q["evidence"]))
print(json.dumps({"questions": sum(1 for q in qa if q.get("evidence")), "hits": hits}))
"""


def test_locomo_questions_find_evidence_in_top_10(tmp_path, locomo_dir):
    conversation = locomo_dir / "26.json"
    store = tmp_path / "store"
    ingested = memvault_json("ingest", str(conversation), "-n", "locomo/26", store=store)
    assert ingested["ingested"] == 419

    first = json.loads(conversation.read_text())["qa"][0]
    hits = memvault_json("search", first["question"], "-n", "locomo/26", "-k", "10", store=store)
    assert set(first["evidence"]) & {h["value"]["turn_id"] for h in hits}

    result = subprocess.run(
        [sys.executable, "-c", RECALL, str(store), str(conversation)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    counts = json.loads(result.stdout)
    assert counts["hits"] >= 5
    print(f"LoCoMo 26: evidence in top 10 for {counts['hits']}/{counts['questions']} questions")
