"""An async agent run takes the user from ``configurable`` in every memory part, on every Python
the package supports: before 3.11 a run's config does not reach async code through the context,
so the middleware (recall before each model call, save after the turn) and the memory tools
must get it from LangGraph instead."""

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware, create_memory_tools

from tests.langchain.fakes import call, scripted, small_store

USER = ("users", "{user_id}")


async def test_recall_tools_and_save_all_use_the_configurable_user():
    store = small_store()
    store.put(("users", "ada"), "tea", {"text": "Ada drinks green tea."})
    store.put(("users", "bob"), "coffee", {"text": "Bob drinks coffee."})
    model = scripted(call("remember", "c1", text="Ada has a cat called Pixel."), "Noted.")
    agent = create_agent(
        model, create_memory_tools(store, USER), middleware=[MemoryMiddleware(store, USER)]
    )

    await agent.ainvoke(
        {"messages": [("user", "I go hiking every Sunday.")]},
        {"configurable": {"user_id": "ada", "thread_id": "sunday"}},
    )

    assert len(model.prompts) == 2  # the tool call, then the answer
    for prompt in model.prompts:
        assert "Ada drinks green tea." in prompt[0].text and "Bob" not in prompt[0].text
    saved = {item.value["text"]: item.value for item in store.search(("users", "ada"))}
    assert "Ada has a cat called Pixel." in saved  # by the remember tool
    assert saved["I go hiking every Sunday."]["session_id"] == "sunday"  # after the turn
    assert [i.value["text"] for i in store.search(("users", "bob"))] == ["Bob drinks coffee."]
