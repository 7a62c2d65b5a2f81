"""A request not to keep what follows stores nothing, secrets included (found by a newcomer:
"I don't want you to remember that my password is 1234." was stored word for word)."""

from tests.core.memory_fixtures import hashing_memory


def test_nothing_of_it_is_stored_and_a_statement_beside_it_is():
    scope = hashing_memory().scope(user_id="ada")
    saved = scope.save_turns(
        [
            {"role": "user", "content": "I don't want you to remember that my password is 1234."},
            {"role": "user", "content": "Off the record, my PIN is 9876. I don't remember my PIN."},
        ]
    )
    assert [item.text for item in saved] == ["I don't remember my PIN."]
