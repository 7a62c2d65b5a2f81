"""`resolve_namespace(template, values)` with values that are not a mapping raises a typed error
(found by a newcomer: a list raised AttributeError)."""

import pytest

from memvault import resolve_namespace
from memvault.errors import InvalidNamespaceError


@pytest.mark.parametrize("values", [["alice"], None, "alice"])
def test_the_values_are_named(values):
    with pytest.raises(InvalidNamespaceError, match="values must be a mapping"):
        resolve_namespace(("users", "{user_id}"), values)


def test_a_mapping_still_fills_the_template():
    assert resolve_namespace(("users", "{user_id}"), {"user_id": "alice"}) == ("users", "alice")
