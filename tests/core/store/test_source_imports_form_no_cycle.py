"""The modules of ``src/memvault`` import each other without a cycle, and the model imports none.

Every import counts: at module level, inside functions and under ``TYPE_CHECKING``. A package's
``__init__`` is not counted as imported by its modules (Python imports it first, but nothing
in it is needed by them).
"""

from __future__ import annotations

import ast
from pathlib import Path

import memvault

SOURCE = Path(memvault.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in SOURCE.rglob("*.py")}


def imported(name: str) -> set[str]:
    """The memvault modules ``name`` imports, anywhere in its file."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    # an import of a submodule is not an import of the packages above it
    return {t for t in found if not any(o.startswith(t + ".") for o in found) or t not in PACKAGES}


PACKAGES = {name for name, path in MODULES.items() if path.name == "__init__.py"}
GRAPH = {name: imported(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_round_about() -> None:
    assert cycles(GRAPH) == []


def test_the_model_imports_nothing_of_memvault() -> None:
    assert GRAPH["memvault.model"] == set()


def test_the_check_sees_imports_inside_functions_and_type_checking() -> None:
    tree = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert cycles(tree) == [["a", "b", "c"]]
    assert "memvault.backends.chroma" in GRAPH["memvault.store"]  # imported inside __init__
