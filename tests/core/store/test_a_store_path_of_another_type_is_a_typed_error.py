"""`MemoryStore(path)` with a path that is not a str or a pathlib.Path raises a typed error
naming it (found by a newcomer: `MemoryStore(5)` raised pathlib's TypeError)."""

import pytest

from memvault import InvalidArgumentError, MemoryStore


@pytest.mark.parametrize("path", [5, ["a"], b"/tmp/x"])
def test_the_path_is_named(path):
    with pytest.raises(InvalidArgumentError, match="path must be a folder as a str"):
        MemoryStore(path)
