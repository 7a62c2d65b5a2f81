"""Forgetting what the user said of themselves keeps what they said of their family: "family"
was stemmed without the final-"i" rule the memories' words have, so it never matched."""

from tests.core.memory_fixtures import hashing_memory


def test_forget_removes_the_users_fact_and_keeps_their_familys_and_sisters():
    scope = hashing_memory().scope(user_id="alice")
    for text in ("I live in Porto.", "My family lives in Porto.", "My sister lives in Porto."):
        scope.remember(text)
    removed = scope.forget("forget that I live in Porto")
    assert [item.text for item in removed] == ["I live in Porto."]
    assert sorted(item.text for item in scope.list()) == [
        "My family lives in Porto.",
        "My sister lives in Porto.",
    ]
