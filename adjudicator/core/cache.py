"""The user's cache folder: what adjudicator works out once and keeps between commands (the law
search's index, adjudicator/lookup/search.py; the rules as the rule selection reads them,
adjudicator/core/rulecache.py).

Each file there is named by a digest of what it was made from, so it never answers for sources it
was not made from, and writing one removes the older files of its kind. Nothing there is needed:
where the folder cannot be written, the work is done again by each command.
"""
from __future__ import annotations

import marshal
import os
import sys
import zlib

ENV = "ADJUDICATOR_CACHE"


def folder() -> str:
    """$ADJUDICATOR_CACHE, else $XDG_CACHE_HOME/adjudicator, else ~/.cache/adjudicator. (A `~`
    the shell did not expand, as from a settings file, is the home folder still: never a folder
    named `~` made wherever the command runs.)"""
    if os.environ.get(ENV):
        return os.path.expanduser(os.environ[ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "adjudicator")


def forget_older(path: str, prefix: str, suffix: str) -> None:
    """Remove the files of the kind `path` is (its folder, prefix and suffix) other than `path`
    itself: they were made from sources that have since changed."""
    where = os.path.dirname(path)
    try:
        names = os.listdir(where)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(suffix) and name != os.path.basename(path):
            try:
                os.remove(os.path.join(where, name))
            except OSError:
                pass


def named(prefix: str, source: bytes, suffix: str = ".marshal") -> str:
    """The path of a kept file made from these bytes: its name is a digest of them (CRC-32 and
    Adler-32, and their length: guarding against an edit, not an adversary, who could as well
    write the folder) and of Python's version (marshal's format is Python's)."""
    data = f"{sys.version_info[:2]}\0".encode() + source
    return os.path.join(folder(), f"{prefix}{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}{suffix}")


def kept(path: str):
    """What a kept file holds, or None when it is absent, cut short or not ours (then made again)."""
    try:
        with open(path, "rb") as fh:
            return marshal.loads(fh.read())     # (the user's own cache folder, written by keep)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def keep(path: str, data, prefix: str, suffix: str = ".marshal") -> None:
    """Write data to path (marshal), whole or not at all, and forget the older files of its kind.
    Whatever stops it (no folder can be made, a full disk) only means the work is done again."""
    import tempfile
    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{prefix}", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            marshal.dump(data, fh)
        os.replace(tmp, path)           # whole or not at all, whoever else writes it at once
    except (OSError, ValueError):       # (ValueError: a value marshal cannot write)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return
    forget_older(path, prefix, suffix)
