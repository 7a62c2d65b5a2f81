"""``memvault.__all__`` holds what applications call (at most 30 names); every name the package
exported before still resolves, with a DeprecationWarning that names its module."""

import importlib

import pytest

import memvault
import memvault.backends


def test_the_public_surface_is_at_most_thirty_names_that_all_resolve():
    assert len(memvault.__all__) <= 30
    assert len(set(memvault.__all__)) == len(memvault.__all__)
    for name in memvault.__all__:
        assert getattr(memvault, name) is not None


@pytest.mark.parametrize("name", sorted(memvault._HOME))
def test_a_name_exported_before_warns_and_is_its_modules(name):
    module = memvault._HOME[name]
    with pytest.warns(DeprecationWarning, match=f"import it from {module}"):
        found = getattr(memvault, name)
    assert found is getattr(importlib.import_module(module), name)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nonsense'"):
        memvault.Nonsense  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'Nonsense'"):
        memvault.backends.Nonsense  # noqa: B018


def test_backend_building_blocks_live_under_memvault_backends():
    from memvault.backends.local import LocalBackend

    assert memvault.backends.LocalBackend is LocalBackend
    assert memvault.backends.ChromaBackend is memvault.ChromaBackend
    assert set(memvault.backends.__all__) >= {"Backend", "VectorIndex", "Record", "LocalBackend"}
