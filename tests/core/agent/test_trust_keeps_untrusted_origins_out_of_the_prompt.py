"""``AgentMemory(..., trust=...)``: only memories of trusted origins reach a prompt (issue 28).

By default what the assistant said is left out of :meth:`MemoryScope.context` (the block a
prompt gets) and everything else is in, the ``remember`` tool's memories too; searches (``recall``,
the recall tool) still return every origin. A trust policy is a set of origins; anything else is
a typed error naming the field and the origins.
"""

import pytest

from memvault import InvalidArgumentError, memory_context
from memvault.memory_tools import run_memory_tool
from memvault.provenance import DEFAULT_TRUST
from tests.core.memory_fixtures import hashing_memory

ASSISTANT_SAID = "Ada's favourite tea shop is Leaf and Co on Rua Augusta."
TOOL_SAID = "Ada's favourite tea is a smoky lapsang souchong."
USER_SAID = "My favourite tea is a green sencha."
QUERY = "What is my favourite tea?"


def planted(**options):
    memory = hashing_memory(**options)
    scope = memory.scope(user_id="ada", session_id="s1")
    scope.save_turns([{"role": "user", "content": USER_SAID}])
    run_memory_tool(scope, "remember", {"text": TOOL_SAID})
    scope.remember(ASSISTANT_SAID, source="assistant")
    return memory, scope


def test_by_default_the_prompt_gets_every_origin_but_the_assistant():
    memory, scope = planted()
    assert memory.trust == DEFAULT_TRUST == {"user", "tool", "extractor", "api", "import"}
    block = scope.context(QUERY)
    assert USER_SAID in block and TOOL_SAID in block
    assert "Leaf and Co" not in block
    assert ASSISTANT_SAID in [item.text for item in scope.recall(QUERY)]  # still searchable
    assert "Leaf and Co" in run_memory_tool(scope, "recall", {"query": QUERY})


def test_a_trust_policy_lets_in_exactly_its_origins():
    _, scope = planted(trust={"user"})
    block = scope.context(QUERY)
    assert USER_SAID in block and TOOL_SAID not in block and "Leaf and Co" not in block

    _, scope = planted(trust=["user", "tool", "assistant"])
    block = scope.context(QUERY)
    assert USER_SAID in block and TOOL_SAID in block and ASSISTANT_SAID in block


def test_memory_context_takes_the_policy_too():
    memory, _ = planted()
    namespace = ("users", "ada")
    assert "Leaf and Co" not in memory_context(memory.store, QUERY, namespace=namespace)
    trusting = memory_context(memory.store, QUERY, namespace=namespace, trust={"assistant"})
    assert ASSISTANT_SAID in trusting and USER_SAID not in trusting


@pytest.mark.parametrize(
    ("trust", "named"),
    [("user", "trust must be a set of origins"), ({"user", "robot"}, "'robot', which is no")],
)
def test_a_bad_policy_is_a_typed_error_naming_the_field_and_the_origins(trust, named):
    with pytest.raises(InvalidArgumentError, match=named) as raised:
        hashing_memory(trust=trust)
    assert "user, assistant, tool, extractor, api, import" in str(raised.value)
