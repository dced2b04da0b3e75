"""The law texts of each code: number, clauses, verbatim text, our summary, source."""
from __future__ import annotations

import functools
import os

import yaml

from . import registry
from .errors import InputError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def book(code: str) -> dict:
    info = registry.code_info(code)
    with open(os.path.join(registry.rules_dir(), info["laws"]), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader)


def lookup(code: str, ident: str) -> tuple[dict, str | None]:
    """The law with this id, and the clause asked for (e.g. '17.II' -> law 17, clause 'II')."""
    laws = {law["id"]: law for law in book(code)["laws"]}
    ident = ident.strip()
    if ident in laws:
        return laws[ident], None
    head, _, clause = ident.rpartition(".")
    if head in laws and clause:
        law = laws[head]
        if any(c["id"] == clause for c in law.get("clauses", [])):
            return law, clause
        raise InputError(f"law {head} of {code} has no clause {clause}",
                         hint="its clauses: " + (", ".join(c["id"] for c in law.get("clauses", [])) or "none"))
    ids = list(laws)
    import difflib
    close = difflib.get_close_matches(ident, ids, n=1)
    raise InputError(f"{code} has no law '{ident}'",
                     hint=f"did you mean '{close[0]}'?" if close else f"its laws are {ids[0]} to {ids[-1]}")


def citations(code: str) -> set[str]:
    """Every citation a ruling of this code may carry: law ids and law.clause ids, and those of the
    code it makes exceptions to (`base_code`: Dummy's laws are exceptions to the whist code's)."""
    b = book(code)
    out = citations(b["base_code"]) if b.get("base_code") else set()
    for law in b["laws"]:
        out.add(law["id"])
        for c in law.get("clauses", []):
            out.add(f"{law['id']}.{c['id']}")
    return out
