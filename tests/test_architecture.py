"""The package's parts and what may import what (docs/architecture.md), read from the source (ast):
every import, at the top of a module or inside a function, is an arrow.

    core        the engine: reading and checking an incident, facts, rules, the ruling and its sentences
    lookup      the laws looked up: texts, search, the format's reference
    study       the quiz and the student's progress
    interview   the interview, the opening, the step-by-step builder
    api         the one way in (adjudicator/api.py, re-exported by the package's top)
    study, interview   the quiz and the interview, over the API (and the core's machinery they own)
    faces       the command (cli.py, and cli_style.py: its colour and pager) and the web page (web/)

No circle anywhere; the core imports nothing but the core; a face rules on an incident only through
the API (never the engine, the ruling, the incident's reader); the web page never imports the
command, and the command the web page only to serve it.
"""
from __future__ import annotations

import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "adjudicator")


def _modules() -> dict[str, str]:
    out = {}
    for folder, subfolders, files in os.walk(PACKAGE):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, os.path.dirname(PACKAGE))[:-3].replace(os.sep, ".")
                out[rel.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(module: str) -> set[str]:
    """The package's modules this module imports, anywhere in it (relative imports resolved)."""
    path = MODULES[module]
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                out.add(name)
    return out


GRAPH = {m: _imports(m) for m in MODULES}


def _part(module: str) -> str:
    if module in ("adjudicator.cli", "adjudicator.cli_style", "adjudicator.__main__") \
            or module.startswith("adjudicator.web"):
        return "face"
    if module == "adjudicator":
        return "top"
    return module.split(".")[1]          # core, lookup, study, interview, api, errors


# What each part may import, besides itself.
MAY_IMPORT = {
    "errors": set(),
    "core": {"errors"},
    "lookup": {"core", "errors"},
    "study": {"core", "lookup", "api", "errors"},
    "interview": {"core", "lookup", "api", "errors"},
    "api": {"core", "lookup", "errors"},
    "top": {"api", "errors", "core"},           # (core: the allocator, set before clingo loads)
    "face": {"api", "errors", "core", "study", "interview", "top"},
}
# The core modules a face may read: the tables, the sentences, bounded reading, the process's
# allocator. Ruling on an incident (reading it, the engine, the ruling, conditional rulings,
# case files, comparisons) goes through the API.
FACE_MAY_READ_OF_CORE = {"adjudicator.core.registry", "adjudicator.core.schema", "adjudicator.core.render",
                         "adjudicator.core.values", "adjudicator.core.reading", "adjudicator.core.limits",
                         "adjudicator.core.allocator", "adjudicator.core"}


def test_the_graph_is_read():
    """The walk sees the package as it is (a test that read nothing would pass everything)."""
    assert {"adjudicator.api", "adjudicator.cli", "adjudicator.core.engine", "adjudicator.web.service",
            "adjudicator.study.quiz", "adjudicator.interview.ask", "adjudicator.lookup.laws"} <= set(MODULES)
    assert "adjudicator.core.engine" in GRAPH["adjudicator.core.cases"]
    assert "adjudicator.api" in GRAPH["adjudicator.web.service"]


def test_no_import_circle():
    """Tarjan's strongly connected components: none of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_part_imports_only_what_is_under_it(module):
    part = _part(module)
    bad = sorted(d for d in GRAPH[module] if _part(d) != part and _part(d) not in MAY_IMPORT[part])
    assert not bad, f"{module} ({part}) imports {bad}: see docs/architecture.md"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _part(m) == "face"))
def test_a_face_rules_only_through_the_api(module):
    bad = sorted(d for d in GRAPH[module] if _part(d) == "core" and d not in FACE_MAY_READ_OF_CORE)
    assert not bad, f"{module} reaches the engine's parts {bad}: use adjudicator.api"


def test_the_web_page_never_imports_the_command():
    web = [m for m in MODULES if m.startswith("adjudicator.web")]
    assert not [m for m in web if {"adjudicator.cli", "adjudicator.cli_style"} & GRAPH[m]]
    # the command imports the web page only to serve it (`adjudicator serve`)
    assert GRAPH["adjudicator.cli"] & set(web) <= {"adjudicator.web"}


def test_the_core_imports_no_face_and_nothing_above_it():
    for m in MODULES:
        if _part(m) == "core":
            assert not [d for d in GRAPH[m] if _part(d) not in ("core", "errors")], m
