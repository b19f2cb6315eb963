"""Dependencies point down: agent -> tools -> paging -> storage; evals drives them all.

Read from the source with ``ast`` (nothing is imported), so a layer crossing fails here even
when it sits in a function or a lazy export that no other test happens to run:

- storage imports nothing of agent, tools, paging or evals;
- paging imports nothing of tools, agent or evals;
- nothing outside agent/cli and agent/servers (the rooms that may import everything) and evals
  imports evals;
- tools imports agent only under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Each folder installs as memvisor.<folder> (pyproject.toml, package-dir).
LAYERS = ("agent", "tools", "paging", "storage", "evals")
FORBIDDEN = {
    "storage": {"agent", "tools", "paging", "evals"},
    "paging": {"tools", "agent", "evals"},
}
MAY_IMPORT_EVALS = ("agent/cli/", "agent/servers/", "evals/")

# Files that break a rule and may not be fixed by whoever added this test (someone else
# owns them). The lead empties this set; an entry that no longer breaks a rule fails below.
KNOWN_EXCEPTIONS: set[str] = set()


@dataclass(frozen=True)
class Import:
    source: str  # the importing file, relative to the repository
    line: int
    target: str  # the absolute module name
    type_only: bool  # under ``if TYPE_CHECKING:``: never runs


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["memvisor", *parts])


def _package_lazy_names() -> dict[str, str]:
    """``from memvisor import Agent`` imports what memvisor/__init__.py's _LAZY names."""
    return _lazy_map(ast.parse((ROOT / "memvisor" / "__init__.py").read_text(encoding="utf-8")))


def _lazy_map(tree: ast.Module) -> dict[str, str]:
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in targets):
                return {
                    k.value: v.value
                    for k, v in zip(node.value.keys, node.value.values, strict=True)
                    if isinstance(k, ast.Constant)
                    and isinstance(k.value, str)
                    and isinstance(v, ast.Constant)
                    and isinstance(v.value, str)
                }
    return {}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(module: str | None, level: int, package: str) -> str:
    """``from ..x import y`` inside ``package`` -> the module it names."""
    if not level:
        return module or ""
    base = package.split(".")
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_in(source: str, *, module: str, is_package: bool, name: str = "<src>") -> list[Import]:
    """Every module a source imports, relative imports resolved, lazy exports included."""
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    lazy_root = _package_lazy_names()
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.body:
                visit(stmt, True)
            for stmt in node.orelse:
                visit(stmt, type_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(name, node.lineno, alias.name, type_only))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            found.append(Import(name, node.lineno, base, type_only))
            for alias in node.names:  # ``from memvisor import evals`` imports a module
                target = lazy_root.get(alias.name) if base == "memvisor" else None
                found.append(Import(name, node.lineno, target or f"{base}.{alias.name}", type_only))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(tree, False)
    for target in _lazy_map(tree).values():  # imported on first use of the name
        found.append(Import(name, 0, _absolute(target.lstrip("."), _dots(target), package), False))
    return found


def _dots(target: str) -> int:
    return len(target) - len(target.lstrip("."))


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "memvisor" and parts[1] in LAYERS:
        return parts[1]
    return None


def all_imports() -> list[Import]:
    found: list[Import] = []
    for folder in LAYERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += imports_in(
                path.read_text(encoding="utf-8"),
                module=module_name(path),
                is_package=path.name == "__init__.py",
                name=path.relative_to(ROOT).as_posix(),
            )
    return found


def violations() -> dict[str, list[Import]]:
    """Rule -> the imports that break it."""
    broken: dict[str, list[Import]] = {
        "storage/paging import a layer above": [],
        "evals imported outside agent/cli and evals": [],
        "tools import agent at run time": [],
    }
    for imp in all_imports():
        source_layer = imp.source.split("/")[0]
        target_layer = layer_of(imp.target)
        if target_layer is None:
            continue
        if target_layer in FORBIDDEN.get(source_layer, set()):
            broken["storage/paging import a layer above"].append(imp)
        if target_layer == "evals" and not imp.source.startswith(MAY_IMPORT_EVALS):
            broken["evals imported outside agent/cli and evals"].append(imp)
        if source_layer == "tools" and target_layer == "agent" and not imp.type_only:
            broken["tools import agent at run time"].append(imp)
    return broken


def _report(imports: list[Import]) -> str:
    return "\n".join(f"{i.source}:{i.line} imports {i.target}" for i in imports)


def _check(rule: str) -> None:
    broken = [i for i in violations()[rule] if i.source not in KNOWN_EXCEPTIONS]
    assert not broken, f"{rule}:\n{_report(broken)}"


def test_storage_and_paging_import_nothing_above_them() -> None:
    _check("storage/paging import a layer above")


def test_only_the_cli_and_evals_import_evals() -> None:
    _check("evals imported outside agent/cli and evals")


def test_tools_import_agent_only_for_type_checking() -> None:
    _check("tools import agent at run time")


def test_known_exceptions_still_break_a_rule() -> None:
    breaking = {i.source for imports in violations().values() for i in imports}
    assert not KNOWN_EXCEPTIONS - breaking, "fixed: remove from KNOWN_EXCEPTIONS"


def test_the_reader_resolves_relative_lazy_and_type_only_imports() -> None:
    source = """
from typing import TYPE_CHECKING
from . import sibling
from ..storage.store import Store
from memvisor import Agent
if TYPE_CHECKING:
    from memvisor.agent.loop import Loop
def late():
    import memvisor.evals.replay
_LAZY = {"Thing": ".thing"}
"""
    found = {
        (i.target, i.type_only)
        for i in imports_in(source, module="memvisor.paging.pagein", is_package=False)
    }
    assert ("memvisor.paging.sibling", False) in found
    assert ("memvisor.storage.store", False) in found
    assert ("memvisor.agent.loop", False) in found  # memvisor's lazy export of Agent
    assert ("memvisor.agent.loop", True) in found
    assert ("memvisor.evals.replay", False) in found  # inside a function: still runs
    assert ("memvisor.paging.thing", False) in found
    real = all_imports()
    assert any(i.source == "tools/context.py" and i.type_only for i in real)
    assert len({i.source for i in real}) > 50  # every layer was read
