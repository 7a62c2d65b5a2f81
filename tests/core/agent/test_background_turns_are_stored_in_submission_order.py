"""Background turns run one at a time in the order they were handed over, so later turns of a
user are stored after earlier ones, whatever the user or the session."""

from memvault import FactExtractor
from tests.core.memory_fixtures import hashing_memory
from tests.core.slow_llms import SlowLLM, fact_of


def test_turns_are_extracted_and_stored_in_order():
    llm = SlowLLM(0.02)
    memory = hashing_memory(extractor=FactExtractor(llm), background=True)
    said = [(f"user{n % 2}", f"I moved to city number {n}.") for n in range(8)]
    for user, text in said:
        memory.scope(user_id=user).save_turns([{"role": "user", "content": text}])
    assert memory.flush(timeout=30)

    assert llm.seen == [[text] for _, text in said]
    for user in ("user0", "user1"):
        stored = memory.scope(user_id=user).list(limit=10)  # most recently updated first
        expected = [fact_of(text) for who, text in said if who == user]
        assert [item.text for item in reversed(stored)] == expected
        times = [item.updated_at for item in reversed(stored)]
        assert times == sorted(times)
