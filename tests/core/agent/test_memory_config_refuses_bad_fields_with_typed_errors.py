"""A ``MemoryConfig`` built directly refuses a bad field with ``InvalidArgumentError`` naming it,
as ``MemoryConfig.parse`` and ``AgentMemory.from_config`` do."""

import pytest

from memvault import InvalidArgumentError, MemoryConfig


@pytest.mark.parametrize(
    "fields, named",
    [
        ({"k": 0}, "k"),
        ({"reconciliation": "maybe"}, "reconciliation"),
        ({"background": [1]}, "background"),
        ({"bogus": 1}, "bogus"),
    ],
)
def test_a_bad_field_is_named(fields, named):
    for build in (lambda: MemoryConfig(**fields), lambda: MemoryConfig.parse(fields)):
        with pytest.raises(InvalidArgumentError, match=f"field {named}:"):
            build()


def test_field_names_must_be_strings():
    with pytest.raises(InvalidArgumentError, match="names must be strings"):
        MemoryConfig.parse({1: 2})
