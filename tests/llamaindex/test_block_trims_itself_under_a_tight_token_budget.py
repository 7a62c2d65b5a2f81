from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import memvault_memory


async def test_the_least_relevant_memories_go_and_every_user_message_stays(store):
    store.put_many(
        ("users", "alice"),
        [
            (f"m{n}", {"text": f"The user visited city number {n} on a long trip."})
            for n in range(20)
        ]
        + [("allergy", {"text": "The user is allergic to peanuts."})],
    )
    memory = memvault_memory(store, user_id="alice", session_id="s1", k=21, token_limit=400)
    said = [f"Message {n}: a short note about peanuts and travel plans." for n in range(6)]
    for text in said:
        await memory.aput(ChatMessage(role="user", content=text))
        await memory.aput(ChatMessage(role="assistant", content="Noted."))
    untrimmed = await memvault_memory(store, user_id="alice", k=21).aget(input=said[-1])

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
