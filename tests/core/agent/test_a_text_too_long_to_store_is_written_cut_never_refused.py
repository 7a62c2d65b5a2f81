"""The agent layer never refuses a text for its length, so no reply fails on it: a text longer
than the store holds (``MAX_TEXT_CHARS``), given to ``remember`` or the ``remember`` tool or
drawn by an extractor, is stored cut to the limit with a marker, and saying it again merges
into that memory. The tool's reply echoes it cut to the memory's ``max_memory_chars``."""

from memvault import FactExtractor
from memvault.context import DEFAULT_MAX_MEMORY_CHARS
from memvault.items import MAX_TEXT_CHARS
from memvault.memory_tools import run_memory_tool
from tests.core.memory_fixtures import hashing_memory
from tests.core.models import ScriptedModel, facts

LONG = "The user keeps a diary of every walk along the river. " * 1000  # 54,000 characters
NOTED = [{"role": "user", "content": "I keep a diary."}, {"role": "assistant", "content": "Ok."}]


def assert_cut(item):
    assert len(item.text) <= MAX_TEXT_CHARS
    assert item.text.endswith(" more characters]")
    assert LONG.startswith(item.text.split("… [truncated, ")[0])


def test_remember_and_the_remember_tool():
    scope = hashing_memory().scope(user_id="ada")
    first = scope.remember(LONG)
    assert_cut(first)
    again = scope.remember(LONG)
    assert (again.key, again.value["mentions"]) == (first.key, 2)
    reply = run_memory_tool(scope, "remember", {"text": LONG})
    assert reply.startswith(f"Remembered (id {first.key}, said 3 times): The user keeps")
    assert (
        len(reply) <= len(f"Remembered (id {first.key}, said 3 times): ") + DEFAULT_MAX_MEMORY_CHARS
    )


def test_an_extracted_fact():
    model = ScriptedModel(facts(LONG), facts(LONG))
    scope = hashing_memory(extractor=FactExtractor(model)).scope(user_id="ada")

    (extracted,) = scope.save_turns(NOTED)
    assert_cut(extracted)
    (again,) = scope.save_turns(NOTED)
    assert (again.key, again.value["mentions"]) == (extracted.key, 2)
