"""The rule-file walker (adjudicator/core/rulefiles.py) against clingo's own parser: the files a code's
entry file includes, the string constants (citations) its rules hold, and its statements."""
from __future__ import annotations

import os

import clingo
import pytest
from clingo import ast

from adjudicator.core import engine, registry, rulefiles
from adjudicator.lookup import laws

CODES = [c["code"] for c in registry.all_codes() if c.get("rules")]


def _entry(code: str) -> str:
    return os.path.join(registry.rules_dir(), registry.code_info(code)["rules"])


@pytest.mark.parametrize("code", CODES)
def test_the_walker_names_the_files_clingo_reads_in_its_order(code):
    seen: list[str] = []

    def note(stm):
        name = stm.location.begin.filename
        if name != "<string>":
            name = os.path.normpath(name)
            if name not in seen:
                seen.append(name)
    ast.parse_files([_entry(code)], note)
    # every rule file holds statements, so each appears; entry files hold only includes
    assert [p for p in seen if not rulefiles.is_entry(p)] == list(rulefiles.files(_entry(code)))
    assert [p.path for p in engine.program(code).parts] == laws.rule_files(code) == list(rulefiles.files(_entry(code)))


def _strings(node, out: set[str]) -> None:
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicTerm and node.symbol.type == clingo.SymbolType.String:
            out.add(node.symbol.string)
        for key in node.child_keys:
            _strings(getattr(node, key), out)
    elif isinstance(node, (list, tuple, ast.ASTSequence)):
        for item in node:
            _strings(item, out)


def _all_files() -> list[str]:
    return sorted({p for code in CODES for p in rulefiles.files(_entry(code))})


@pytest.mark.parametrize("path", _all_files(), ids=lambda p: os.path.relpath(p, registry.rules_dir()))
def test_the_walker_reads_the_string_constants_clingo_parses(path):
    """What laws.encoded_in and the coverage tests read as citations is what clingo reads: no
    string hidden in a comment counted, none of the rules missed."""
    parsed: set[str] = set()
    ast.parse_files([path], lambda stm: _strings(stm, parsed))
    walked = {s.encode().decode("unicode_escape") if "\\" in s else s
              for line in rulefiles.code_lines(path) for s in rulefiles.strings(line)}
    assert walked == parsed


@pytest.mark.parametrize("path", _all_files(), ids=lambda p: os.path.relpath(p, registry.rules_dir()))
def test_the_walker_splits_a_file_into_the_statements_clingo_parses(path):
    """rulefiles.statements (what laws.event_laws reads) finds as many statements as clingo's
    parser, whose `#program base.` at a file's head and comments are no statements of the file's."""
    parsed: list = []
    ast.parse_files([path], parsed.append)
    kept = [stm for stm in parsed if stm.ast_type not in (ast.ASTType.Program, ast.ASTType.Comment)]
    assert len(rulefiles.statements(path)) == len(kept)


def test_a_percent_sign_inside_a_string_is_not_a_comment():
    assert rulefiles.code_part('text(a, "50% off"). % a comment') == 'text(a, "50% off"). '
    assert rulefiles.strings('cite(x, "24"). % "99" is a comment') == ["24"]
