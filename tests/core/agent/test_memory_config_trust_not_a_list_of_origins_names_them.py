"""A MemoryConfig ``trust`` that is no list of origins (a bare string, an unknown origin) is
refused with AgentMemory's message: the field, the origins to pick from, an example."""

import pytest

from memvault import InvalidArgumentError
from memvault.config import MemoryConfig

ORIGINS = "user, assistant, tool, extractor, api, import"


def test_a_bare_string_is_refused_naming_the_origins():
    with pytest.raises(InvalidArgumentError) as raised:
        MemoryConfig.parse({"trust": "user"})
    assert str(raised.value) == (
        f"memory config field trust: trust must be a set of origins from {ORIGINS} "
        "(e.g. {'user', 'extractor'}), got str 'user'"
    )


def test_an_unknown_origin_is_refused_naming_it():
    with pytest.raises(InvalidArgumentError, match=f"trust holds 'admin', .* from {ORIGINS}$"):
        MemoryConfig.parse({"trust": ["user", "admin"]})


def test_a_list_of_origins_is_kept_once_each_in_order():
    assert MemoryConfig.parse({"trust": ["tool", "user", "tool"]}).trust == ("user", "tool")
