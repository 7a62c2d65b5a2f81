"""A statement saved through the agent-memory layer carries the context an ingested turn has:
the same function (``memvault.conversations.with_context``) over its session's turns, so the
turn's date, the two messages before it (from the session's previous turns too), the whole
message and the message after it; ``text`` stays the statement."""

import time

from memvault.conversations import format_session_date, parse_locomo, with_context
from memvault.statements import memorable_text
from tests.core.memory_fixtures import hashing_memory

MAY_8 = 1683554160.0  # 1:56 pm on 8 May, 2023 (UTC)
CONVERSATION = {
    "speaker_a": "Caroline",
    "speaker_b": "Melanie",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! I went to a support group."},
        {"speaker": "Melanie", "dia_id": "D1:2", "text": "How was it?"},
        {"speaker": "Caroline", "dia_id": "D1:3", "text": "It was powerful, I felt accepted."},
        {"speaker": "Melanie", "dia_id": "D1:4", "text": "I painted a lake sunrise last year."},
    ],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": [
        {"speaker": "Melanie", "dia_id": "D2:1", "text": "I ran a charity race on Saturday."},
        {"speaker": "Caroline", "dia_id": "D2:2", "text": "That's great!"},
        {"speaker": "Caroline", "dia_id": "D2:3", "text": "Yes, I am going to adopt a child."},
    ],
}


def user(text):
    return {"role": "user", "content": text}


def assistant(text):
    return {"role": "assistant", "content": text}


def test_a_conversation_saved_turn_by_turn_has_the_contexts_of_its_ingested_turns():
    ingested = with_context(parse_locomo(CONVERSATION, source="chat"))
    memory = hashing_memory()
    for turn in ingested:  # each turn saved on its own, in its session, at its session's time
        scope = memory.scope(user_id="caroline", session_id=f"session-{turn.session}")
        message = {"role": "user", "name": turn.speaker, "content": turn.text}
        scope.save_turns([message], timestamp=turn.timestamp)

    saved = {item.text: item.value["context"] for item in memory.scope(user_id="caroline").list()}
    statements = {memorable_text(t.text): t.context for t in ingested if memorable_text(t.text)}
    assert saved == statements
    assert saved["I painted a lake sunrise last year."] == (  # the session ends there
        "1:56 pm on 8 May, 2023\n"
        "Melanie: How was it?\n"
        "Caroline: It was powerful, I felt accepted.\n"
        "Melanie: I painted a lake sunrise last year."
    )


def test_a_statement_is_dated_and_framed_by_the_messages_around_it():
    scope = hashing_memory().scope(user_id="alice", thread_id="t1")
    scope.save_turns(
        [user("Which fruit is safe for me?"), assistant("Apples are.")], timestamp=MAY_8
    )
    turn = [user("Thanks! I am allergic to kiwi."), assistant("Noted, no kiwi.")]
    (item,) = scope.save_turns(turn, timestamp=MAY_8 + 60)

    assert item.text == "I am allergic to kiwi."
    assert item.value["context"] == (
        "1:57 pm on 8 May, 2023\n"
        "user: Which fruit is safe for me?\n"
        "assistant: Apples are.\n"
        "user: Thanks! I am allergic to kiwi.\n"
        "assistant: Noted, no kiwi."
    )


def test_another_session_starts_without_the_turns_before():
    memory = hashing_memory()
    memory.scope(user_id="alice", thread_id="t1").save_turns(
        [user("Hello!"), assistant("Hi, how can I help?")], timestamp=MAY_8
    )
    (item,) = memory.scope(user_id="alice", thread_id="t2").save_turns(
        [user("I am allergic to kiwi."), assistant("Noted.")], timestamp=MAY_8
    )
    assert item.value["context"] == (
        "1:56 pm on 8 May, 2023\nuser: I am allergic to kiwi.\nassistant: Noted."
    )


def test_without_a_timestamp_the_turn_is_dated_when_it_is_saved():
    scope = hashing_memory().scope(user_id="alice")
    before = time.time()
    (item,) = scope.save_turns([user("I am allergic to kiwi.")])
    after = time.time()
    date = item.value["context"].split("\n")[0]
    assert date in {format_session_date(before), format_session_date(after)}


def test_without_a_timestamp_the_date_is_the_stores_clock():
    from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
    from memvault.testing import FakeClock

    store = MemoryStore(
        backend=InMemoryBackend(), embedder=HashingEmbedder(64), clock=FakeClock(MAY_8).time
    )
    (item,) = AgentMemory(store).scope(user_id="alice").save_turns([user("I am allergic to kiwi.")])
    assert item.value["context"].split("\n")[0] == "1:56 pm on 8 May, 2023"
    assert item.updated_at == MAY_8
