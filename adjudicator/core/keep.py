"""What a wheel ships of the rules, made when it is built (setup.py): each code's rules as the rule
selection reads them (adjudicator/core/rulecache.py), so that a code's first ruling after `pip
install` does not read and keep them itself.

    python -m adjudicator.core.keep FOLDER
"""
from __future__ import annotations

import os

from adjudicator.core import cache, engine, registry, rulecache


def ship(folder: str) -> list[str]:
    """Make in `folder` the file of every code's rules (and the games' table), as the cache folder
    keeps them: what a wheel ships (setup.py). Returns the names made."""
    os.environ[cache.ENV] = os.path.abspath(folder)
    registry._data()
    for code in sorted({c["code"] for c in registry.all_codes() if c.get("rules")}):
        if not engine.program(code).cached:
            raise SystemExit(f"the rules of {code} could not be kept in {folder}")
    return sorted(os.listdir(folder))


if __name__ == "__main__":
    import sys
    made = ship(sys.argv[1])
    print(f"kept the rules of {sum(n.startswith(rulecache._PREFIX) for n in made)} codes in {sys.argv[1]}")
