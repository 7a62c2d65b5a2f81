"""atruncate takes every content type Memory may hand a block and never raises.

``Memory`` hands a block what its ``aget`` returned (a ``str``, a list of content blocks or a
list of chat messages), or ``[]`` when it returned nothing.
"""

import pytest
from llama_index.core.base.llms.types import ChatMessage, ImageBlock, TextBlock
from llama_index.memory.memvault import MemvaultMemoryBlock


@pytest.fixture
async def block_and_content(store):
    block = MemvaultMemoryBlock(store, user_id="alice")
    for text in ["I live in Porto.", "I like green tea.", "I work as a nurse."]:
        block.scope("s1").remember(text)
    content = await block.aget([ChatMessage(role="user", content="Porto tea nurse")])
    assert content.count('{"text"') == 3
    return block, content


def _memories(text):
    return text.count('{"text"')


async def test_a_string_a_list_of_text_blocks_and_a_message_are_trimmed_in_their_shape(
    block_and_content,
):
    block, content = block_and_content

    as_str = await block.atruncate(content, 5)
    (as_block,) = await block.atruncate([TextBlock(text=content)], 5)
    (as_message,) = await block.atruncate([ChatMessage(role="system", content=content)], 5)

    assert _memories(as_str) == 2
    assert isinstance(as_block, TextBlock) and as_block.text == as_str
    assert as_message.role == "system" and as_message.content == as_str


@pytest.mark.parametrize(
    "content",
    [
        [],
        None,
        "",
        "no memories here",
        [TextBlock(text="no memories here")],
        [ImageBlock(url="https://example.com/a.png")],
        [ChatMessage(role="user", content="hi"), ChatMessage(role="assistant", content="hello")],
    ],
    ids=["empty-list", "none", "empty-str", "str", "text-blocks", "image", "messages"],
)
async def test_content_holding_no_memory_block_is_dropped_whole(store, content):
    block = MemvaultMemoryBlock(store, user_id="alice")

    assert await block.atruncate(content, 10) is None


async def test_asking_for_more_than_the_block_holds_drops_it_whole(block_and_content):
    block, content = block_and_content

    assert await block.atruncate(content, 10_000) is None
    assert await block.atruncate([TextBlock(text=content)], 10_000) is None
