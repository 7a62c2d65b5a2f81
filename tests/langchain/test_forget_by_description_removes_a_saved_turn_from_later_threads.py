"""A forget call by description removes the turn the middleware saved in an earlier thread."""

from langchain.agents import create_agent
from langchain_core.messages import SystemMessage, ToolMessage
from langchain_memvault import MemoryMiddleware, create_memory_tools
from langgraph.checkpoint.memory import InMemorySaver

from memvault import memory_key
from tests.langchain.fakes import call, scripted, small_store

SAID = "I am learning Portuguese."


def test_the_next_threads_prompt_no_longer_carries_the_forgotten_turn():
    store = small_store()
    model = scripted(
        "Boa sorte!",  # thread 1
        call("forget", "c1", memory="that I am learning Portuguese"),  # thread 2
        "Done, I forgot it.",
        "I don't know what you are learning.",  # thread 3
    )
    agent = create_agent(
        model,
        create_memory_tools(store),
        middleware=[MemoryMiddleware(store)],
        checkpointer=InMemorySaver(),
    )

    def ask(text, thread):
        return agent.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"thread_id": thread}},
            context={"user_id": "ada"},
        )

    ask(SAID, "t1")
    (saved,) = store.search(("users", "ada"))
    assert (saved.key, saved.value["kind"], saved.value["session_id"]) == (
        memory_key(SAID),
        "turn",
        "t1",
    )

    result = ask("Please forget that I am learning Portuguese.", "t2")
    assert SAID in model.prompts[1][0].text  # recalled before the forget call
    (tool_message,) = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert tool_message.text.startswith("Forgot 1 memory:")
    assert memory_key(SAID) in tool_message.text
    assert store.count(("users", "ada")) == 0  # the request to forget is not saved either

    ask("What language am I learning?", "t3")
    prompt = model.prompts[-1]
    assert not any(isinstance(m, SystemMessage) for m in prompt)  # nothing left to recall
    assert "Portuguese" not in "\n".join(m.text for m in prompt)
