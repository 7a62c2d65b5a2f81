"""With an extractor and a reconciler, ``stream_mode="messages"`` shows only the agent's own
tokens: memvault's model calls carry LangGraph's ``nostream`` tag (sync and async runs)."""

import asyncio

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor, Reconciler
from tests.langchain.fakes import scripted, small_store

REPLY = "Porto is lovely in spring."
MEMORY_REPLIES = [
    '{"facts": ["The user lives in Lisbon."]}',
    '{"facts": ["The user moved to Porto."]}',
    '{"decisions": [{"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}]}',
]


def agent_and_store():
    store = small_store()
    memory_model = GenericFakeChatModel(messages=iter(MEMORY_REPLIES))
    middleware = MemoryMiddleware(
        store, extractor=FactExtractor(memory_model), reconciler=Reconciler(memory_model)
    )
    agent = create_agent(scripted("Noted!", REPLY), middleware=[middleware])
    return agent, store


def turn(text):
    return {"messages": [("user", text)]}, {"configurable": {"thread_id": "t1"}}


def test_a_sync_stream_holds_only_the_agents_tokens():
    agent, store = agent_and_store()
    agent.invoke(*turn("I live in Lisbon."), context={"user_id": "ada"})
    streamed = "".join(
        str(chunk.content)
        for chunk, _ in agent.stream(
            *turn("I moved to Porto."), stream_mode="messages", context={"user_id": "ada"}
        )
    )

    assert streamed == REPLY
    assert [i.text for i in store.search(("users", "ada"))] == ["The user lives in Porto."]


def test_an_async_stream_holds_only_the_agents_tokens():
    agent, store = agent_and_store()

    async def run():
        await agent.ainvoke(*turn("I live in Lisbon."), context={"user_id": "ada"})
        return [
            str(chunk.content)
            async for chunk, _ in agent.astream(
                *turn("I moved to Porto."), stream_mode="messages", context={"user_id": "ada"}
            )
        ]

    assert "".join(asyncio.run(run())) == REPLY
    assert [i.text for i in store.search(("users", "ada"))] == ["The user lives in Porto."]
