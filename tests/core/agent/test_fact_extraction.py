"""FactExtractor turns a conversation into facts with one LLM call and upserts them stably."""

import pytest

from memvault import (
    AgentMemory,
    FactExtractor,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    memory_key,
)
from memvault.errors import ExtractionError
from memvault.extraction import parse_facts

MESSAGES = [
    {"role": "system", "content": "be nice"},
    {"role": "user", "content": "I'm vegetarian and I live in Porto."},
    {"role": "assistant", "content": "Noted!"},
]


class ScriptedLLM:
    def __init__(self, *replies):
        self.replies = list(replies)
        self.prompts = []

    def __call__(self, messages):
        self.prompts.append(messages)
        return self.replies.pop(0)


@pytest.mark.parametrize(
    "reply",
    [
        '{"facts": ["The user is vegetarian.", "The user lives in Porto."]}',
        '<think>hmm, facts...</think>\n```json\n{"facts": ["The user is vegetarian.", '
        '"The user lives in Porto.",]}\n```',
        'Here you go: ["The user is vegetarian.", "The user lives in Porto."]',
    ],
)
def test_tolerant_parsing(reply):
    assert parse_facts(reply) == ["The user is vegetarian.", "The user lives in Porto."]


@pytest.mark.parametrize("reply", ["I cannot help with that.", '{"facts": "vegetarian"}'])
def test_unusable_reply_raises_with_raw_text(reply):
    with pytest.raises(ExtractionError) as caught:
        parse_facts(reply)
    assert caught.value.raw == reply


def test_extracted_facts_are_stored_once_with_their_sources():
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    llm = ScriptedLLM(
        '{"facts": ["The user is vegetarian.", "The user lives in Porto."]}',
        '{"facts": ["the user is vegetarian", "The user likes jazz."]}',
    )
    scope = AgentMemory(store, extractor=FactExtractor(llm)).scope(user_id="u1", thread_id="t1")
    first = scope.save_turns(MESSAGES)
    assert [i.key for i in first] == [
        memory_key("The user is vegetarian."),
        memory_key("The user lives in Porto."),
    ]
    assert first[0].value["sources"] == [memory_key("I'm vegetarian and I live in Porto.")]
    scope.save_turns(MESSAGES)
    assert store.count() == 3  # the repeated fact updated in place
    again = store.get(("users", "u1"), memory_key("The user is vegetarian"))
    assert again.text == "the user is vegetarian" and again.value["mentions"] == 2
    shown = llm.prompts[0][1]["content"]
    assert "vegetarian" in shown and "be nice" not in shown  # system role is not shown


def test_llm_kinds_by_duck_typing():
    class Reply:
        content = '{"facts": ["The user has a cat."]}'

    class LangChainLike:
        def invoke(self, messages, config=None):
            return Reply()

    class LlamaIndexLike:
        def complete(self, prompt):
            class Completion:
                text = '{"facts": ["The user has a cat."]}'

            return Completion()

    for llm in (LangChainLike(), LlamaIndexLike()):
        assert FactExtractor(llm).extract(MESSAGES) == ["The user has a cat."]


def test_no_shown_messages_means_no_call():
    llm = ScriptedLLM()
    assert FactExtractor(llm).extract([{"role": "system", "content": "x"}]) == []
    assert llm.prompts == []


def test_max_facts_caps_the_list():
    llm = ScriptedLLM('{"facts": ["a fact", "b fact", "c fact"]}')
    assert FactExtractor(llm, max_facts=2).extract(MESSAGES) == ["a fact", "b fact"]
