from llama_index.core.chat_engine import CondensePlusContextChatEngine
from llama_index.memory.memvault import MemvaultRetriever, memvault_memory


def _engine(store, llm, user_id, session_id):
    return CondensePlusContextChatEngine.from_defaults(
        retriever=MemvaultRetriever(store, namespace=("docs",)),
        llm=llm,
        memory=memvault_memory(store, user_id=user_id, session_id=session_id),
    )


async def test_a_new_session_sends_the_llm_earlier_memories_and_retrieved_docs(
    open_disk_store, recording_llm
):
    store = open_disk_store()
    store.put(("docs",), "menu", {"text": "The cafe menu has peanut-free rice bowls."})
    await _engine(store, recording_llm(), "alice", "s1").achat("I am allergic to peanuts.")
    store.close()

    store = open_disk_store()
    llm = recording_llm()
    await _engine(store, llm, "alice", "s2").achat("What can I eat at the cafe with my allergy?")

    answer_prompt = llm.prompts[-1]
    assert '{"text": "I am allergic to peanuts."' in answer_prompt
    assert "The cafe menu has peanut-free rice bowls." in answer_prompt


def test_another_user_gets_the_docs_but_not_alices_memories(open_disk_store, recording_llm):
    store = open_disk_store()
    store.put(("docs",), "menu", {"text": "The cafe menu has peanut-free rice bowls."})
    _engine(store, recording_llm(), "alice", "s1").chat("I am allergic to peanuts.")
    store.close()

    store = open_disk_store()
    llm = recording_llm()
    _engine(store, llm, "bob", "s2").chat("What can I eat at the cafe with my allergy?")

    assert all("allergic to peanuts" not in prompt for prompt in llm.prompts)
    assert "The cafe menu has peanut-free rice bowls." in llm.prompts[-1]
