"""A user's memory and an organisation's memory, two named blocks in one LlamaIndex Memory."""

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import MemvaultMemoryBlock, memvault_memory

from memvault import AgentMemory


def _memory(store, session_id):
    user = AgentMemory(store, ("users", "{user_id}"), name="user")
    organisation = AgentMemory(store, ("orgs", "acme"), name="organisation")
    org_block = MemvaultMemoryBlock(organisation, accept_short_term_memory=False)
    return memvault_memory(user, user_id="alice", session_id=session_id, memory_blocks=[org_block])


def _block(prompt, name):
    return prompt.split(f"<{name}>\n")[1].split(f"\n</{name}>")[0]


def test_each_block_recalls_its_own_namespace_under_its_own_tag(store, recording_llm):
    AgentMemory(store, ("orgs", "acme")).scope().remember("The office kitchen is nut-free.")
    SimpleChatEngine.from_defaults(llm=recording_llm(), memory=_memory(store, "s1")).chat(
        "I am allergic to kiwi."
    )
    llm = recording_llm()
    memory = _memory(store, "s2")

    SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat(
        "Can I bring kiwi to the office kitchen?"
    )

    assert [block.name for block in memory.memory_blocks] == ["user", "organisation"]
    (prompt,) = llm.prompts
    user, organisation = _block(prompt, "user"), _block(prompt, "organisation")
    assert '{"text": "I am allergic to kiwi."' in user and "nut-free" not in user
    assert (
        '{"text": "The office kitchen is nut-free."' in organisation and "kiwi" not in organisation
    )
    # The user's words were written to the user's memory only.
    assert [item.text for item in store.search(("orgs",))] == ["The office kitchen is nut-free."]
    assert [item.text for item in store.search(("users",))] == ["I am allergic to kiwi."]
