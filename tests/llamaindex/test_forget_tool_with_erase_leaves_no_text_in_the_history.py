"""``forget(memory, erase=True)`` removes the memory's text from its history too; a plain
``forget`` keeps it there."""

from llama_index.memory.memvault import MemvaultToolSpec

from memvault import memory_key

SECRET = "I was treated for hepatitis in 2019."


def forget(store, erase: bool):
    tools = MemvaultToolSpec(store, user_id="alice").to_tool_list(["remember", "forget"])
    remember, forget = tools
    remember.call(text=SECRET)
    key = memory_key(SECRET)
    answer = forget.call(memory=key, erase=erase).content
    assert answer.startswith("Erased 1 memory" if erase else "Forgot 1 memory:")
    assert store.get(("users", "alice"), key) is None
    return store.history(("users", "alice"), key)


def test_erase_leaves_the_events_without_their_text(store):
    history = forget(store, erase=True)
    assert [entry.event for entry in history] == ["add", "erase"]
    assert all(entry.before is None and entry.after is None for entry in history)
    assert "hepatitis" not in repr(history)


def test_a_plain_forget_keeps_the_text_in_the_history(store):
    history = forget(store, erase=False)
    assert [entry.event for entry in history] == ["add", "delete"]
    assert history[-1].before["text"] == SECRET
