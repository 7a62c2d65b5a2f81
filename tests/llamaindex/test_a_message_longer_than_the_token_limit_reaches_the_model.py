"""A message longer than Memory's token limit makes it truncate the memory blocks, never crash.

At default settings (``token_limit=30000``) a new user pasting a 50,000-character document
sends more tokens than the budget; ``Memory`` then asks the memvault block, which recalled
nothing, to truncate ``[]``.
"""

import random
import string

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory

# Random letters tokenise densely: these 50,000 characters are over 30,000 tokens.
PASTED = "".join(random.Random(0).choices(string.ascii_letters + " ", k=50_000))


def _engine(store, llm, user_id="newcomer"):
    memory = memvault_memory(store, user_id=user_id, session_id="s1")
    assert len(memory.tokenizer_fn(PASTED)) > memory.token_limit  # truncation will run
    return SimpleChatEngine.from_defaults(llm=llm, memory=memory)


def test_a_new_users_pasted_document_is_answered(store, recording_llm):
    llm = recording_llm(reply="That is a long document.")

    response = _engine(store, llm).chat(PASTED)

    assert response.response == "That is a long document."
    assert PASTED in llm.prompts[-1]


async def test_the_async_path_answers_it_too(store, recording_llm):
    llm = recording_llm(reply="Read it.")

    response = await _engine(store, llm).achat(PASTED)

    assert response.response == "Read it."
    assert PASTED in llm.prompts[-1]


def test_a_user_with_memories_gets_them_back_once_the_document_has_left_the_history(
    store, recording_llm
):
    store.put(("users", "alice"), "city", {"text": "The user lives in Porto."})
    llm = recording_llm()
    engine = _engine(store, llm, user_id="alice")

    engine.chat(PASTED)
    # No room for memories beside the document, which is sent whole.
    assert llm.prompts[-1].count(PASTED) == 1 and "<memvault>" not in llm.prompts[-1]

    engine.chat("Where do I live?")
    assert PASTED not in llm.prompts[-1]
    assert '{"text": "The user lives in Porto."' in llm.prompts[-1]
