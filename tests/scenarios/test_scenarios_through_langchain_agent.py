"""Every scenario through LangChain's ``create_agent`` with memory middleware and tools."""

import pytest
from langchain.agents import create_agent
from langchain_core.messages import SystemMessage
from langchain_memvault import MemoryMiddleware, create_memory_tools
from langgraph.checkpoint.memory import InMemorySaver

from tests.langchain.fakes import call, scripted
from tests.scenarios.script import SCENARIOS, Tally, fresh_memory, scenario_ids


def replies(scenario):
    """The scripted model's replies, turn by turn: a tool call first where the turn has one."""
    script = []
    for number, session in enumerate(scenario["sessions"]):
        for index, turn in enumerate(session["turns"]):
            tool = turn.get("tool")
            if tool:
                script.append(call(tool["name"], f"call-{number}-{index}", **tool["args"]))
            script.append("OK.")
    return script


@pytest.mark.parametrize("scenario", SCENARIOS, ids=scenario_ids())
def test_scenario(scenario):
    memory = fresh_memory()
    model = scripted(*replies(scenario))
    agent = create_agent(
        model,
        create_memory_tools(memory),
        middleware=[MemoryMiddleware(memory)],
        checkpointer=InMemorySaver(),
    )
    tally = Tally("LangChain create_agent")
    for number, session in enumerate(scenario["sessions"]):
        user = tally.user = session.get("user_id", "alice")
        for turn in session["turns"]:
            seen = len(model.prompts)
            agent.invoke(
                {"messages": [("user", turn["user"])]},
                {"configurable": {"thread_id": f"{scenario['name']}-{number}"}},
                context={"user_id": user},
            )
            for call_number, prompt in enumerate(model.prompts[seen:]):
                system = "\n".join(m.text for m in prompt if isinstance(m, SystemMessage))
                tally.prompt(turn, system, first_call=call_number == 0)
                if call_number == 0:
                    tally.tool_called(turn)
        tally.stored(session, [item.text for item in memory.scope(user_id=user).list(1000)])
