"""Extraction is unchanged: facts drawn by an extractor carry no context. A turn whose
extraction fails stores the user's statements with their context, and the previous turn's
messages (whose facts were stored) still come before it."""

import logging

from memvault import FactExtractor
from tests.core.memory_fixtures import hashing_memory
from tests.core.models import ScriptedModel, facts

MAY_8 = 1683554160.0  # 1:56 pm on 8 May, 2023 (UTC)


def test_facts_have_no_context_and_a_fallback_statement_has_one(caplog):
    model = ScriptedModel(facts("The user lives in Porto."), "I cannot help with that.")
    scope = hashing_memory(extractor=FactExtractor(model)).scope(user_id="alice", thread_id="t1")
    turn = [
        {"role": "user", "content": "I live in Porto."},
        {"role": "assistant", "content": "Nice!"},
    ]
    (fact,) = scope.save_turns(turn, timestamp=MAY_8)
    assert fact.value["kind"] == "fact" and "context" not in fact.value

    with caplog.at_level(logging.WARNING):
        (statement,) = scope.save_turns(
            [{"role": "user", "content": "I work as a nurse."}], timestamp=MAY_8 + 60
        )
    assert "fact extraction failed" in caplog.text
    assert statement.value["kind"] == "turn"
    assert statement.value["context"] == (
        "1:57 pm on 8 May, 2023\nuser: I live in Porto.\nassistant: Nice!\nuser: I work as a nurse."
    )
