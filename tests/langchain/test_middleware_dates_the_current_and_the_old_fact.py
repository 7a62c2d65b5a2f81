"""MemoryMiddleware after a move: a question about now is sent Porto only; one naming April
2023 is sent both, Porto first, each line dated with when it held."""

import json

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware

from tests.langchain.fakes import moved_from_lisbon_to_porto, scripted, small_store

PORTO = {"text": "I moved to Porto.", "since": "2023-06-02"}
LISBON = {"text": "I live in Lisbon.", "since": "2023-03-01", "until": "2023-06-02"}


def injected(question: str) -> list[dict]:
    """The memory lines the model is sent with ``question``."""
    store = small_store()
    moved_from_lisbon_to_porto(store, ("users", "ada"))
    model = scripted("ok")
    agent = create_agent(model, middleware=[MemoryMiddleware(store, save=False)])
    agent.invoke({"messages": [("user", question)]}, context={"user_id": "ada"})
    system = model.prompts[0][0].text
    return [json.loads(line) for line in system.splitlines() if line.startswith("{")]


def test_a_question_about_now_is_sent_the_current_fact_only():
    assert injected("Where do I live?") == [PORTO]


def test_a_question_naming_april_2023_is_sent_both_dated_current_first():
    assert injected("Where did I live in April 2023?") == [PORTO, LISBON]
