"""Each sdist holds its package, README, LICENSE and pyproject.toml, and nothing a checkout
accumulates: no lock file, CI script, virtual environment, store or export."""

import tarfile

import pytest

PACKAGES = {
    "memvault": "src/memvault/",
    "langchain_memvault": "langchain_memvault/",
    "llama_index_memory_memvault": "llama_index/memory/memvault/",
}
EXPECTED_FILES = {"PKG-INFO", "pyproject.toml", "README.md", "LICENSE", ".gitignore"}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_sdist_holds_only_the_package(built, name):
    (sdist,) = built.glob(f"{name}-*.tar.gz")
    with tarfile.open(sdist) as archive:
        files = {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}
    outside = {f for f in files if not f.startswith(PACKAGES[name])}
    assert outside == EXPECTED_FILES
    assert f"{PACKAGES[name]}py.typed" in files
    assert not {f for f in files if f.endswith((".sqlite3", ".jsonl", "uv.lock", "pyvenv.cfg"))}
