"""The import graph of ``src/mtscore``: no cycle between modules, no import upward across the layers.

Every module is parsed with :mod:`ast` (nothing is imported) and every ``import`` and ``from ...
import`` naming a module of mtscore is an edge: top-level ones and those inside functions, classes
and ``try``/``if`` blocks alike. ``from package import name`` is an edge to the submodule
``package.name`` when that module exists, else to ``package``. Importing a submodule is not counted
as importing its parent package's ``__init__`` (Python runs it, but that edge would make every
package that re-exports its modules a cycle).

* **No cycle.** Imports under ``if TYPE_CHECKING:`` never run; a helper module may name, in its
  annotations, the class that calls it (``metrics/meteor/extract.py`` names ``METEOR``). Those are
  left out of the cycle check, but a cycle they close must stay inside one top-level package
  (:func:`test_type_only_imports_stay_in_their_package`).
* **No import upward.** The layers are :data:`LAYERS`, lowest first; every top-level package or
  module of mtscore must be in one of them (a new package fails here until it is placed). A module
  may import modules of its own layer and of lower layers, annotations (``TYPE_CHECKING``) included.
  ``report`` is above ``study``: the study computes plain result objects, the report formats them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "mtscore"

#: the layers, lowest first: (name, top-level packages and modules of mtscore in it)
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"errors", "version", "ragged", "progress", "pool", "languages", "data",
                              "text", "lexicon", "io"})),
    ("metrics", frozenset({"metrics"})),
    ("statistics and streaming", frozenset({"stats", "streaming"})),
    ("adapters", frozenset({"dask"})),
    ("study", frozenset({"study", "caption"})),  # caption: the COCO captioning evaluation
    ("report", frozenset({"report"})),
    ("command line", frozenset({"cli", "__main__"})),
    ("public API", frozenset({""})),  # the package itself: mtscore/__init__.py re-exports the others
)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    type_only: bool

    def __str__(self) -> str:
        kind = " (TYPE_CHECKING)" if self.type_only else ""
        return f"{self.source} -> {self.target} (line {self.line}){kind}"


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of mtscore: dotted name -> (file, is a package's ``__init__``)."""
    found = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``, or a name
    ``TYPE_CHECKING`` was imported as, e.g. ``_TYPE_CHECKING`` in a package's ``__init__``) body."""
    names = {"TYPE_CHECKING"} | {alias.asname for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                                 for alias in node.names if alias.name == "TYPE_CHECKING" and alias.asname}
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                (isinstance(node.test, ast.Name) and node.test.id in names)
                or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")):
            for statement in node.body:
                inside.update(id(n) for n in ast.walk(statement))
    return inside


def _edges_of(name: str, path: Path, package: bool, known: dict[str, tuple[Path, bool]]) -> Iterator[Edge]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    type_only = _type_checking_nodes(tree)
    here = name.split(".") if package else name.split(".")[:-1]
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                assert node.level - 1 <= len(here), f"{path}:{node.lineno}: import beyond the package"
                base = here[:len(here) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module
                       for a in node.names]
        for target in targets:
            if (target == PACKAGE or target.startswith(PACKAGE + ".")) and target != name:
                assert target in known, f"{path}:{node.lineno}: {target} is not a module of mtscore"
                yield Edge(name, target, node.lineno, id(node) in type_only)


@cache
def edges() -> tuple[Edge, ...]:
    known = modules()
    return tuple(e for name, (path, package) in known.items() for e in _edges_of(name, path, package, known))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
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
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of a module's top-level package (or module) of mtscore."""
    top = module.split(".")[1] if "." in module else ""
    for i, (_, members) in enumerate(LAYERS):
        if top in members:
            return i
    raise AssertionError(f"{PACKAGE}.{top} is in no layer: add it to LAYERS in {Path(__file__).name} "
                         "(and to the layers in docs/contributing.md)")


def test_the_graph_is_read() -> None:
    """The parser sees imports of every kind (a guard against a check that silently checks nothing)."""
    found = {(e.source, e.target, e.type_only) for e in edges()}
    assert ("mtscore.metrics.bleu.metric", "mtscore.metrics.base", False) in found  # from .base import ...
    # from .align.jar import ... inside a function:
    assert ("mtscore.metrics.meteor.segments", "mtscore.metrics.meteor.align.jar", False) in found
    assert any(type_only for *_, type_only in found)
    assert len(found) > 300


def test_no_import_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for e in edges():
        if not e.type_only:
            graph.setdefault(e.source, set()).add(e.target)
    found = cycles(graph)
    detail = "\n".join(sorted({str(e) for e in edges() if not e.type_only and any(
        e.source in c and e.target in c for c in found)}))
    assert not found, f"import cycles: {found}\n{detail}"


def test_type_only_imports_stay_in_their_package() -> None:
    """An annotation may name a class of the importer's own top-level package (the class that calls
    it: ``metrics/bleu/pairwise.py`` names ``BLEU``), nothing that would close a cycle across
    packages: with the type-only imports counted, every cycle stays inside one package of mtscore."""
    graph: dict[str, set[str]] = {}
    for e in edges():
        graph.setdefault(e.source, set()).add(e.target)
    wide = [c for c in cycles(graph) if len({".".join(m.split(".")[:2]) for m in c}) > 1]
    assert not wide, f"cycles across packages through TYPE_CHECKING imports: {wide}"


def test_no_import_upward() -> None:
    upward = sorted({f"{e}: {LAYERS[layer_of(e.source)][0]} imports {LAYERS[layer_of(e.target)][0]}"
                     for e in edges() if layer_of(e.target) > layer_of(e.source)})
    assert not upward, "imports upward across the layers:\n" + "\n".join(upward)


def test_every_package_has_a_layer() -> None:
    for name in modules():
        layer_of(name)


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_cycles_by_hand(graph, expected) -> None:
    assert sorted(cycles(graph)) == expected
