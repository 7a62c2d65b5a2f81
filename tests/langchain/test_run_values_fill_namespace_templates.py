"""Namespace template values come from the runtime context, configurable and the thread id."""

from dataclasses import dataclass
from types import SimpleNamespace

from langchain_memvault.run_scope import run_values
from pydantic import BaseModel

from memvault import resolve_namespace


@dataclass(slots=True)
class SlotContext:
    user_id: str


class ModelContext(BaseModel):
    user_id: str
    org: str


def runtime(context, thread_id=None):
    return SimpleNamespace(context=context, execution_info=SimpleNamespace(thread_id=thread_id))


def test_context_of_any_shape_overrides_configurable_and_adds_the_thread():
    config = {"configurable": {"user_id": "mallory", "thread_id": "t9", "__pregel_x": "internal"}}
    for context in (
        SlotContext("ada"),
        ModelContext(user_id="ada", org="acme"),
        {"user_id": "ada"},
    ):
        values = run_values(config, runtime(context, thread_id="ignored"))
        assert values["user_id"] == "ada" and values["thread_id"] == "t9"
        assert "__pregel_x" not in values
    values = run_values(None, runtime(ModelContext(user_id="ada", org="acme"), thread_id="t1"))
    assert resolve_namespace(("orgs", "{org}", "{user_id}", "{thread_id}"), values) == (
        "orgs",
        "acme",
        "ada",
        "t1",
    )


def test_outside_a_graph_only_configurable_counts():
    assert run_values({"configurable": {"user_id": "ada"}}) == {"user_id": "ada"}
    assert run_values(None) == {}
