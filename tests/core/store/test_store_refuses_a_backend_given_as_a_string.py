"""``MemoryStore(backend=...)`` given a connection string or a folder, instead of a backend,
is refused with a typed error that names ``backend`` and the fix."""

from pathlib import Path

import pytest

from memvault import MemoryStore
from memvault.errors import InvalidArgumentError


@pytest.mark.parametrize("backend", ["postgresql://db.internal/app", Path("/tmp/memories")])
def test_a_backend_given_as_a_string_or_path_is_refused(backend):
    with pytest.raises(InvalidArgumentError, match=r"backend must be a Backend .* give path="):
        MemoryStore(backend=backend)
