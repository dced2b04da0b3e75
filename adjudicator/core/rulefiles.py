"""The rule files of a code, read once for everyone: the engine (which files to ground), the law
lookup (where a law is encoded), and the tests (every law cited and exercised).

A code's entry file (named in rules/codes.yaml: `main.lp`, or Dummy's `dummy.lp`) holds nothing but
`#include` lines, and may include another code's entry file (Boston's includes the American code's). `files(entry)`
follows them in order, each file once, the entry files themselves left out.

Why not clingo's parser here: clingo resolves `#include` inside its parser and gives back no node
for it, so the only way to have it name the files is to parse every statement of every file
(`clingo.ast.parse_files`, 50-70 ms for a whist code, measured in benchmarks/README.md), which a
one-shot CLI call would pay before its ruling. The include lines are read here instead, and
tests/test_rulefiles.py checks, for every encoded code, that clingo's parser reads exactly these
files in this order (the locations of the statements it returns), and that the citations found
here are the string constants clingo finds in the rules: clingo is the authority, this module the
quick way to the same answer.
"""
from __future__ import annotations

import functools
import os
import re

# An include line of an entry file: #include "path".
_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*\.', re.M)
# A string constant of a rule ("24", "17.II"): a citation, when it names a law.
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@functools.cache
def text(path: str) -> str:
    """A rule file's text, read once a process for everyone: the include walk (is_entry reads
    every file it meets), the engine (a file's load-when line, its rules and sentences) and the law
    lookup. (Read three times over, a one-shot ruling opened 153 files for 51.)"""
    with open(path, encoding="utf-8") as fh:
        return fh.read()



@functools.cache
def is_entry(path: str) -> bool:
    """An entry file: its rules are nothing but #include lines (a code's main.lp, Dummy's dummy.lp)."""
    written = text(path)
    if "#include" not in written:      # no include line: not an entry (the quick answer for a rule file,
        return False                # whose lines need not be read one character at a time)
    lines = [code_part(line).strip() for line in written.splitlines()]
    return any(lines) and all(not line or _INCLUDE.match(line) for line in lines)


@functools.cache
def files(entry: str) -> tuple[str, ...]:
    """The rule files an entry file includes, in order, through included entry files, each once."""
    out: list[str] = []

    def walk(path: str) -> None:
        for rel in _INCLUDE.findall(text(path)):
            p = os.path.normpath(os.path.join(os.path.dirname(path), rel))
            if is_entry(p):
                walk(p)
            elif p not in out:
                out.append(p)
    walk(os.path.normpath(entry))
    return tuple(out)


def code_part(line: str) -> str:
    """A line of a rule file without its comment (a % outside a string)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "%" and not quoted:
            return line[:i]
    return line


def code_lines(path: str) -> list[str]:
    """The file's lines, comments left out (line n of the file is item n-1)."""
    return list(_code_lines(path))


@functools.cache
def _code_lines(path: str) -> tuple[str, ...]:
    return tuple(code_part(line) for line in text(path).splitlines())


@functools.cache
def line_strings(path: str) -> tuple[tuple[str, ...], ...]:
    """The string constants on each line of the file, comments left out (line n is item n-1): read
    once, for `law`'s list of the rule files citing a law (laws.encoded_in)."""
    return tuple(tuple(_STRING.findall(line)) for line in _code_lines(path))


def strings(line: str) -> list[str]:
    """The string constants written on a line of rules (its comment left out first)."""
    return _STRING.findall(code_part(line))


@functools.cache
def statements(path: str) -> tuple[str, ...]:
    """A rule file's statements, comments left out, each ending at a full stop outside a string
    (the laws that read an event are worked out from them: laws.event_laws). tests/test_rulefiles.py
    checks that clingo's parser finds as many in every file."""
    out, start, quoted = [], 0, False
    code = "\n".join(code_lines(path))
    for i, ch in enumerate(code):
        if ch == '"' and (i == 0 or code[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "." and not quoted and (i + 1 == len(code) or code[i + 1].isspace()):
            out.append(code[start:i + 1].strip())
            start = i + 1
    return tuple(st for st in out if st)
