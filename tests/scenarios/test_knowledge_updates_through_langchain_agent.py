"""Every knowledge-update script through LangChain's ``create_agent`` with memory middleware and
tools: a stale fact is never injected as current, recall ``as_of`` a past date finds what held
then, and an erased memory leaves no text on disk."""

import pytest
from langchain.agents import create_agent
from langchain_core.messages import SystemMessage, ToolMessage
from langchain_memvault import MemoryMiddleware, create_memory_tools
from langgraph.checkpoint.memory import InMemorySaver

from tests.langchain.fakes import call, scripted
from tests.scenarios.knowledge_updates import SCRIPTS, USER, Counts, at, script_ids, start


def replies(script):
    """The agent model's replies: "Noted." per statement, then the question, as-of and erase."""
    said = ["Noted."] * len(script["said"])
    if "erase" in script:
        return [*said, call("forget", "erase", memory=script["erase"]["memory"], erase=True), "OK."]
    as_of = script["as_of"]
    recall = call("recall", "as-of", query=as_of["query"], as_of=as_of["at"])
    return [*said, "OK.", recall, "OK."]


@pytest.mark.parametrize("script", SCRIPTS, ids=script_ids())
def test_script(script, tmp_path):
    played = start(script, tmp_path)
    model = scripted(*replies(script))
    agent = create_agent(
        model,
        create_memory_tools(played.memory),
        middleware=[MemoryMiddleware(played.memory)],
        checkpointer=InMemorySaver(),
    )
    counts = Counts("LangChain create_agent", script)

    def say(turn, thread):
        at(played, turn)
        seen = len(model.prompts)
        agent.invoke(
            {"messages": [("user", turn["text"])]},
            {"configurable": {"thread_id": thread}},
            context={"user_id": USER},
        )
        return model.prompts[seen:]

    for number, turn in enumerate(script["said"]):
        say(turn, f"said-{number}")
    if "erase" in script:
        played.memory.store.backend.drain()  # the text reaches the vector index's files first
        say(script["erase"], "erase")
        counts.current(played.memory)
        played.memory.store.close()
        counts.erased(played.folder)
        return
    (prompt,) = say(script["ask"], "ask")
    counts.asked("\n".join(m.text for m in prompt if isinstance(m, SystemMessage)))
    as_of = {**script["ask"], "text": f"What was true on {script['as_of']['at']}?"}
    _, answering = say(as_of, "as-of")
    counts.recalled_as_of(next(m.text for m in answering if isinstance(m, ToolMessage)))
    counts.current(played.memory)
