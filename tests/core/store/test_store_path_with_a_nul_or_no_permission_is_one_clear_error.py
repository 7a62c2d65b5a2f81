"""A store path holding a NUL, or one whose parent may not be looked into (EACCES on ``exists``),
is refused with the same typed error as a folder that cannot be created, not a bare
ValueError or PermissionError."""

import errno
from pathlib import Path

import pytest

from memvault import InvalidArgumentError
from memvault.backends.chroma import store_folder


def test_a_nul_in_the_path_is_refused(tmp_path):
    with pytest.raises(InvalidArgumentError, match="the store folder cannot be created"):
        store_folder(f"{tmp_path}/a\0b")


def test_no_permission_to_look_is_refused(tmp_path, monkeypatch):
    def denied(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "exists", denied)
    with pytest.raises(InvalidArgumentError, match=r"cannot be created \(Permission denied\)"):
        store_folder(tmp_path / "locked" / "store", option="--path")
