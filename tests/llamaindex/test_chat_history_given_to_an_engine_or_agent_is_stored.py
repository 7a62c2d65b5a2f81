"""A chat_history handed to an engine or agent (which calls Memory.aset) reaches the store."""

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import MemvaultMemory, memvault_memory

HISTORY = [
    ChatMessage(role="user", content="I am allergic to peanuts."),
    ChatMessage(role="assistant", content="Noted."),
    ChatMessage(role="user", content="I live in Porto."),
    ChatMessage(role="assistant", content="Nice city."),
]


def _stored(store, user_id="alice"):
    return {item.text: item.value["mentions"] for item in store.search(("users", user_id))}


def test_a_chat_engine_stores_the_history_and_the_new_turn(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="alice", session_id="s1")
    )

    engine.chat("I like green tea.", chat_history=HISTORY)

    assert _stored(store) == {
        "I am allergic to peanuts.": 1,
        "I live in Porto.": 1,
        "I like green tea.": 1,
    }


async def test_the_same_history_handed_back_every_call_is_stored_once(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="alice", session_id="s1")
    )
    history = list(HISTORY)
    for said in ["I like green tea.", "I work as a nurse."]:
        response = await engine.achat(said, chat_history=history)
        history += [
            ChatMessage(role="user", content=said),
            ChatMessage(role="assistant", content=response.response),
        ]

    assert set(_stored(store).values()) == {1}
    assert len(_stored(store)) == 4


async def test_an_agent_run_stores_the_history(store, scripted_agent_llm):
    memory = memvault_memory(store, user_id="alice", session_id="s1")
    agent = FunctionAgent(tools=[], llm=scripted_agent_llm(), system_prompt="Be brief.")

    await agent.run("What do you know about me?", chat_history=HISTORY, memory=memory)

    assert _stored(store) == {"I am allergic to peanuts.": 1, "I live in Porto.": 1}


def test_a_history_given_to_from_defaults_is_stored(store):
    MemvaultMemory.from_defaults(store=store, user_id="alice", chat_history=HISTORY)

    assert _stored(store) == {"I am allergic to peanuts.": 1, "I live in Porto.": 1}


def test_without_write_through_nothing_is_stored(store, recording_llm):
    memory = memvault_memory(store, user_id="alice", session_id="s1", write_through=False)

    SimpleChatEngine.from_defaults(llm=recording_llm(), memory=memory).chat(
        "I like green tea.", chat_history=HISTORY
    )

    assert store.count() == 0
