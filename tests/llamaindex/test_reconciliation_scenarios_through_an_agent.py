"""Reconciliation through a LlamaIndex ``FunctionAgent`` with a memvault ``Memory``: the same
scenarios as the LangChain agent's (a move, a change of diet, a repeat, an invented id, a
garbage reply), each session a new ``Memory`` of the same user."""

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.memory.memvault import memvault_memory

from memvault import FactExtractor, Reconciler
from tests.scenarios.reconciliation import SCENARIOS


@pytest.mark.parametrize("said, model_replies, live", SCENARIOS.values(), ids=SCENARIOS)
async def test_scenario(store, scripted_agent_llm, said, model_replies, live):
    replies = iter(model_replies)

    def model(messages):
        return next(replies)

    agent = FunctionAgent(tools=[], llm=scripted_agent_llm(), system_prompt="Be brief.")
    for session, text in enumerate(said):
        memory = memvault_memory(
            store,
            user_id="ada",
            session_id=f"s{session}",
            extractor=FactExtractor(model),
            reconciler=Reconciler(model),
        )
        await agent.run(text, memory=memory)

    assert sorted(item.text for item in store.search(("users", "ada"))) == live
