"""A plain dict (JSON or YAML) configures a memory; bad fields are named."""

import json

import pytest
import yaml

from memvault import AgentMemory, InvalidArgumentError, MemoryConfig

CONFIG = {
    "path": ":memory:",
    "embedder": "hashing:64",
    "namespace": ["orgs", "{org_id}"],
    "k": 3,
    "similarity_threshold": None,
    "extraction": False,
    "name": "organisation",
}


def test_json_and_yaml_round_trip():
    config = MemoryConfig.parse(CONFIG)
    dumped = config.model_dump(mode="json")
    assert MemoryConfig.parse(json.loads(json.dumps(dumped))) == config
    assert MemoryConfig.parse(yaml.safe_load(yaml.safe_dump(dumped))) == config
    assert dumped["namespace"] == ["orgs", "{org_id}"] and dumped["k"] == 3


def test_config_builds_a_working_memory():
    memory = AgentMemory.from_config(CONFIG)
    assert (memory.k, memory.name, memory.similarity_threshold) == (3, "organisation", None)
    scope = memory.scope(org_id="acme")
    scope.remember("Acme's fiscal year starts in April.")
    assert scope.recall("fiscal year")[0].namespace == ("orgs", "acme")


def test_background_builds_a_background_memory():
    memory = AgentMemory.from_config({**CONFIG, "background": True})
    assert memory.background is True
    assert AgentMemory.from_config(CONFIG).background is False
    assert MemoryConfig.parse(CONFIG).model_dump(mode="json")["background"] is False


def test_trust_round_trips_in_origin_order_and_builds_the_policy():
    config = MemoryConfig.parse({**CONFIG, "trust": ["tool", "user", "user"]})
    dumped = config.model_dump(mode="json")
    assert dumped["trust"] == ["user", "tool"]
    assert MemoryConfig.parse(yaml.safe_load(yaml.safe_dump(dumped))) == config
    assert AgentMemory.from_config(config).trust == {"user", "tool"}
    default = MemoryConfig.parse(CONFIG).model_dump(mode="json")["trust"]
    assert default == ["user", "tool", "extractor", "api", "import"]
    with pytest.raises(InvalidArgumentError, match="field trust.0:.*'assistant'"):
        MemoryConfig.parse({"trust": ["robot"]})


def test_extraction_needs_a_model_and_config_errors_name_the_field():
    with pytest.raises(InvalidArgumentError, match="llm"):
        AgentMemory.from_config({**CONFIG, "extraction": True})
    assert AgentMemory.from_config({**CONFIG, "extraction": True}, llm=lambda m: "").extractor
    with pytest.raises(InvalidArgumentError, match="field k:"):
        MemoryConfig.parse({"k": 0})
    with pytest.raises(InvalidArgumentError, match="field colour:"):
        MemoryConfig.parse({"colour": "blue"})
    with pytest.raises(InvalidArgumentError, match="embedder"):
        AgentMemory.from_config({**CONFIG, "embedder": "word2vec"})
