from langchain_memvault import ForgetTool, ListMemoriesTool, RecallTool, RememberTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from memvault import AgentMemory
from tests.langchain.fakes import small_store

STORE = small_store()
STORE.put(("users", "ada"), "tea", {"text": "Ada drinks green tea"})
PARAMS = {"memory": AgentMemory(STORE, ("users", "ada"))}


class RememberSuite:
    tool_constructor = RememberTool
    tool_constructor_params = PARAMS
    tool_invoke_params_example = {"text": "Ada is allergic to peanuts."}


class RecallSuite:
    tool_constructor = RecallTool
    tool_constructor_params = PARAMS
    tool_invoke_params_example = {"query": "what does Ada drink?", "limit": 3}


class ForgetSuite:
    tool_constructor = ForgetTool
    tool_constructor_params = PARAMS
    tool_invoke_params_example = {"memory": "tea"}


class ListSuite:
    tool_constructor = ListMemoriesTool
    tool_constructor_params = PARAMS
    tool_invoke_params_example = {"limit": 5}


class TestRememberUnit(RememberSuite, ToolsUnitTests): ...


class TestRememberIntegration(RememberSuite, ToolsIntegrationTests): ...


class TestRecallUnit(RecallSuite, ToolsUnitTests): ...


class TestRecallIntegration(RecallSuite, ToolsIntegrationTests): ...


class TestForgetUnit(ForgetSuite, ToolsUnitTests): ...


class TestForgetIntegration(ForgetSuite, ToolsIntegrationTests): ...


class TestListUnit(ListSuite, ToolsUnitTests): ...


class TestListIntegration(ListSuite, ToolsIntegrationTests): ...
