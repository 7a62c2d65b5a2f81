import json

from llama_index.memory.memvault import MemvaultToolSpec

from memvault import AgentMemory, memory_key
from memvault.memory_tools import MEMORY_TOOLS


def _tools(store, user_id, **options):
    spec = MemvaultToolSpec(store, user_id=user_id, **options)
    return {tool.metadata.name: tool for tool in spec.to_tool_list()}


def _ids_and_texts(content):
    return [
        (line["id"], line["text"])
        for line in map(json.loads, (x for x in content.split("\n") if x.startswith('{"id"')))
    ]


def test_the_model_fills_only_typed_arguments_never_a_namespace(store):
    tools = _tools(store, "alice")
    schemas = {name: tool.metadata.fn_schema.model_json_schema() for name, tool in tools.items()}

    assert {name: set(s["properties"]) for name, s in schemas.items()} == {
        "remember": {"text", "replaces"},
        "recall": {"query", "limit", "as_of"},
        "forget": {"memory", "erase"},
        "list_memories": {"limit", "offset"},
    }
    assert schemas["recall"]["properties"]["limit"]["type"] == "integer"
    assert all(p.get("description") for s in schemas.values() for p in s["properties"].values())
    assert [t.metadata.description for t in tools.values()] == [s.description for s in MEMORY_TOOLS]
    assert all(tool.requires_context and tool.ctx_param_name == "ctx" for tool in tools.values())


def test_a_named_memory_and_a_prefix_tell_two_tool_sets_apart(store):
    org = AgentMemory(store, ("orgs", "acme"), name="organisation")
    tools = _tools(org, None, prefix="org_")

    assert list(tools) == ["org_remember", "org_recall", "org_forget", "org_list_memories"]
    assert all("'organisation' memory" in t.metadata.description for t in tools.values())
    tools["org_remember"].call(text="The office is closed on Fridays.")
    assert [item.text for item in store.search(("orgs", "acme"))] == [
        "The office is closed on Fridays."
    ]


def test_remember_recall_forget_and_list_work_sync(store):
    tools = _tools(store, "alice")

    saved = tools["remember"].call(text="The user is allergic to peanuts.").content
    tools["remember"].call(text="The user lives in Porto.")
    recalled = tools["recall"].call(query="peanuts allergy", limit=1).content
    ((key, text),) = _ids_and_texts(recalled)

    assert saved == f"Remembered (id {key}): The user is allergic to peanuts."
    assert text == "The user is allergic to peanuts." and key == memory_key(text)
    assert tools["forget"].call(memory=key).content.startswith("Forgot 1 memory:")
    listed = tools["list_memories"].call().content
    assert [t for _, t in _ids_and_texts(listed)] == ["The user lives in Porto."]
    assert tools["forget"].call(memory=key).content == (
        f"No memory matches {key!r}; nothing was forgotten."
    )


async def test_remember_recall_forget_and_list_work_async(store):
    tools = _tools(store, "alice")

    await tools["remember"].acall(text="The user is allergic to peanuts.")
    again = (await tools["remember"].acall(text="the user is allergic to peanuts")).content
    recalled = (await tools["recall"].acall(query="peanuts")).content
    ((key, _),) = _ids_and_texts(recalled)
    forgot = (await tools["forget"].acall(memory="that the user is allergic to peanuts")).content

    assert again == f"Remembered (id {key}, said 2 times): the user is allergic to peanuts"
    assert forgot.startswith("Forgot 1 memory:") and key in forgot
    assert (await tools["list_memories"].acall()).content == "No memories found."


def test_one_users_tools_cannot_reach_another_users_memories(store):
    _tools(store, "alice")["remember"].call(text="The user is allergic to peanuts.")
    bob = _tools(store, "bob")
    alice_id = store.search(("users", "alice"))[0].key

    assert bob["recall"].call(query="peanuts").content == "No memories found."
    assert bob["list_memories"].call().content == "No memories found."
    assert bob["forget"].call(memory=alice_id).content.startswith("No memory matches")
    assert (
        bob["forget"]
        .call(memory="that the user is allergic to peanuts")
        .content.startswith("No memory matches")
    )
    assert store.count(("users", "alice")) == 1
