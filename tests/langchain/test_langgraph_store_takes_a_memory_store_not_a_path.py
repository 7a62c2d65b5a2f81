"""MemvaultLangGraphStore("./path") is refused at once, saying to pass a memvault.MemoryStore."""

import pytest
from langchain_memvault import MemvaultLangGraphStore

from memvault import AgentMemory, InvalidArgumentError
from tests.langchain.fakes import small_store


def test_a_path_or_an_agent_memory_is_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "memories"
    for given in (str(path), path, AgentMemory(small_store()), None):
        with pytest.raises(InvalidArgumentError, match="takes a memvault.MemoryStore") as error:
            MemvaultLangGraphStore(given)
        assert "MemoryStore('./memories')" in str(error.value)
    assert not path.exists()
