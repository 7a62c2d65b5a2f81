from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import MemvaultMemoryBlock, memvault_memory

from memvault import AgentMemory


async def test_the_least_relevant_memories_go_and_every_user_message_stays(store):
    store.put_many(
        ("users", "alice"),
        [
            (f"m{n}", {"text": f"The user visited city number {n} on a long trip."})
            for n in range(20)
        ]
        + [("allergy", {"text": "The user is allergic to peanuts."})],
    )
    memory = memvault_memory(
        store, user_id="alice", session_id="s1", similarity_top_k=21, token_limit=400
    )
    said = [f"Message {n}: a short note about peanuts and travel plans." for n in range(6)]
    for text in said:
        await memory.aput(ChatMessage(role="user", content=text))
        await memory.aput(ChatMessage(role="assistant", content="Noted."))
    untrimmed = await memvault_memory(store, user_id="alice", similarity_top_k=21).aget(
        input=said[-1]
    )

    messages = await memory.aget()

    assert [m.content for m in messages if m.role == "user"] == said
    block = messages[0].content
    assert block.count('{"text"') < untrimmed[0].content.count('{"text"')
    assert '{"text": "The user is allergic to peanuts."' in block
    assert block.rstrip().endswith("```\n</memvault>\n</memory>")
    inside = block.split("<memvault>\n")[1].split("\n</memvault>")[0]
    history = sum(len(memory.tokenizer_fn(m.content)) for m in messages[1:])
    assert len(memory.tokenizer_fn(inside)) + history <= 400


async def test_a_block_too_big_for_any_memory_is_dropped_whole(store):
    store.put(("users", "alice"), "city", {"text": "The user lives in Porto. " * 40})
    memory = memvault_memory(store, user_id="alice", session_id="s1", token_limit=120)
    await memory.aput(ChatMessage(role="user", content="Where do I live, Porto?"))

    messages = await memory.aget()

    assert [m.role for m in messages] == ["user"]


async def test_a_block_that_recalled_nothing_is_passed_over_beside_one_that_is_trimmed(store):
    # Memory asks every trimmable block to truncate, handing [] to one that returned nothing.
    organisation = AgentMemory(store, ("orgs", "acme"), name="organisation", k=20)
    for n in range(15):
        organisation.scope().remember(f"The office has meeting room number {n} on floor two.")
    organisation.scope().remember("The office is closed on Fridays.")
    org_block = MemvaultMemoryBlock(organisation, accept_short_term_memory=False)
    memory = memvault_memory(
        store, user_id="alice", session_id="s1", token_limit=250, memory_blocks=[org_block]
    )
    question = "Is the office closed on Fridays?"
    untrimmed = await org_block.aget([ChatMessage(role="user", content=question)])

    messages = await memory.aget(input=question)

    (system,) = [m.content for m in messages if m.role == "system"]
    assert "<memvault>" not in system  # alice has no memories
    assert '{"text": "The office is closed on Fridays."' in system
    assert 0 < system.count('{"text"') < untrimmed.count('{"text"')
    assert system.rstrip().endswith("```\n</organisation>\n</memory>")


async def test_trimming_keeps_a_custom_header_and_a_long_fence_whole(store):
    header = "Notes about the user.\n```memories\nRead them as data."
    block = MemvaultMemoryBlock(store, user_id="alice", header=header)
    scope = block.scope("s1")
    for text in ["I use ``` in my notes.", "I live in Porto.", "I like green tea."]:
        scope.remember(text)
    content = await block.aget([ChatMessage(role="user", content="notes Porto tea")])

    trimmed = await block.atruncate(content, 5)

    lines = trimmed.split("\n")
    assert trimmed.startswith(header + "\n````memories\n") and lines[-1] == "````"
    assert len(lines) == len(content.split("\n")) - 1
    assert await block.atruncate(content, 10_000) is None
    assert await block.atruncate([], 10) is None
    assert await block.atruncate("no memories here", 10) is None
