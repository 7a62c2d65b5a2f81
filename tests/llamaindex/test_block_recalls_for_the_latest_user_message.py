"""The block recalls for the latest user text, whatever form the input takes."""

from llama_index.core.base.llms.types import ImageBlock, TextBlock
from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import MemvaultMemoryBlock, memvault_memory

ALLERGY = "The user is allergic to peanuts."
CITY = "The user lives in Porto."


def _seed(store):
    store.put(("users", "alice"), "allergy", {"text": ALLERGY})
    store.put(("users", "alice"), "city", {"text": CITY})


def _block_text(messages):
    return "\n".join(m.content or "" for m in messages if m.role == "system")


async def test_a_chat_message_input_is_recalled_for(store):
    _seed(store)
    memory = memvault_memory(store, user_id="alice", similarity_top_k=1)
    messages = await memory.aget(
        input=ChatMessage(role="user", content="Am I allergic to peanuts?")
    )
    assert ALLERGY in _block_text(messages) and CITY not in _block_text(messages)


async def test_a_string_input_with_empty_history_is_recalled_for(store):
    _seed(store)
    memory = memvault_memory(store, user_id="alice", similarity_top_k=1)
    messages = await memory.aget(input="Where do I live in Porto?")
    assert CITY in _block_text(messages) and ALLERGY not in _block_text(messages)


async def test_the_latest_user_message_in_history_is_recalled_for(store):
    _seed(store)
    memory = memvault_memory(store, user_id="alice", similarity_top_k=1)
    await memory.aput(ChatMessage(role="user", content="Where do I live? Porto?"))
    await memory.aput(ChatMessage(role="assistant", content="Let me check."))
    messages = await memory.aget()
    assert CITY in _block_text(messages)


async def test_a_message_of_content_blocks_is_read_by_its_text(store):
    _seed(store)
    block = MemvaultMemoryBlock(store, user_id="alice", similarity_top_k=1)
    message = ChatMessage(
        role="user",
        blocks=[
            ImageBlock(url="https://example.com/menu.png"),
            TextBlock(text="Can I eat this? It has peanuts and I am allergic."),
        ],
    )
    content = await block.aget([message], session_id="s1")
    assert ALLERGY in content and CITY not in content


async def test_no_user_text_recalls_nothing(store):
    _seed(store)
    block = MemvaultMemoryBlock(store, user_id="alice")
    assert await block.aget(None, session_id="s1") == ""
    assert await block.aget([], session_id="s1") == ""
    image_only = ChatMessage(role="user", blocks=[ImageBlock(url="https://example.com/a.png")])
    assert await block.aget([image_only], session_id="s1") == ""
    messages = await memvault_memory(store, user_id="alice").aget()
    assert messages == []
