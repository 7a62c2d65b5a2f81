"""Saved with no LLM, a turn asking the assistant to remember something stores the fact, and
a statement turned into a question by a tag stores nothing."""

from tests.core.memory_fixtures import hashing_memory


def test_a_request_to_remember_is_stored_and_a_tag_question_is_not():
    scope = hashing_memory().scope(user_id="alice")

    remembered = scope.save_turns(
        [{"role": "user", "content": "Can you remember that my birthday is on May 5?"}]
    )
    noted = scope.save_turns(
        [{"role": "user", "content": "Note to self - the wifi password is hunter2"}]
    )
    asked = scope.save_turns([{"role": "user", "content": "I'm allergic to peanuts, right?"}])

    assert [item.text for item in remembered] == ["My birthday is on May 5."]
    assert [item.text for item in noted] == ["The wifi password is hunter2"]
    assert asked == []
    assert sorted(item.text for item in scope.list()) == [
        "My birthday is on May 5.",
        "The wifi password is hunter2",
    ]
