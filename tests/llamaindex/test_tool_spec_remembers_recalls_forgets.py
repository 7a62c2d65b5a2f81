import json

from llama_index.memory.memvault import MemvaultToolSpec


def _tools(store, user_id):
    return {
        tool.metadata.name: tool for tool in MemvaultToolSpec(store, user_id=user_id).to_tool_list()
    }


def test_the_model_fills_only_typed_arguments_never_a_namespace(store):
    tools = _tools(store, "alice")
    schemas = {name: tool.metadata.fn_schema.model_json_schema() for name, tool in tools.items()}

    assert {name: set(s["properties"]) for name, s in schemas.items()} == {
        "remember": {"text"},
        "recall": {"query", "limit"},
        "forget": {"memory_id"},
        "list_memories": {"limit"},
    }
    assert schemas["recall"]["properties"]["limit"]["type"] == "integer"
    assert all(p.get("description") for s in schemas.values() for p in s["properties"].values())


def test_remember_recall_forget_and_list_work_sync(store):
    tools = _tools(store, "alice")

    saved = tools["remember"].call(text="The user is allergic to peanuts.").content
    tools["remember"].call(text="The user lives in Porto.")
    recalled = tools["recall"].call(query="peanuts allergy", limit=1).content
    (line,) = [json.loads(x) for x in recalled.splitlines()[1:]]

    assert line["text"] == "The user is allergic to peanuts." and line["id"] in saved
    assert tools["forget"].call(memory_id=line["id"]).content.startswith("Forgot")
    listed = tools["list_memories"].call().content
    assert "Porto" in listed and "peanuts" not in listed
    assert tools["forget"].call(memory_id=line["id"]).content == f"No memory with id {line['id']}."


async def test_remember_recall_forget_and_list_work_async(store):
    tools = _tools(store, "alice")

    await tools["remember"].acall(text="The user is allergic to peanuts.")
    await tools["remember"].acall(text="The user is allergic to peanuts.")
    recalled = (await tools["recall"].acall(query="peanuts")).content
    (line,) = [json.loads(x) for x in recalled.splitlines()[1:]]
    await tools["forget"].acall(memory_id=line["id"])

    assert (await tools["list_memories"].acall()).content == "No memories found."


def test_one_users_tools_cannot_reach_another_users_memories(store):
    _tools(store, "alice")["remember"].call(text="The user is allergic to peanuts.")
    bob = _tools(store, "bob")

    assert bob["recall"].call(query="peanuts").content == "No memories found."
    assert bob["list_memories"].call().content == "No memories found."
    alice_id = store.search(("users", "alice"))[0].key
    assert bob["forget"].call(memory_id=alice_id).content.startswith("No memory")
    assert store.count(("users", "alice")) == 1
