"""The last turns are kept for the most recently saved sessions only (bounded memory): a session
saved to less recently than the last ``kept_sessions`` starts again without its turns before."""

from memvault.turn_context import SessionTails

MAY_8 = 1683554160.0  # 1:56 pm on 8 May, 2023 (UTC)
ALICE = ("users", "alice")


def said(tails, session, text):
    window = tails.window((ALICE, session), [{"role": "user", "content": text}], MAY_8)
    tails.record(window)
    return window.turns[0].context.split("\n")[1:]


def test_the_least_recently_saved_session_is_forgotten_first():
    tails = SessionTails(kept_sessions=2)
    said(tails, "t1", "I live in Porto.")
    said(tails, "t2", "I work as a nurse.")
    assert said(tails, "t1", "I have a cat.") == ["user: I live in Porto.", "user: I have a cat."]
    said(tails, "t3", "I play chess.")  # t2 was saved to least recently: forgotten

    assert said(tails, "t2", "I swim.") == ["user: I swim."]
    assert said(tails, "t3", "I sing.") == ["user: I play chess.", "user: I sing."]
