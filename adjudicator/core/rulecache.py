"""What the rule selection needs of a code's rule files, kept between commands.

The rule selection (adjudicator/core/relevance.py) reads each rule as clingo's parser gives it, and that
reading costs 0.3-0.5 s a code (clingo's AST answers each question through a foreign call): a
one-shot command could not afford it, and so grounded every rule of the files it loaded. This
module keeps what the reading gives, one file a code in the user's cache folder
(adjudicator/core/cache.py): for each rule file, which of the statements clingo parses are rules (by
position) and each rule's text as clingo prints it; and for the code, the rule selector
(relevance.Selector: each rule's summary, its predicates' order, who reads what). A
one-shot call then selects its rules as a long-running process does, and gives clingo the text of
those alone.

A file is named by a digest of everything it was made from: clingo's and Python's versions (it is
in Python's `marshal` format), the code of the modules that make it (_MAKERS) and the name and text
of every rule file of the code. So a changed rule file, another clingo or a changed way of reading
the rules is another name, and a file never answers for rules it was not made from (the name is
cache.named's: CRC-32 and Adler-32 of those bytes, and their length). What the file holds is
checked against its own digest before any of it is used (cache.kept): a file that fails, or is
not a regular file of the user's, is set aside, said in one line on standard error, and made
again; the ruling is the one the rule files give. (Two installs of different versions, say a
checkout and a release, replace each other's file for a code: each makes it again, once, when it is
next used after the other.)
"""
from __future__ import annotations

import marshal
import os

from adjudicator.core import cache

_PREFIX, _SUFFIX = "rules-", ".marshal"
# The modules whose code makes an entry: how a statement is told to be a rule (engine.py), how a
# rule is summarized (relevance.py), and how a file is laid out (this one).
_MAKERS = ("engine.py", "relevance.py", "rulecache.py")


# Beside it, a code's rules as a batch grounds them (adjudicator/core/batch.py), each file's as texts.
_BATCH_PREFIX = "batch-"
_BATCH_MAKERS = ("engine.py", "batch.py", "rulecache.py")


def _path(code: str, parts, prefix: str = _PREFIX, makers=_MAKERS) -> str:
    import clingo
    made_from = [f"{clingo.__version__}\0".encode()]          # (cache.named adds Python's version)
    here = os.path.dirname(os.path.abspath(__file__))
    for name in makers:
        with open(os.path.join(here, name), "rb") as fh:
            made_from.append(fh.read())
    for part in parts:
        made_from.append(os.path.basename(part.path).encode() + b"\0" + part.text.encode() + b"\0")
    return cache.named(f"{prefix}{code}-", b"".join(made_from), _SUFFIX)


def load(code: str, parts) -> tuple[list[bytes], bytes, bytes] | None:
    """Each part's entry, in order, still in marshal's bytes (entry() reads one), the code's rule
    selector as it was worked out (selector() reads it) and its sentence templates (templates()
    reads them); None when no file was kept for exactly these rules, or it cannot be read back
    whole."""
    kept = _read(_path(code, parts))
    if not (isinstance(kept, list) and len(kept) == len(parts) + 2 and all(isinstance(e, bytes) for e in kept)):
        return None
    return kept[:-2], kept[-2], kept[-1]


# The files made when the package was built (a wheel: setup.py runs `python -m
# adjudicator.core.rulecache FOLDER`), shipped in it: a code's first ruling after an install finds
# its rules read already. Looked for when the cache folder has none of the name sought: the same
# name, so only for exactly these rules, this clingo, this way of reading them.
SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kept")


def _read(path: str):
    """What the kept file holds (the cache folder's, else the package's of that name), or None
    when there is none or it failed a check (then made again)."""
    kept = cache.kept(path)
    if kept is None:
        kept = cache.kept(os.path.join(SHIPPED, os.path.basename(path)), shipped=True)
    return kept


def entry(kept: bytes) -> tuple | None:
    """A part's entry of a loaded file: (rule positions, rule texts), or None when it cannot be
    read (the part's rules are then read from its file). Each part's entry is read only when the
    part is loaded for an incident: most incidents load half the files."""
    try:
        out = marshal.loads(kept)
    except (EOFError, ValueError, TypeError):
        return None
    return out if isinstance(out, tuple) and len(out) == 2 else None


def selector(kept: bytes) -> tuple | None:
    """The code's rule selector as a loaded file keeps it: (the number of rules of each part, the
    selector's state, relevance.Selector.state), or None when it cannot be read."""
    try:
        out = marshal.loads(kept)
    except (EOFError, ValueError, TypeError):
        return None
    return out if isinstance(out, tuple) and len(out) == 2 else None


def templates(kept: bytes) -> dict | None:
    """The code's sentence templates as a loaded file keeps them (name -> text, every file's, later
    files overriding earlier ones: engine.Program.templates), or None when they cannot be read.
    Picking them out of the rule files' texts is a one-shot call's work saved (7M instructions)."""
    try:
        out = marshal.loads(kept)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(out, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in out.items())):
        return None
    return out


def writable() -> bool:
    """Whether a file can be kept (the folder exists or can be made, and can be written)."""
    where = cache.folder()
    try:
        os.makedirs(where, exist_ok=True)
    except OSError:
        return False
    return os.access(where, os.W_OK)


def save(code: str, parts, entries: list[tuple], selector: tuple, templates: dict) -> None:
    """Keep the entries for these rules, the code's selector ((rules a part, state)) and its
    sentence templates, and forget those kept for the code's earlier rules. Whatever stops it (a
    full disk, a folder taken away) only means the next call reads the rules itself."""
    v = cache.MARSHAL
    _write(_path(code, parts), [marshal.dumps(e, v) for e in entries] + [marshal.dumps(_shared(selector, {}), v),
                                                                         marshal.dumps(templates, v)],
           f"{_PREFIX}{code}-")


def _shared(value, seen: dict):
    """The value with every equal tuple, frozenset and string made one object: marshal writes an
    object it has written before as a reference to it, so the selector's many equal patterns are
    kept once (half the bytes, and half the time to read them back: 1.0 against 2.3 ms)."""
    if isinstance(value, list):
        return [_shared(v, seen) for v in value]
    if isinstance(value, dict):
        return {_shared(k, seen): _shared(v, seen) for k, v in value.items()}
    if isinstance(value, set):
        return {_shared(v, seen) for v in value}
    if isinstance(value, tuple):
        value = tuple(_shared(v, seen) for v in value)
    elif isinstance(value, frozenset):
        value = frozenset(_shared(v, seen) for v in value)
    if not isinstance(value, (tuple, frozenset, str)):
        return value
    try:
        return seen.setdefault(value, value)
    except TypeError:                   # (a tuple holding a list)
        return value


def _write(path: str, data, prefix: str) -> None:
    cache.keep(path, data, prefix, _SUFFIX)


def load_batch(code: str, parts) -> list[list[str]] | None:
    """Each part's rules as a batch grounds them (adjudicator/core/batch.py), as texts, in order; None
    when none were kept for exactly these rules or they cannot be read back whole."""
    kept = _read(_path(code, parts, _BATCH_PREFIX, _BATCH_MAKERS))
    if not (isinstance(kept, list) and len(kept) == len(parts)
            and all(isinstance(e, list) and all(isinstance(t, str) for t in e) for e in kept)):
        return None
    return kept


def save_batch(code: str, parts, texts: list[list[str]]) -> None:
    """Keep each part's rules as a batch grounds them; as save(), whatever stops it only means the
    next process tags the rules itself."""
    if writable():
        _write(_path(code, parts, _BATCH_PREFIX, _BATCH_MAKERS), texts, f"{_BATCH_PREFIX}{code}-")
