"""Values as an incident gives them, and as messages quote them back.

Y is a YAML value with its position (line and column); `shown` quotes a value as written, made
safe; `name_key` is what a player's name is compared by; `suggest` the word a misspelling most
likely meant. Used by the incident's reader and checker and by every table a message names a value
from (rules/codes.yaml's registry), so it imports nothing of theirs.
"""
from __future__ import annotations

import unicodedata
from typing import Any

from adjudicator.errors import INVISIBLE, safe


# (re.ASCII: a card is written in ASCII letters or the suit signs; without it, case-insensitive
# matching takes the long s `ſ` for s and the Kelvin sign for K, letters no suit or rank is named by;
# only spaces may stand between the rank and the suit, and around the card: "K\nS", "K\vS" or a tab
# is not how anyone writes a card, and is refused as written, never read as the king of spades)


def shown(v, limit: int = 40) -> str:
    """A value from the input as an error message may quote it: as written, made safe (one
    line, control and direction-changing characters escaped, cut short: errors.safe)."""
    # as written: `~` stays ~, `yes` stays yes (not None, True); a plain value as YAML writes it
    return safe(v if isinstance(v, str) else _written(v), limit)


# Capital letters of other scripts drawn like Latin ones (Cyrillic, Greek): a name spelled with them
# is compared as the Latin word it looks like, so `Аmes` (Cyrillic А) is Ames and `Ν` (Greek Nu) is N.
# Only capitals: a name is compared in capitals first (name_key), so that a small letter is read as
# its capital is (`том` as `ТОМ`, which is TOM); a table of small letters beside it read `ν` as v
# while `Ν` was N, and `οδυσσευς` and `ΟΔΥΣΣΕΥΣ` were two players (one name in two cases).
_LOOKALIKE = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԝ": "W", "У": "Y", "Һ": "H",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})


# Characters drawn as nothing that a name may still hold as printable text (errors.INVISIBLE: the
# control and format characters a name refuses outright): `Ames` followed by a variation selector
# is drawn `Ames`, and is compared as Ames; a name of them alone is drawn as no name.
_INVISIBLE = dict.fromkeys(INVISIBLE)


def name_key(name: str) -> str:
    """What a name is compared by: Unicode-normalised (NFKC), in capitals, look-alike letters read as
    the Latin ones, invisible characters left out, case folded, each run of spaces read as one space
    (`Ames  Jr` with two spaces is drawn as the same name as with one). Two names with one key are
    one name; a key that is a seat's is a seat.

    Any two names that differ only in case have one key, whichever letter's case differs: capitals
    first, so that `ß` is SS (`Straße` is `STRASSE`), a final sigma is Σ as a medial one is, and a
    small Cyrillic or Greek letter is read as its capital. The dotted capital `İ` and the dotless
    small `ı` are the Turkish case pairs of i and I: read as I (a dot above an i drawn as one i), so
    `İvy`, `Ivy`, `ivy` and `ıvy` are one name in any language, never two players one reader takes
    for one."""
    import unicodedata
    text = unicodedata.normalize("NFKC", name.translate(_INVISIBLE))
    text = unicodedata.normalize("NFKC", text.upper()).translate(_LOOKALIKE)
    return " ".join(text.casefold().replace("i\u0307", "i").split())


HAND, DECK = 13, 52


def seat_words(table) -> dict[str, str]:
    """How a seat of the table may be written, folded to lower case -> its id: the id, its word
    (`north`, `the elder hand`), the word without `the` (`elder hand`)."""
    out: dict[str, str] = {}
    for seat in table.seats:
        word = table.word(seat).lower()
        for w in (seat.lower(), word, word.removeprefix("the ")):
            out[w] = seat
    return out


def side_words(table) -> dict[str, str]:
    """How a side of the table may be written: `N-S`, `NS`, `N/S` (any case) -> `N-S`."""
    out: dict[str, str] = {}
    for side in table.sides:
        for w in (side.lower(), side.lower().replace("-", ""), side.lower().replace("-", "/")):
            out[w] = side
    return out


_UNPRINTABLE = {"Cc": "a control character", "Cf": "an invisible format character",
                "Zs": "a space other than the plain one", "Zl": "a line separator", "Zp": "a paragraph separator",
                "Cn": "a character Unicode does not assign", "Co": "a private-use character", "Cs": "a lone surrogate"}


def unprintable(c: str) -> str:
    """What a character a name or a text refuses is, in words: not every one is a control character
    (a no-break space, U+200B, U+10FFFF were all said to be one)."""
    if unicodedata.bidirectional(c) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "AL") \
            and unicodedata.category(c) == "Cf" or c in "\u200e\u200f":
        return "a character that turns the direction of the text"
    return _UNPRINTABLE.get(unicodedata.category(c), "a character that is not printable")


def _or(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _written(v) -> str:
    """A value as YAML writes it, whether read (Y: as written) or plain (None as ~, a bool as
    true or false, a list or mapping as flow data): never Python's repr."""
    if isinstance(v, Y):
        return v.text()
    if v is None:
        return "~"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_written(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_written(x) for x in v) + "]"
    return str(v)


class Y:
    """A YAML value with its position (1-based line and column)."""

    __slots__ = ("value", "line", "col", "keys", "raw")

    def __init__(self, value: Any, line: int, col: int, raw: str | None = None):
        self.value, self.line, self.col = value, line, col
        self.raw = raw          # a scalar's text as written (names and messages quote it)

    def text(self) -> str:
        """The scalar as written: `007` stays 007, `true` stays true; a mapping or a list as
        plain data (never a Python repr, which would differ run to run)."""
        if self.raw is not None:
            return self.raw
        return _written(self.value)

    __str__ = __repr__ = text


def suggest(word: str, options) -> str | None:
    """The option the word most likely meant: itself in other case (`Game`, `LEAD`), else the
    closest spelling."""
    import difflib  # only on the error path
    options = list(options)
    word = str(word)[:100]
    same = [o for o in options if isinstance(o, str) and o.lower() == word.strip().lower()]
    if same:
        return same[0]
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return close[0] if close else None



def law_key(law: str):
    """A law's id as the laws are ordered: numbers first, in numeric order ("9" before "24", "17.II"
    after "17"), then the named paragraphs ("bidding", "variations.irish-loo")."""
    head, _, rest = law.partition(".")
    return (0, int(head), rest) if head.isdigit() else (1, 0, law)
