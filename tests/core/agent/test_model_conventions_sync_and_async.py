"""memvault calls a model by the convention it follows; async paths await its own async
method (``ainvoke``, ``acomplete``, ``achat``, an ``async def``), never a thread around the
sync one."""

import asyncio

import pytest

from memvault import FactExtractor, InvalidArgumentError
from memvault.llm import NOSTREAM_TAGS, agenerate, generate

MESSAGES = [{"role": "user", "content": "I have a cat."}]
REPLY = '{"facts": ["The user has a cat."]}'


class Reply:
    content = REPLY


class Runnable:
    def __init__(self):
        self.configs = []

    def invoke(self, messages, config=None):
        self.configs.append(config)
        return Reply()

    async def ainvoke(self, messages, config=None):
        self.configs.append(config)
        return Reply()


class SyncOnly:
    def invoke(self, messages, config=None):
        return Reply()


class Completer:
    def complete(self, prompt):
        raise AssertionError("the async path must not call complete")

    async def acomplete(self, prompt):
        return Reply()


async def async_callable(messages):
    return REPLY


def test_a_runnable_is_called_with_the_nostream_tags_both_ways():
    model = Runnable()
    assert generate(model, MESSAGES) == REPLY
    assert asyncio.run(agenerate(model, MESSAGES)) == REPLY
    assert [c["tags"] for c in model.configs] == [list(NOSTREAM_TAGS)] * 2


@pytest.mark.parametrize("model", [Completer(), async_callable, SyncOnly()], ids=str)
def test_async_extraction_uses_the_models_own_async_method(model):
    extracted = asyncio.run(FactExtractor(model).aextract(MESSAGES))
    assert extracted == ["The user has a cat."]


def test_an_async_def_model_also_serves_the_sync_path():
    assert FactExtractor(async_callable).extract(MESSAGES) == ["The user has a cat."]


def test_an_object_that_is_no_model_is_refused():
    with pytest.raises(InvalidArgumentError, match="llm must be"):
        FactExtractor(object())
