"""`memvault get`, `list` and `search` end each memory's line with who wrote it and in which
session (`[user · t1]`, `[tool]`); a memory written through the API in no session carries no
mark. `--json` and an export carry the provenance as an object; an ingested chat records each
turn as its speaker's."""

import json

import pytest

from memvault import AgentMemory, MemoryStore
from memvault.memory_tools import run_memory_tool
from tests.core.cli import cli, cli_json

ADA = ("users", "ada")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("provenance") / "store"
    with MemoryStore(folder) as store:
        scope = AgentMemory(store).scope(user_id="ada", session_id="t1")
        scope.save_turns([{"role": "user", "content": "I have a cat called Miso."}])
        run_memory_tool(
            AgentMemory(store).scope(user_id="ada"), "remember", {"text": "Ada rides a red bike."}
        )
        store.put(ADA, "plain", {"text": "Ada was born in Porto."})
    return folder


def ends(*args, store):
    return sorted(line.rsplit(")", 1)[1] for line in cli(*args, store=store).stdout.splitlines())


def test_list_search_and_get_end_each_line_with_who_wrote_it(store):
    assert ends("list", "-n", "users/ada", store=store) == ["", " [tool]", " [user · t1]"]
    assert ends("search", "cat bike Porto", "-n", "users/ada", store=store) == [
        "",
        " [tool]",
        " [user · t1]",
    ]
    assert ends("get", "plain", "-n", "users/ada", store=store) == [""]


def test_json_and_export_carry_the_provenance(store, tmp_path):
    listed = {i["value"]["text"]: i["provenance"] for i in cli_json("list", store=store)}
    assert listed == {
        "I have a cat called Miso.": {"origin": "user", "session": "t1"},
        "Ada rides a red bike.": {"origin": "tool", "session": None},
        "Ada was born in Porto.": {"origin": "api", "session": None},
    }
    cli("export", str(tmp_path / "ada.jsonl"), store=store)
    lines = [json.loads(line) for line in (tmp_path / "ada.jsonl").read_text().splitlines()]
    assert sorted(line["provenance"]["origin"] for line in lines if "kind" not in line) == [
        "api",
        "tool",
        "user",
    ]


def test_an_ingested_chat_records_each_turn_as_its_speakers(tmp_path):
    conversation = tmp_path / "chat.json"
    conversation.write_text(
        json.dumps(
            [
                {"role": "user", "content": "I am allergic to kiwi."},
                {"role": "assistant", "content": "I will avoid kiwi in your recipes."},
                {"role": "user", "content": "I live in Lisbon."},
            ]
        )
    )
    folder = tmp_path / "store"
    cli("ingest", str(conversation), "-n", "users/ada", store=folder)
    found = {i["value"]["text"]: i["provenance"]["origin"] for i in cli_json("list", store=folder)}
    assert found == {
        "I am allergic to kiwi.": "user",
        "I will avoid kiwi in your recipes.": "assistant",
        "I live in Lisbon.": "user",
    }
