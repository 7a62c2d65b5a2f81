"""The model is shown the time arguments: recall's ``as_of``, remember's ``replaces``,
forget's ``erase``, each optional and described."""

from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_memvault import create_memory_tools

from tests.langchain.fakes import small_store


def test_each_time_argument_is_optional_and_described():
    shown = {
        tool.name: convert_to_openai_tool(tool)["function"]["parameters"]
        for tool in create_memory_tools(small_store())
    }
    for tool, argument, words in (
        ("recall", "as_of", "ISO 8601"),
        ("remember", "replaces", "corrects"),
        ("forget", "erase", "history"),
    ):
        parameters = shown[tool]
        assert argument in parameters["properties"], tool
        assert argument not in parameters.get("required", []), tool
        assert words in parameters["properties"][argument]["description"], tool
