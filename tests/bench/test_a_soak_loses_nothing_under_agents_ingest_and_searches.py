"""The soak at CI size loses nothing: four agent processes (``create_agent`` with
``MemoryMiddleware``, saving in the background), ``memvault ingest`` of a LoCoMo session and two
searching processes on one store folder for 15 s, agent 0 killed with SIGKILL midway and started
again; afterwards every acknowledged turn is stored exactly once, every history is unbroken, the
ingest is complete and no process saw an error. It runs ``bench/soak.py``, the code of the
10-minute run (figures in bench/README.md)."""

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import soak  # noqa: E402

pytestmark = pytest.mark.slow


def test_a_soak_loses_nothing_under_agents_ingest_and_searches(tmp_path, locomo_dir):
    got = soak.main(
        [str(locomo_dir), "--minutes", "0.25", "--ingests", "1", "--sessions", "1"]
        + ["--path", str(tmp_path / "run"), "--out", str(tmp_path)]
    )

    assert json.loads((tmp_path / "soak.json").read_text()) == got
    assert got["problems"] == []
    assert got["ingested"] == {"locomo/26": 18}  # the first session of conversation 26
    # agent0's count includes the turns its first process acknowledged before the kill.
    assert sorted(got["acknowledged"]) == ["agent0", "agent1", "agent2", "agent3"]
    assert all(count > 0 for count in got["acknowledged"].values())
    assert got["acknowledged_after_kill"] > 0 and got["searches"] > 0
    assert all(0 < q["p50"] <= q["p99"] for q in got["latency_ms"].values())
