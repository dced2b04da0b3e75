"""The user's cache folder: what adjudicator works out once and keeps between commands (the law
search's index, adjudicator/search.py; the rules as the rule selection reads them,
adjudicator/rulecache.py).

Each file there is named by a digest of what it was made from, so it never answers for sources it
was not made from, and writing one removes the older files of its kind. Nothing there is needed:
where the folder cannot be written, the work is done again by each command.
"""
from __future__ import annotations

import os

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
