"""Reconciliation through ``create_agent`` with ``MemoryMiddleware``: a move supersedes the
fact (the old one closed, not overwritten), a change of diet retires the old one, a repeat
changes nothing, an invented id touches nothing and a garbage reply keeps every new fact."""

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor, Reconciler
from tests.langchain.fakes import scripted, small_store
from tests.scenarios.reconciliation import SCENARIOS


def remember_through_an_agent(said, model_replies):
    """Each text said in its own thread to an agent whose memory extracts and reconciles."""
    store = small_store()
    model = GenericFakeChatModel(messages=iter(model_replies))
    middleware = MemoryMiddleware(
        store, extractor=FactExtractor(model), reconciler=Reconciler(model)
    )
    agent = create_agent(scripted(*["Noted."] * len(said)), middleware=[middleware])
    for thread, text in enumerate(said):
        agent.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"thread_id": f"t{thread}"}},
            context={"user_id": "ada"},
        )
    return store


@pytest.mark.parametrize("said, model_replies, live", SCENARIOS.values(), ids=SCENARIOS)
def test_scenario(said, model_replies, live):
    store = remember_through_an_agent(said, model_replies)

    assert sorted(item.text for item in store.search(("users", "ada"))) == live


def test_the_move_closes_the_old_fact_and_the_history_keeps_both():
    said, model_replies, _ = SCENARIOS["a move updates the fact"]
    store = remember_through_an_agent(said, model_replies)

    (porto,) = store.search(("users", "ada"))
    lisbon = store.get(("users", "ada"), porto.value["supersedes"])
    assert (porto.text, lisbon.text) == ("The user lives in Porto.", "The user lives in Lisbon.")
    assert lisbon.valid_to == porto.valid_from and porto.valid_to is None
    versions = store.history(("users", "ada"), lisbon.key)
    assert [(v.event, v.after["text"], v.after.get("superseded_by")) for v in versions] == [
        ("add", "The user lives in Lisbon.", None),
        ("update", "The user lives in Lisbon.", porto.key),
    ]
