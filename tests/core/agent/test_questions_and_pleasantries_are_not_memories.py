"""Only statements become memories: questions, requests and pleasantries are left out."""

import pytest

from memvault.statements import memorable_text, speech_act
from tests.core.memory_fixtures import hashing_memory


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        ("Which nuts should I avoid?", "question"),
        ("From memory: Which nuts should I avoid?", "question"),
        ("what should I cook tonight", "question"),
        ("Can you book a table for two", "question"),
        ("Do I have any allergies", "question"),
        ("Plan a weekend trip for me.", "request"),
        ("Please summarise our last chat.", "request"),
        ("Let's pick a restaurant.", "request"),
        ("Forget that I am learning Portuguese.", "request"),
        ("Thanks!", "pleasantry"),
        ("Thank you so much", "pleasantry"),
        ("OK, sounds good.", "pleasantry"),
        ("Hi!", "pleasantry"),
        ("I am allergic to kiwi.", "statement"),
        ("My daughter Maya starts school in September.", "statement"),
        ("Remember that I am vegan.", "statement"),
        ("We moved to Porto last year", "statement"),
    ],
)
def test_speech_acts(sentence, act):
    assert speech_act(sentence) == act


def test_a_mixed_message_keeps_its_statements():
    text = "Thanks! By the way, I am allergic to kiwi. Which fruit is safe?"
    assert memorable_text(text) == "I am allergic to kiwi."
    assert memorable_text("Remember that I'm vegan.") == "I'm vegan."
    assert memorable_text("Plan a weekend trip for me. Thanks!") is None


def test_a_turn_of_questions_and_thanks_stores_nothing():
    scope = hashing_memory().scope(user_id="alice")
    scope.save_turns(
        [
            {"role": "user", "content": "Which nuts should I avoid?"},
            {"role": "assistant", "content": "Peanuts, as you told me."},
            {"role": "user", "content": "Plan a weekend trip for me."},
            {"role": "user", "content": "Thanks a lot!"},
        ]
    )
    assert scope.list() == []


def test_a_stored_question_never_outranks_the_statement_that_answers():
    memory = hashing_memory()
    scope = memory.scope(user_id="alice")
    # Stored around the layer (e.g. by `memvault ingest`), word for word like the query.
    memory.store.put(("users", "alice"), "q", {"text": "Which food allergies do I have?"})
    scope.remember("I have a food allergy to peanuts.")
    recalled = scope.recall("Which food allergies do I have?", k=2)
    assert [i.text for i in recalled] == [
        "I have a food allergy to peanuts.",
        "Which food allergies do I have?",
    ]


def test_pasted_material_is_not_a_memory():
    document = "The quarterly report shows " + "revenue grew and costs fell, " * 100 + "overall."
    assert memorable_text(f"I am allergic to kiwi. {document}") == "I am allergic to kiwi."
