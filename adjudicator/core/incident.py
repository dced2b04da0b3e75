"""Read an incident (or a case file) from YAML, check it against the schema, keep positions.

Every error names the file, the line and column, the key or event, what was expected, and a
suggestion. Values are normalised here (seats to N/E/S/W, cards to (rank, suit)); what they
mean is left to the rules.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

import yaml

from adjudicator.core import registry, schema
from adjudicator.errors import INVISIBLE, InputError, safe

MAX_BYTES = 1_000_000          # an incident is a page of text; refuse anything far larger
MAX_DEPTH = 12                 # incidents nest four or five levels deep (case files seven)
MAX_NODES = 5_000              # values in the file; a hand described in full has about 600
MAX_EVENTS = 100               # a hand played out in full, with its deal and claims, is about 80
MAX_LIST = 52                  # items in one list: a pack
MAX_NAME = 60                  # characters in a player's name
# Grounding grows faster than the number of events: these limits keep the worst incident the
# format admits well inside the engine's time limit (tests/test_hostile.py measures it).

try:  # libyaml when present: ten times faster
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

SUITS = {
    "s": "spades", "spade": "spades", "spades": "spades", "♠": "spades",
    "h": "hearts", "heart": "hearts", "hearts": "hearts", "♥": "hearts",
    "d": "diamonds", "diamond": "diamonds", "diamonds": "diamonds", "♦": "diamonds",
    "c": "clubs", "club": "clubs", "clubs": "clubs", "♣": "clubs",
}
RANKS = {"a": 14, "k": 13, "q": 12, "j": 11, "t": 10, "10": 10,
         **{str(n): n for n in range(2, 10)}}
CARD_RE = re.compile(r"(10|[2-9tjqka]) *(?:of +)?([shdc♠♥♦♣]|spades?|hearts?|diamonds?|clubs?)", re.I | re.ASCII)
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


class Event:
    """One event as read: its moment T (1 for the first), name, checked fields, and line."""

    __slots__ = ("index", "name", "fields", "line")

    def __init__(self, index: int, name: str, fields: dict[str, Any], line: int):
        self.index, self.name, self.fields, self.line = index, name, fields, line


class Incident:
    """A checked incident: the game and code, the top-level values, the events in order."""

    def __init__(self, file: str, game: str, code: str, top: dict[str, Any], events: list[Event],
                 players: dict[str, str] | None = None, candidates: list[str] | None = None):
        self.file, self.game, self.code, self.top, self.events = file, game, code, top, events
        self.name: str | None = None
        self.expected: Any = None
        self.expected_pos: tuple[int, int] | None = None
        self.players = players or {}            # seat -> name
        self.code_given = True                  # False: no `code`, the game's default code rules
        self.candidates = candidates or []
        self.hand_lines: dict[str, int] = {}    # seat -> line of its entry under `hands`
        self.key_lines: dict[str, int] = {}     # top-level key -> its line (key_line(K) in the rules)

    def line_of(self, t: int) -> int | None:
        if 1 <= t <= len(self.events):
            return self.events[t - 1].line
        return None


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


# ----------------------------------------------------------------------------------------
# YAML to Y values. The parser's events are read one by one and the values built with an
# explicit stack: nothing recurses, so no nesting can exhaust the stack, and the limits on
# depth and size stop the reading as soon as they are passed, whatever follows.
# ----------------------------------------------------------------------------------------
# Plain scalars are read by the YAML 1.2 core schema, not PyYAML's YAML 1.1 rules (which read a
# player named Off as false, 007 as 7, 010 as 8 and 1:30 as 90): null, true/false, and a whole
# number written plainly; everything else (010, 1:30, 0x1F, 2.5, yes, Off) stays the text written,
# for the schema to take as a name or refuse as a number (Checker.integer).
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_NOT_VALUES = (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)


def _pos(mark) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


class _Frame:
    __slots__ = ("y", "key", "name")

    def __init__(self, y: Y, name: str | None = None):
        self.y, self.key, self.name = y, None, name      # name: the key it stands under, if any


class Reader:
    """Builds Y values from the parser's events, refusing aliases, tags and absurd sizes."""

    def __init__(self, file: str):
        self.file = file
        self.nodes = 0

    def err(self, msg, event=None, hint=None):
        line, col = _pos(event.start_mark) if event is not None else (None, None)
        return InputError(msg, self.file, line, col, hint)

    def read(self, loader) -> Y | None:
        root: Y | None = None
        stack: list[_Frame] = []
        documents = 0
        while True:
            ev = loader.get_event()
            if ev is None or isinstance(ev, yaml.StreamEndEvent):
                return root
            if isinstance(ev, _NOT_VALUES):
                continue
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise self.err("a second YAML document begins here: a file holds one incident", ev,
                                   "remove the '---' line and what follows, or put it in a file of its own")
                continue
            if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                stack.pop()
                continue
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                raise self.err("YAML anchors and aliases (&name, *name) are not allowed in an incident", ev,
                               "write each value out in full")
            if ev.tag is not None:      # (`! 3`, the non-specific tag, too: a tag, not quotes)
                tag = ev.tag.replace("tag:yaml.org,2002:", "!!", 1)
                raise self.err(f"YAML tags ({shown(tag)}) are not allowed in an incident", ev,
                               "write the value plainly (in quotes if it must stay text)")
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise self.err(f"the file has more than {MAX_NODES:,} values; an incident is far smaller", ev,
                               "is this the right file?")
            line, col = _pos(ev.start_mark)
            parent = stack[-1] if stack else None
            is_key = parent is not None and isinstance(parent.y.value, dict) and parent.key is None
            if isinstance(ev, yaml.ScalarEvent):
                if is_key:
                    self._key(parent, ev, loader)
                    continue
                if ev.value == "" and ev.implicit[0] and parent is not None and isinstance(parent.y.value, dict):
                    self._nothing_written(stack, ev)
                y = Y(self._scalar(ev, loader, stack), line, col, ev.value)
            else:
                if is_key:
                    raise self.err("a key must be a plain word, not a list or a mapping", ev,
                                   "write the key as one word before its colon, e.g. dealer: S")
                if len(stack) >= MAX_DEPTH:
                    line, col = _pos(ev.start_mark)
                    raise _too_deep(self.file, line, col)
                y = Y({} if isinstance(ev, yaml.MappingStartEvent) else [], line, col)
                if isinstance(y.value, dict):
                    y.keys = {}
            name = None
            if parent is None:
                root = y
            elif isinstance(parent.y.value, list):
                parent.y.value.append(y)
            else:
                name = parent.key.value
                parent.y.value[name] = y
                parent.key = None
            if not isinstance(ev, yaml.ScalarEvent):
                stack.append(_Frame(y, name))

    # Keys a value may be left off: the free text of the top (a case's `name`, a `note`) and an event
    # written without fields (`- deal:`).
    _MAY_BE_EMPTY = frozenset({"note", "name", "expected"})

    def _nothing_written(self, stack: list[_Frame], ev) -> None:
        """A key with nothing after its colon (`dealer:`): said so, where an empty value is not a
        value, rather than quoted as '' in a sentence saying it is not a seat or not a game."""
        key = stack[-1].key.value
        if len(stack) == 1 and key in self._MAY_BE_EMPTY:
            return
        if len(stack) == 3 and stack[1].name == "events" and stack[-1].name is None:
            return          # the event's own name: `- deal:` is the event with no fields
        path = self._path(stack)
        raise self.err(f"{shown(path)}: nothing is written after the colon", ev,
                       f"write the value after `{shown(key)}:`" + ("" if self._required(stack, key)
                                                                   else ", or leave the key out"))

    @staticmethod
    def _required(stack: list[_Frame], key: str) -> bool:
        """Whether the key may not be left out: `game`, `events`, an event's required field."""
        if len(stack) == 1:
            f = schema.TOP_KEYS.get(key)
        elif len(stack) == 4 and stack[1].name == "events" and stack[-1].name in schema.EVENTS:
            f = next((g for g in schema.EVENTS[stack[-1].name].fields if g.name == key), None)
        else:
            return False
        return bool(f and f.required)

    def _key(self, frame: _Frame, ev, loader) -> None:
        if loader.resolve(yaml.ScalarNode, ev.value, ev.implicit) == "tag:yaml.org,2002:merge":
            raise self.err("YAML merge keys (<<) are not allowed in an incident", ev, "write each key out in full")
        key = str(ev.value)
        if key in frame.y.value:
            raise self.err(f"the key '{shown(key)}' is given twice", ev, "give each key once")
        line, col = _pos(ev.start_mark)
        frame.key = frame.y.keys[key] = Y(key, line, col)

    @staticmethod
    def _path(stack: list[_Frame]) -> str:
        """Where a value stands, in the words the checks use: `score.N-S`, `start.trick`, `lead.card`
        (an event's field is named by its event, as in `consult.by`)."""
        keys = [f.name for f in stack if f.name is not None]
        if stack and stack[-1].key is not None:
            keys.append(stack[-1].key.value)
        return ".".join(keys[1:] if keys[:1] == ["events"] and len(keys) > 1 else keys)

    def _scalar(self, ev, loader, stack: list[_Frame]):
        """A scalar by the YAML 1.2 core schema: null, true/false, a whole number, or text."""
        text = ev.value
        if not ev.implicit[0]:       # quoted: text as written
            return text
        if text in _NULL:
            return None
        if text in _BOOL:
            return _BOOL[text]
        if _INT.fullmatch(text):
            if len(text) > 100:
                path = self._path(stack)
                where = f"{shown(path)}: " if path else ""
                raise self.err(f"{where}the number {shown(text, 12)} has {len(text):,} digits; "
                               "no number in an incident is that long", ev,
                               "write the number meant, in a few plain decimal digits (a score, a trick or a "
                               "stake), e.g. 3")
            return int(text)
        return text


_YAML_HINT = "check the indentation and that every event is a '- name: {...}' item"


def load_text(text: str, file: str) -> Y:
    """Parse YAML text into Y values, with clear errors."""
    stray = text.find("\ufeff", 1 if text.startswith("\ufeff") else 0)
    if stray >= 0:              # (one at the very start is the UTF-8 signature, read as nothing)
        line = text.count("\n", 0, stray) + 1
        col = stray - (text.rfind("\n", 0, stray) + 1) + 1
        raise InputError("an invisible byte-order mark (U+FEFF) stands inside the file, where YAML cannot "
                         "read it", file, line, col,
                         "delete it (an editor joining two files, or saving twice, can leave one); "
                         "save the file as UTF-8 with at most one at its very start")
    reader = Reader(file)
    loader = _Loader(text)
    try:
        root = reader.read(loader)
    except yaml.MarkedYAMLError as e:
        raise _syntax_error(e, text, file)
    except yaml.reader.ReaderError as e:
        line, col = _line_col(text, e.position, _Loader is not yaml.SafeLoader)
        what = f"the character {ascii(chr(e.character))}" if isinstance(e.character, int) else "a character"
        raise InputError(f"{what} cannot appear in a YAML incident ({e.reason})", file, line, col,
                         "remove it; only printable text may appear")
    except yaml.YAMLError as e:
        raise InputError(f"this is not valid YAML: {shown(e, 200)}", file,
                         hint=_YAML_HINT)
    finally:
        loader.dispose()
    if root is None:
        what = "the file is empty" if not text.strip() else "the file holds only comments"
        raise InputError(f"{what}: an incident needs at least `game` and `events`", file, 1, 1,
                         "see docs/incident-format.md")
    return root


def _too_deep(file: str, line: int | None, col: int | None) -> InputError:
    return InputError(f"values are nested more than {MAX_DEPTH} deep; an incident never needs that", file, line,
                      col, "write each value as docs/incident-format.md shows it: a word, a list, or a mapping "
                      "of words")


def _syntax_error(e: yaml.MarkedYAMLError, text: str, file: str) -> InputError:
    """The parser's complaint, said for a person: where, what, and (for the common slips) why."""
    mark = e.problem_mark or e.context_mark
    line, col = _pos(mark)
    lines = text.splitlines()
    at = lines[line - 1][col - 1:col] if line is not None and 0 < line <= len(lines) else ""
    if at == "\t" or (line is not None and 0 < line <= len(lines) and "\t" in lines[line - 1][:col]):
        return InputError("a tab cannot indent YAML", file, line, col, "indent with spaces")
    problem = e.problem or "not valid YAML"
    context = e.context or ""
    if "maximum nesting depth" in problem:
        # (the libyaml of PyYAML 6.0.4 bounds nesting itself, while it scans ahead of the events the
        # reader bounds, so it may say so first: the same refusal, where it found the depth)
        return _too_deep(file, line, col)
    if problem.startswith("mapping values are not allowed") and line is not None and 0 < line <= len(lines) \
            and col is not None and col > 1024:
        key = lines[line - 1][:col - 1].strip().lstrip("-").strip().lstrip("{").strip()
        if len(key) > 1024:     # YAML reads no plain key longer than 1024 characters (then the ':' is lost)
            return InputError(f"a key of {len(key):,} characters ('{shown(key, 24)}'): a key (an event's or a "
                              "field's name) is one short word, and YAML reads none longer than 1,024", file,
                              line, col - len(key), "write the event or key name as docs/incident-format.md "
                              "gives it (`adjudicator events` lists them)")

    if "directive" in problem or "incompatible YAML document" in problem or (
            "<document start>" in problem and any(ln.startswith("%") for ln in lines[:line or 0])):
        # a `%YAML 2.0`, a `%YAML` given twice, an unknown `%FOO`, or a directive with no `---` after it:
        # the indentation has nothing to do with it
        return InputError(f"this is not valid YAML: {problem}", file, line, col,
                          "an incident needs no `%` line: remove the lines beginning with `%` (and a `---` "
                          "after them)")
    if "flow" in context and e.context_mark is not None and e.context_mark is not mark:
        cl, cc = _pos(e.context_mark)
        opened = "{" if "mapping" in context else "["
        closer = "}" if opened == "{" else "]"
        return InputError(f"this is not valid YAML: {problem} (the '{opened}' opened at line {cl}, "
                          f"column {cc} is not closed)", file, line, col,
                          f"close it with '{closer}' on line {cl}")
    return InputError(f"this is not valid YAML: {problem}", file, line, col, _YAML_HINT)


def _line_col(text: str, position: int, in_bytes: bool) -> tuple[int, int]:
    """Line and column of a reader error's position (libyaml counts bytes, PyYAML characters)."""
    before = text.encode("utf-8")[:position].decode("utf-8", "ignore") if in_bytes else text[:position]
    line = before.count("\n") + 1
    return line, position - (before.rfind("\n") + 1) + 1


def _byte_pos(data: bytes, offset: int) -> tuple[int, int]:
    before = data[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def read_stdin() -> bytes:
    """Standard input, read as bytes and never more than MAX_BYTES + 1 of them."""
    import sys
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if stream is None:
        return b""
    data = stream.read(MAX_BYTES + 1)
    return data.encode("utf-8") if isinstance(data, str) else data


PATH_SHOWN = 100     # a path that cannot be opened is quoted by its last 100 characters


def _path_named(path: str) -> str:
    """A path as a refusal to open it names it: whole up to PATH_SHOWN characters, else by its end
    (the file's own name; reading.path_shown), made safe; quoted when spaces at an end would not
    show."""
    from adjudicator.core.reading import path_shown
    shown = path_shown(path, PATH_SHOWN)
    return shown if path == path.strip() else f"'{shown}'"


def _read_file(path: str, name: str) -> bytes:
    """A regular file's bytes. Opened without blocking and checked with fstat before any read:
    a FIFO, a device (/dev/zero, /dev/urandom, a terminal) or a directory is refused at once."""
    import os
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        if os.path.islink(path):        # (`ls` lists it: "no such file" would contradict it)
            from adjudicator.core.reading import path_shown
            raise InputError(f"this is a link to '{path_shown(os.readlink(path), 60)}', which does not exist", name,
                             hint="give the path of the incident file itself, or mend the link")
        raise InputError("no such file", name, hint="check the path (or give '-' to read standard input)")
    except IsADirectoryError:
        raise InputError("this is a directory, not an incident file", name, hint="give the path of a .yaml file")
    except PermissionError:
        raise InputError("the file cannot be read (permission denied)", name,
                         hint="give yourself read permission (chmod u+r), or copy the incident to a file you can read")
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else "not a usable path"
        raise InputError(f"the file cannot be opened: {reason.lower()}", name,
                         hint="check the path (or give '-' to read standard input)")
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError("this is a directory, not an incident file", name, hint="give the path of a .yaml file")
        if not stat.S_ISREG(st.st_mode):
            raise InputError("this is not a regular file (a pipe, a device or a socket)", name,
                             hint="save the incident to a file, or pipe it in and give '-' for standard input")
        if st.st_size > MAX_BYTES:
            raise InputError(f"the file is {st.st_size:,} bytes; an incident is at most {MAX_BYTES:,}", name,
                             hint="is this the right file?")
        chunks, left = [], MAX_BYTES + 1
        while left > 0:
            try:
                chunk = os.read(fd, min(left, 1 << 20))
            except OSError as e:
                raise InputError(f"the file cannot be read: {(e.strerror or 'read error').lower()}", name,
                                 hint="copy the incident to a local file and give its path")
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_source(path: str, stdin_text: str | bytes | None = None) -> tuple[str, str]:
    """Return (text, display name) for a path or '-' (standard input)."""
    if path == "-":
        name = "<stdin>"
        data = stdin_text.encode("utf-8", "surrogateescape") if isinstance(stdin_text, str) else (stdin_text or b"")
    else:
        # as messages print it: escaped, one line; an empty path, or one with spaces at an end (' ',
        # 'case.yaml '), quoted, else the spaces would not show (': no such file')
        if not path:    # (`adjudicate ''`: said so, not "'': no such file")
            raise InputError("an empty argument names no incident file", "adjudicator",
                             hint="give the incident file's path (or '-' to read standard input)")
        name = safe(path) if path == path.strip() else f"'{safe(path)}'"
        data = _read_file(path, _path_named(path))
    if len(data) > MAX_BYTES:
        raise InputError(f"the input is over {MAX_BYTES:,} bytes; an incident is at most {MAX_BYTES:,}", name,
                         hint="is this the right file?")
    # UTF-32 first: its mark begins with UTF-16's, and its text has three NUL bytes in four
    wide = ("UTF-32" if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
            or (len(data) >= 8 and data[:16].count(0) >= 9) else
            "UTF-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff")
            or (len(data) >= 4 and (data[1::2][:8].count(0) >= 3 or data[0::2][:8].count(0) >= 3)) else None)
    if wide:
        raise InputError(f"this is {wide} text, not UTF-8", name, 1, 1,
                         "save it as UTF-8 (in most editors: Save As, with the encoding UTF-8)")
    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _byte_pos(data, nul)
        raise InputError("this is binary data (a NUL byte), not a YAML incident", name, line, col,
                         "an incident is a text file; is this the right file?")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _byte_pos(data, e.start)
        raise InputError(f"this is not UTF-8 text (byte {data[e.start]:#04x})", name, line, col,
                         "save the file as UTF-8")
    return text, name


# ----------------------------------------------------------------------------------------
# Value parsers, one per schema type. Each returns a normalised Python value or raises.
# ----------------------------------------------------------------------------------------
def last_trick(game: str | None) -> int:
    """The greatest number a trick of the game can have (rules/codes.yaml `tricks`); no bound of
    the game's for a game played without tricks (poker) or not yet known."""
    n = registry.tricks(game)
    return n if n is not None else 10_000


def _as_written(y: Y):
    """A seat's or a player's value: a scalar YAML reads as a number or a flag (a player named `42`
    or `Off` in `players`) is taken as written, as the names under `players` are."""
    v = y.value
    if not isinstance(v, (str, dict, list)) and y.raw is not None:
        return y.raw
    return v


class Checker:
    def __init__(self, file: str, players: dict[str, str] | None = None, candidates=(), game=(7, "1"),
                 table=None):
        self.file = file
        # the game's table: its seats and sides, as written (rules/codes.yaml `tables:`)
        self.table = table or registry.table("whist")
        self.seat_words, self.side_words = seat_words(self.table), side_words(self.table)
        self.game = "whist"
        self.game_points, self.game_law = game     # what a game is, in the code in force
        self.players = players or {}          # seat -> name
        self.by_name = {name_key(v): k for k, v in self.players.items()}
        self.candidates = {name_key(c): c for c in candidates}
        self.seated: set[str] | None = None   # a round table's places taken (loo, poker), when `players` names them

    def err(self, y: Y, msg: str, hint: str | None = None):
        return InputError(msg, self.file, y.line, y.col, hint)

    def seat(self, y: Y, what: str):
        v = _as_written(y)
        if isinstance(v, str):
            s = self.seat_words.get(v.strip().lower()) or self.by_name.get(name_key(v))
            if s and self.seated is not None and s not in self.seated:
                taken = ", ".join(f"{x} ({self.players[x]})" for x in self.table.seats if x in self.seated)
                raise self.err(y, f"{what}: no one sits at '{shown(v)}' in this game: the places taken are "
                               f"those `players` names", f"the players: {taken}; or add the place to `players`")
            if s:
                return s
        names = ", ".join(self.players.values())
        hint = f"a seat is {_or(self.table.seats)}" + (f", or one of the players: {names}" if names else "")
        odd = next((c for c in v if ord(c) > 127), None) if isinstance(v, str) else None
        if odd and name_key(v) in self.seat_words:
            import unicodedata
            raise self.err(y, f"{what}: '{shown(y)}' looks like the seat {self.seat_words[name_key(v)]} but is "
                           f"written with {unicodedata.name(odd, 'a letter of another script').lower()} "
                           f"(U+{ord(odd):04X})", "type the seat in plain Latin letters: " + hint)
        raise self.err(y, f"{what}: '{shown(y)}' is not a seat", hint)

    def person(self, y: Y, what: str):
        v = _as_written(y)
        if isinstance(v, str):
            key = name_key(v)
            if key in self.candidates:
                return ("name", self.candidates[key])
            if key in self.seat_words or key in self.by_name:
                return ("seat", self.seat(y, what))
            close = suggest(v, list(self.candidates.values()))
            raise self.err(y, f"{what}: '{shown(v)}' is not among the candidates",
                           f"did you mean '{close}'?" if close else "list everyone in `candidates`")
        raise self.err(y, f"{what}: expected a player's name", "write the name as it is given under `players` or `candidates`")

    def card(self, y: Y, what: str):
        v = y.value
        if isinstance(v, (str, int)):
            m = CARD_RE.fullmatch(str(v).strip(" "))
            if m:
                rank = RANKS[m.group(1).lower()]
                s = m.group(2).lower()
                suit = SUITS.get(s) or SUITS.get(s[0])
                return (rank, suit)
        raise self.err(y, f"{what}: '{shown(y)}' is not a card",
                       "write rank then suit: AS, KH, QD, JC, 10S (or TS), 9H ... 2C")

    def suit(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in SUITS:
            return SUITS[v.strip().lower()]
        close = suggest(str(v).strip().lower(), ("spades", "hearts", "diamonds", "clubs"))
        raise self.err(y, f"{what}: '{shown(y)}' is not a suit",
                       f"did you mean '{close}'?" if close else "a suit is spades, hearts, diamonds or clubs")

    def holding(self, y: Y, what: str):
        out, items = [], self.items(y, what)
        for it in items:
            v = it.value
            if isinstance(v, str) and v.strip().lower() in SUITS:
                out.append(("suit", SUITS[v.strip().lower()]))
            else:
                try:
                    out.append(("card", self.card(it, what)))
                except InputError:
                    raise self.err(it, f"{what}: '{shown(v)}' is neither a card nor a suit",
                                   "e.g. holding: spades, or holding: [KS, 5S]")
        return self.listed_once(out, items, what)

    def listed_once(self, values: list, items: list, what: str, kind: str | None = None) -> list:
        """`values`, read from `items`, name nothing twice, in one spelling or two (`AS`, `as`,
        `A♠`; `hearts`, `H`; `N`, `north`): a list names each card, suit or seat once. `kind` names
        what the list holds; a holding's values say it themselves (("card", c), ("suit", s))."""
        first: dict = {}
        for value, it in zip(values, items):
            if value in first:
                was, k = first[value], kind or value[0]
                raise self.err(it, f"{what}: '{shown(it.text())}' is the {k} written '{shown(was.text())}' at "
                               f"line {was.line}: one {k} cannot be listed twice", f"list each {k} once")
            first[value] = it
        return values

    def cards(self, y: Y, what: str):
        items = self.items(y, what)
        return self.listed_once([self.card(it, what) for it in items], items, what, "card")

    def seats(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in self.side_words:
            return list(self.table.sides[self.side_words[v.strip().lower()]])
        items = self.items(y, what, len(self.table.seats))
        return self.listed_once([self.seat(it, what) for it in items], items, what, "seat")

    def side(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in self.side_words:
            return self.side_words[v.strip().lower()]
        raise self.err(y, f"{what}: '{shown(y)}' is not a side",
                       f"a side is {_or(self.table.sides)}" if self.table.sides
                       else "in this game each plays for himself: there are no sides")

    def integer(self, y: Y, what: str, lo=0, hi=10_000):
        v = y.value
        if isinstance(v, str) and re.fullmatch(r"[-+]?0[0-9_]+", v.strip()):
            n = v.strip().lstrip("+-0").replace("_", "") or "0"
            raise self.err(y, f"{what}: '{shown(v)}' has a leading zero, which some readers take for an "
                           "octal number", f"write {n}")
        if isinstance(v, str) and re.fullmatch(r"[-+]?[0-9]+(:[0-5]?[0-9])+", v.strip()):
            raise self.err(y, f"{what}: '{shown(v)}' is not a whole number (some readers take it for "
                           "minutes and seconds)", "write one whole number, e.g. 3")
        if isinstance(v, str) and re.fullmatch(r"[-+]?[0-9]+", v.strip()):
            raise self.err(y, f"{what}: '{shown(v)}' is written in quotes, which makes it text, not a number",
                           f"write {v.strip()} without the quotes")
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(y, f"{what}: expected a whole number, not '{shown(y.text())}'",
                           "write the number in plain decimal digits, e.g. 3")
        if not lo <= v <= hi:
            # (as written: `-0` and `+99` are said so, not as 0 and 99, which the file does not hold)
            raise self.err(y, f"{what}: {shown(y.text().strip())} is out of range ({lo} to {hi})",
                           f"write a number from {lo} to {hi}")
        return v

    def boolean(self, y: Y, what: str):
        if isinstance(y.value, bool):
            return y.value
        if isinstance(y.value, str) and y.value.strip() in ("true", "false"):
            # `'true'` in quotes is text: as with a number in quotes, say so (not "expected true,
            # not 'true'", which reads as a contradiction)
            raise self.err(y, f"{what}: '{shown(y.value)}' is written in quotes, which makes it text, not "
                           "true or false", f"write {y.value.strip()} without the quotes")
        raise self.err(y, f"{what}: expected true or false, not '{shown(y.text())}'",
                       "write true or false (yes, no, on and off are read as words)")

    def items(self, y: Y, what: str, limit: int = MAX_LIST) -> list[Y]:
        """A list's items (a single value is a list of one), at most `limit` of them."""
        items = y.value if isinstance(y.value, list) else [y]
        if len(items) > limit:
            raise self.err(items[limit], f"{what}: more than {limit} items in one list",
                           "a pack has 52 cards and a table four seats; is the list right?")
        return items

    def name(self, y: Y, what: str) -> str:
        """A player's name: one line of printable text, not a seat's name."""
        if isinstance(y.value, (dict, list)) or y.value is None:
            raise self.err(y, f"{what}: expected a player's name, not '{shown(y)}'",
                           "write the name after the seat, e.g. N: Ames")
        v = y.text().strip(" \t")       # (only spaces: a control character at either end is refused below)
        if not v or (v.isprintable() and not name_key(v)):      # (nothing visible: invisible characters alone)
            raise self.err(y, f"{what}: a player's name cannot be empty" + (f" (it holds only invisible characters: "
                           f"'{shown(v)}')" if v else ""),
                           "write the player's name, or leave the seat out of `players`")
        bad = next((c for c in v if not c.isprintable()), None)
        if bad is not None:
            raise self.err(y, f"{what}: the name '{shown(v)}' holds {unprintable(bad)} ({ascii(bad)})",
                           "a name is one line of printable text" + (", its spaces plain ones" if
                                                                      unicodedata.category(bad) == "Zs" else ""))
        if len(v) > MAX_NAME:
            raise self.err(y, f"{what}: a player's name is at most {MAX_NAME} characters, not {len(v):,}",
                           "shorten the name")
        if name_key(v) in self.seat_words or name_key(v) in self.side_words:
            same = "" if v.lower() in self.seat_words or v.lower() in self.side_words else \
                f" (written with look-alike or compatibility characters: {ascii(v)})"
            raise self.err(y, f"{what}: '{shown(v)}' is the name of a seat or a side, not of a player{same}",
                           "give the player's own name")
        return v

    def names(self, y: Y, what: str, limit: int = 20) -> list[str]:
        out: list[str] = []
        written: list[str] = []          # each as the file has it (spaces around it and all): quoted so
        for it in self.items(y, what, limit):
            v = self.name(it, what)
            as_written = it.value if isinstance(it.value, str) else v
            twin = next((w for o, w in zip(out, written) if name_key(o) == name_key(v)), None)
            if twin is not None:
                how = "" if twin == as_written else \
                    f" (as '{shown(twin)}' before: the same name in another spelling)"
                raise self.err(it, f"{what}: '{shown(as_written)}' is named twice{how}", "name each player once")
            out.append(v)
            written.append(as_written)
        return out

    def text(self, y: Y, what: str):
        """Free text (a player's words, a detail): printable, over one line or several. An escape
        in a quoted string (`"\\e[2J"`, `"\\u202e"`) could otherwise reach the terminal that
        shows the story and clear it, retitle it or turn the words round."""
        if isinstance(y.value, (dict, list)):
            raise self.err(y, f"{what}: expected text, not a list or a mapping",
                           "write it as one value on the line, in quotes if it holds a colon")
        v = "" if y.value is None else y.text()
        bad = next((c for c in v if not c.isprintable() and c not in "\n\t"), None)
        if bad is not None:
            raise self.err(y, f"{what}: the text '{shown(v)}' holds {unprintable(bad)} ({ascii(bad)[1:-1]})",
                           "write the words as plain printable text")
        return v

    def choice(self, y: Y, what: str, choices):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in choices:
            return v.strip().lower()
        close = suggest(str(v), choices)
        raise self.err(y, f"{what}: '{shown(y)}' is not one of {', '.join(choices)}",
                       f"did you mean '{close}'?" if close else "write one of them as it is spelled here")

    def remedy(self, y: Y, what: str):
        v = y.value
        ids = registry.remedy_ids()
        if isinstance(v, str) and v.strip().lower() in ids:
            return v.strip().lower()
        # the laws' own words for one (a "fresh deal", piquet 13) lead to its id by its description
        # (rules/remedies.yaml) before any look-alike spelling does
        # (the one whose description says them soonest: "a new deal (a fresh deal ...)" before
        # "... alters his discard instead of a fresh deal")
        words = str(v).strip().lower().replace("-", " ")
        described = sorted((d.lower().find(words), i) for i, d in registry.remedies().items()
                           if len(words) > 3 and words in d.lower() and i in ids)
        close = described[0][1] if described else suggest(str(v), ids)
        raise self.err(y, f"{what}: '{shown(y)}' is not a remedy the laws give",
                       f"did you mean '{close}'?" if close else "`adjudicator remedies` lists them")

    def mapping(self, y: Y, what: str):
        if not isinstance(y.value, dict):
            raise self.err(y, f"{what}: expected a mapping (key: value), not '{shown(y)}'",
                           f"write it as `key: value` pairs (`adjudicator events {what.split('.')[0].split('[')[0]}` "
                           "gives its keys)")
        return y.value

    def once(self, seen: dict, thing: str, ky: Y, what: str, kind: str):
        """`thing` (a side, a seat) read from key `ky` is not given twice in another spelling."""
        if thing in seen:
            first = seen[thing]
            raise self.err(ky, f"{what}: '{shown(ky.text())}' is the {kind} {thing} again (written "
                           f"'{shown(first.text())}' at line {first.line})", f"give each {kind} once")
        seen[thing] = ky

    def value(self, f: schema.Field, y: Y, what: str):
        t = f.type
        if f.choices:
            return self.choice(y, what, f.choices)
        if t == "seat":
            return self.seat(y, what)
        if t == "seats":
            return self.seats(y, what)
        if t == "person":
            return self.person(y, what)
        if t == "names":
            return self.names(y, what)
        if t == "card":
            return self.card(y, what)
        if t == "cards":
            return self.cards(y, what)
        if t == "holding":
            return self.holding(y, what)
        if t == "suit":
            return self.suit(y, what)
        if t == "suits":
            items = self.items(y, what, 4)
            return self.listed_once([self.suit(it, what) for it in items], items, what, "suit")
        if t == "int":
            return self.integer(y, what, *(f.span or (0, 10_000)))
        if t == "trick":
            return self.integer(y, what, 1, last_trick(getattr(self, "game", None)))
        if t == "bool":
            return self.boolean(y, what)
        if t == "text":
            return self.text(y, what)
        if t == "remedy":
            return self.remedy(y, what)
        if t == "side-scores" and not what.startswith("score") and not self.table.sides:
            # the tricks taken at a table with no fixed sides (Boston, Solo Whist: the sides of a hand
            # come from its bid, and at Misère Partout each plays for himself): each seat's own
            m = self.mapping(y, what)
            out, seen = {}, {}
            for k, v in m.items():
                try:
                    seat = self.seat(y.keys[k], f"{what} key")
                except InputError:
                    raise self.err(y.keys[k], f"{what} key: '{shown(k)}' is not a seat",
                                   "in this game each plays for himself: give each seat's tricks, e.g. "
                                   "tricks: {N: 5, E: 3, S: 3, W: 2} (the sides of the hand come from `bid`)") from None
                self.once(seen, seat, y.keys[k], what, "seat")
                out[seat] = self.integer(v, f"{what} of {seat}", 0, last_trick(getattr(self, "game", None)))
            return out
        if t == "side-scores":
            m = self.mapping(y, what)
            out = {}
            seen: dict = {}
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
                self.once(seen, side, y.keys[k], what, "side")
                if what.startswith("score"):
                    n = self.integer(v, f"{what} of {side}", 0, 100)
                    g = self.game_points
                    if n >= g:
                        raise self.err(v, f"{what} of {side}: {n} is not a score before a hand",
                                       f"a game is {g} points; a side at {g} has already won it "
                                       f"(law {self.game_law})")
                    out[side] = n
                else:
                    out[side] = self.integer(v, f"{what} of {side}", 0, 13)
            return out
        if t == "side-games":
            m = self.mapping(y, what)
            games = {}
            seen = {}
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
                self.once(seen, side, y.keys[k], what, "side")
                if not isinstance(v.value, list):
                    raise self.err(v, f"{what} of {side}: expected a list of the values of the games won",
                                   "e.g. rubber: {N-S: [2], E-W: []} (N-S have won a game worth two)")
                games[side] = [self.integer(g, f"{what} of {side}", 1, self.game_points) for g in v.value]
            return games
        raise self.err(y, f"{what}: unknown field type {t}")  # pragma: no cover


def _check_keys(ck: Checker, y: Y, allowed: dict, what: str):
    for key, ky in y.keys.items():
        if key not in allowed:
            close = suggest(key, allowed)
            hint = f"did you mean '{close}'?" if close else f"the keys are: {', '.join(allowed)}"
            raise ck.err(ky, f"unknown key '{shown(key)}' in {what}", hint)


def parse(text: str, file: str, allow_case: bool = True, as_game: str | None = None,
          as_code: str | None = None) -> Incident:
    """`as_game`: read the incident as one of another game ruled by the same book of laws (`compare`:
    a Boston account under the American whist code); what only its own game has (the bid) is left
    out, and said so in `inc.left_out`. `as_code`: read it as an account under that code, whatever
    its `code` says (`compare`: a score is checked against each code's game)."""
    root = load_text(text, file)
    ck = Checker(file)
    if not isinstance(root.value, dict):
        raise ck.err(root, "an incident is a mapping with `game` and `events` at the top",
                     "see docs/incident-format.md")
    top = root.value
    if not set(top) & set(schema.TOP_KEYS):
        # not an incident at all (another file, a system file through a link): nothing of it is quoted
        raise ck.err(root, "this is not an incident: none of its keys is an incident's (`game`, `events` ...)",
                     "is this the right file? see docs/incident-format.md")
    _check_keys(ck, root, schema.TOP_KEYS, "the incident")
    for req in ("game", "events"):
        if req not in top:
            raise InputError(f"the incident has no `{req}`", file, root.line, root.col,
                             "an incident needs `game` and `events`; see docs/incident-format.md")
    if not allow_case:
        for k in ("name", "expected"):
            if k in top:
                raise ck.err(root.keys[k], f"`{k}` belongs in case files only",
                             f"remove `{k}` to rule on the incident, or run the case with `adjudicator check`")

    game = as_game or ck.text(top["game"], "game").strip().lower()
    games = registry.games()
    if game not in games:
        close = suggest(game, games)
        raise ck.err(top["game"], f"unknown game '{shown(game)}'",
                     f"did you mean '{close}'?" if close else f"known games: {', '.join(games)}")
    if "code" in top and as_game is None:
        code = ck.text(top["code"], "code").strip().lower()
        codes = registry.codes_of(game)
        if code not in codes:
            close = suggest(code, codes)
            raise ck.err(top["code"], f"'{shown(code)}' is not a code of {game}",
                         f"did you mean '{close}'?" if close else f"codes of {game}: {', '.join(codes)}")
    else:
        code = registry.default_code(game)
    code = as_code or code
    ck = Checker(file, table=registry.table(game))      # the game's seats and sides from here on
    ck.game = game

    out: dict[str, Any] = {}
    players: dict[str, str] = {}
    if "players" in top:
        m = ck.mapping(top["players"], "players")
        for k, v in m.items():
            seat = ck.seat(top["players"].keys[k], "players")
            if seat in players:
                raise ck.err(top["players"].keys[k], f"players: '{shown(k)}' is the seat {seat} again",
                             "give each seat once")
            name = ck.name(v, f"players.{k}")
            as_written = v.value if isinstance(v.value, str) else name     # (spaces around it and all)
            twin = next((p for p in players.values() if name_key(p) == name_key(name)), None)
            if twin is not None:
                how = "" if twin == as_written else f" ('{shown(twin)}' in another spelling: {ascii(as_written)})"
                raise ck.err(v, f"players.{k}: '{shown(as_written)}' is already the name of another seat{how}",
                             "each seat has its own player")
            players[seat] = name
        out["players"] = players
    candidates: list[str] = []
    if "candidates" in top:
        if not isinstance(top["candidates"].value, list):
            raise ck.err(top["candidates"], f"candidates: expected a list of names, not '{shown(top['candidates'])}'",
                         "write the names in a list, e.g. candidates: [Ames, Brown, Clark, Dodd]")
        candidates = ck.names(top["candidates"], "candidates")
        out["candidates"] = candidates
    info = registry.code_info(code)
    ck = Checker(file, players, candidates, (info.get("game-points", 7), str(info.get("game-law", "1"))),
                 table=registry.table(game))
    ck.game = game
    if "game-points" in top:        # the points of a game, where the code leaves them to the players
        agreed = info.get("game-points-agreed")
        if not agreed:
            raise ck.err(root.keys["game-points"], f"`game-points`: in {game} the players do not choose the "
                         f"points of a game", f"remove `game-points`: in this code a game is {ck.game_points} "
                         f"points (law {ck.game_law})")
        points = ck.integer(top["game-points"], "game-points", 1, 100)
        if points not in agreed:
            choices = ", ".join(map(str, agreed[:-1])) + f" or {agreed[-1]}"
            raise ck.err(top["game-points"], f"game-points: {points}; in {game} the players may make the game "
                         f"{choices} points (law {ck.game_law})",
                         f"write game-points: {choices} ({ck.game_points} when not said)")
        out["game_points"] = points
        ck.game_points = points        # the scores before the hand are read against it
    if ck.table.places_from_players and players:
        if len(players) < 2:
            raise ck.err(top["players"], f"players: {game} is played by two or more; `players` names the places taken",
                         "name every player at the table, e.g. players: {p1: Ames, p2: Brown, p3: Clark}")
        ck.seated = set(players)

    dummies = _dummies(ck, root, game)
    if dummies:
        out["dummies"] = dummies
    left_out = []
    if "bid" in top and as_game is not None and as_game not in schema.BIDS:
        left_out.append("bid")
    elif "bid" in top:
        out["bid"] = _bid(ck, top["bid"], game)
    if "dealer" in top:
        out["dealer"] = ck.seat(top["dealer"], "dealer")
    if "trump" in top and not registry.trumps(game):
        raise ck.err(root.keys["trump"], f"`trump`: {game} is played without trumps",
                     "remove `trump`")
    if "trump" in top:
        y = top["trump"]
        if isinstance(y.value, str) and y.value.strip().lower() in SUITS:
            out["trump"] = SUITS[y.value.strip().lower()]
        else:
            c = ck.card(y, "trump (a suit or the trump card)")
            out["trump"] = c[1]
            out["trump_card"] = c
    if "score" in top:
        out["score"] = ck.value(schema.TOP_KEYS["score"], top["score"], "score")
    if "rubber" in top:
        out["rubber"] = ck.value(schema.TOP_KEYS["rubber"], top["rubber"], "rubber")
    if "first-deal-of-rubber" in top:
        out["first_deal_of_rubber"] = ck.value(schema.TOP_KEYS["first-deal-of-rubber"],
                                               top["first-deal-of-rubber"], "first-deal-of-rubber")
    if "start" in top:
        m = ck.mapping(top["start"], "start")
        _check_keys(ck, top["start"], {"trick": None, "leader": None}, "start")
        if "trick" not in m or "leader" not in m:
            raise ck.err(top["start"], "start needs both `trick` and `leader`", "e.g. start: {trick: 5, leader: W}")
        out["start"] = (ck.integer(m["trick"], "start.trick", 1, last_trick(game)), ck.seat(m["leader"], "start.leader"))
    hand_lines: dict[str, int] = {}
    if "hands" in top:
        m = ck.mapping(top["hands"], "hands")
        hands = {}
        for k, v in m.items():
            seat = ck.seat(top["hands"].keys[k], "hands")
            if seat in hands:
                raise ck.err(top["hands"].keys[k], f"hands: '{shown(k)}' is the seat {seat} again",
                             "give each seat once")
            hands[seat] = ck.cards(v, f"hands.{k}")
            hand_lines[seat] = top["hands"].keys[k].line
        out["hands"] = hands
    if "partie" in top:
        out["partie"] = _partie(ck, top["partie"], game)
    if "stakes" in top:
        out["stakes"] = _stakes(ck, top["stakes"], game)
    if "jack-pot" in top:
        if game != "poker":
            raise ck.err(root.keys["jack-pot"], f"`jack-pot` is a key of the game poker, not of {game}",
                         "remove `jack-pot`, or write `game: poker`")
        out["jack_pot"] = ck.integer(top["jack-pot"], "jack-pot", 1, 100)
    if "variations" in top:
        if game != "loo":
            raise ck.err(root.keys["variations"], f"`variations` is a key of the game loo, not of {game}",
                         "remove `variations`, or write `game: loo`")
        out["variations"] = _variations(ck, top["variations"])
    if "games-played" in top:
        m = ck.mapping(top["games-played"], "games-played")
        gp, seen = {}, {}
        for k, v in m.items():
            kind, who = ck.person(top["games-played"].keys[k], "games-played")
            ck.once(seen, who, top["games-played"].keys[k], "games-played", "player")
            gp[who] = ck.integer(v, f"games-played.{k}", 0, 1000)
        out["games_played"] = gp

    events = parse_events(ck, top["events"])
    inc = Incident(file=file, game=game, code=code, top=out, events=events,
                   players=players, candidates=candidates)
    inc.code_given = "code" in top and as_game is None
    inc.left_out = left_out
    inc.hand_lines = hand_lines
    inc.key_lines = {k: top[k].line for k in top}
    if "name" in top:
        inc.name = ck.text(top["name"], "name")
    if "unknown" in top:
        inc.unknown = top["unknown"]     # read by unknowns.py: facts not known
    if "expected" in top:
        inc.expected = top["expected"]
        inc.expected_pos = (top["expected"].line, top["expected"].col)
    return inc


def _bid(ck: Checker, y: Y, game: str) -> dict:
    """The bid of a Boston, Solo Whist or Cayenne hand: {by, bid, partner}. Refused in another game,
    and where it cannot be: a bid unknown to the game, two single players (a partner to a bid played
    alone, or the bidder his own partner), a Misère Partout with a bidder."""
    bids = schema.BIDS.get(game)
    if bids is None:
        raise ck.err(y, f"`bid` is not a key of the game {game}",
                     "a bid belongs to the games " + ", ".join(schema.BIDS) + "; remove `bid`")
    m = ck.mapping(y, "bid")
    _check_keys(ck, y, {"by": None, "bid": None, "partner": None, "result": None}, "bid")
    if "bid" not in m:
        raise ck.err(y, "bid needs `bid`: what was undertaken", f"the bids of {game}: {', '.join(bids)}")
    out = {"bid": ck.choice(m["bid"], "bid.bid", bids)}
    if "result" in m:        # how the hand ended for the bidder: the rules check it against the tricks
        out["result"] = ck.choice(m["result"], "bid.result", ("won", "lost"))
        if game == "cayenne":
            # Cayenne's declaration names the trump suit (or none, or nullo) and undertakes
            # no number of tricks (rules/whist/american-1893/bids.lp): a result said of it
            # could be checked against nothing, and was read and then left unread
            raise ck.err(m["result"], f"bid.result: '{shown(m['result'])}', but a declaration at Cayenne names "
                         "the trump suit and undertakes no number of tricks: there is nothing for it to win or lose",
                         "remove `result`; the tricks each side took (`end-of-hand`) tell the hand")
    if out["bid"] == "misere-partout":
        if "by" in m or "partner" in m:
            raise ck.err(y, "bid: Misère Partout is played when no one bids: it has no bidder and no partner",
                         "write bid: {bid: misere-partout}")
        if "result" in m:
            raise ck.err(m["result"], f"bid.result: '{shown(m['result'])}', but Misère Partout has no bidder to "
                         "win or lose it: each plays for himself", "remove `result`; the tricks each took tell the hand")
        return out
    if "by" not in m:
        raise ck.err(y, "bid needs `by`: the seat of the player who made it", "e.g. bid: {by: N, bid: "
                     + bids[0] + "}")
    out["by"] = ck.seat(m["by"], "bid.by")
    partnered = schema.PARTNER_BIDS.get(game, frozenset())
    if "partner" in m:
        if out["bid"] not in partnered:
            raise ck.err(m["partner"], f"bid: the bid {out['bid']} is played alone: there cannot be two single "
                         "players, nor a partner to one",
                         (f"in {game} a partner joins only: {', '.join(sorted(partnered))}" if partnered
                          else f"in {game} no bid is played with a partner"))
        out["partner"] = ck.seat(m["partner"], "bid.partner")
        if out["partner"] == out["by"]:
            raise ck.err(m["partner"], "bid: the bidder's partner is another player than the bidder",
                         "name the partner's seat")
    elif out["bid"] == "proposal":
        raise ck.err(y, "bid: a proposal is played with the player who accepted it: `partner` is missing",
                     "e.g. bid: {by: N, bid: proposal, partner: S}")
    return out


def _partie(ck: Checker, y: Y, game: str) -> dict:
    """`partie: {deals: [{elder: 42, younger: 17}, ...], four-deals: true}`: piquet's partie so far.

    Each deal gives both players' scores, by seat or by name (the players as they sit in this
    incident's deal); the rules reckon the partie from them (laws 71-73)."""
    if game != "piquet":
        raise ck.err(y, f"partie: only a piquet incident has a partie (this is {game})",
                     "remove `partie`, or write `game: piquet`")
    m = ck.mapping(y, "partie")
    _check_keys(ck, y, {"deals": None, "four-deals": None}, "partie")
    if "deals" not in m:
        raise ck.err(y, "partie needs `deals`: the scores of the deals already played",
                     "e.g. partie: {deals: [{elder: 42, younger: 17}]}")
    deals_y = m["deals"]
    if not isinstance(deals_y.value, list):
        raise ck.err(deals_y, "partie.deals: expected a list of deals, each {player: score, ...}",
                     "e.g. deals: [{elder: 42, younger: 17}, {elder: 8, younger: 30}]")
    seats = list(registry.table(game).seats)
    deals = []
    for i, d in enumerate(deals_y.value, start=1):
        what = f"partie.deals[{i}]"
        dm = ck.mapping(d, what)
        scores, seen = {}, {}
        for k, v in dm.items():
            seat = ck.seat(d.keys[k], what)
            ck.once(seen, seat, d.keys[k], what, "player")
            scores[seat] = ck.integer(v, f"{what}.{k}", 0, 10_000)
        missing = [x for x in seats if x not in scores]
        if missing:
            who = [f"{ck.players[x]} ({x})" if x in ck.players else x for x in missing]
            raise ck.err(d, f"{what}: no score for {', '.join(who)}",
                         "give both players' scores in each deal, e.g. {elder: 42, younger: 0}")
        deals.append(scores)
    if len(deals) > 8:
        raise ck.err(deals_y, f"partie.deals: {len(deals)} deals; a partie has six, and at most two "
                     "more after a tie (law 71)", "give the deals of one partie")
    four = False
    if "four-deals" in m:
        four = ck.value(schema.Field("four-deals", "bool", ""), m["four-deals"], "partie.four-deals")
    return {"deals": deals, "four_deals": four}


# The stakes each game's laws speak of (top-level `stakes`), and loo's variations.
STAKES = {"poker": ("ante", "limit"), "loo": ("single", "loo", "limit", "pool")}
LOO_VARIATIONS = ("club-law", "unlimited-loo", "mixed-loo", "five-card-loo", "irish-loo")


def _stakes(ck: Checker, y: Y, game: str) -> dict:
    """`stakes: {ante: 1, limit: 24, unit: pence}`: the stakes agreed, in one unit (loo, poker)."""
    keys = STAKES.get(game)
    if keys is None:
        raise ck.err(y, f"stakes: only a loo or poker incident gives stakes (this is {game})",
                     "remove `stakes`, or write `game: loo` or `game: poker`")
    m = ck.mapping(y, "stakes")
    _check_keys(ck, y, {**{k: None for k in keys}, "unit": None}, f"stakes (the stakes of {game})")
    out: dict = {k: ck.integer(m[k], f"stakes.{k}", 0, 1_000_000) for k in keys if k in m}
    if "unit" in m:
        out["unit"] = ck.text(m["unit"], "stakes.unit").strip()
        if not out["unit"] or len(out["unit"]) > MAX_NAME or not out["unit"].isprintable():
            raise ck.err(m["unit"], "stakes.unit: the unit's name, one short line of text", "e.g. unit: pence")
    if game == "poker" and "ante" in out and "limit" in out and out["ante"] * 2 > out["limit"]:
        raise ck.err(m["ante"], f"stakes.ante: an ante of {out['ante']} exceeds half the limit ({out['limit']}); "
                     "the ante \u201cmust not exceed one half the limit\u201d (ante.term, stakes.ante)",
                     "give the ante and the limit agreed")
    return out


def _variations(ck: Checker, y: Y) -> list[str]:
    """`variations: [club-law, mixed-loo]`: loo's variations agreed before play."""
    out: list[str] = []
    for it in ck.items(y, "variations", len(LOO_VARIATIONS)):
        v = ck.choice(it, "variations", LOO_VARIATIONS)
        if v in out:
            raise ck.err(it, f"variations: '{v}' is named twice", "name each variation once")
        out.append(v)
    if "unlimited-loo" in out and "mixed-loo" in out:
        raise ck.err(y, "variations: unlimited loo and mixed loo (unlimited with a limit) cannot both be played",
                     "name one of them")
    if "five-card-loo" in out and "irish-loo" in out:
        raise ck.err(y, "variations: five-card loo and Irish loo deal five and three cards: one of them",
                     "name one of them")
    return out


# Which top-level key names the Dummy hands, for each game that has them.
DUMMY_KEYS = {"dummy": "dummy", "double-dummy": "dummies"}


def _dummies(ck: Checker, root: Y, game: str) -> list[str]:
    """The seats of the Dummy hands: `dummy: N` (game dummy), `dummies: [N, E]` (double-dummy).

    Required for those games, refused for any other; the rules derive who plays each hand."""
    top = root.value
    want = DUMMY_KEYS.get(game)
    for key in ("dummy", "dummies"):
        if key in top and key != want:
            if want:
                hint = f"in {game} the Dummy hand{'s are' if want == 'dummies' else ' is'} given by `{want}`"
            else:
                hint = f"a Dummy hand belongs to the games dummy (`dummy: N`) and double-dummy " \
                       f"(`dummies: [N, E]`); remove `{key}`, or say `game: dummy`"
            raise ck.err(root.keys[key], f"`{key}` is not a key of the game {game}", hint)
    if want is None:
        return []
    if want not in top:
        example = "dummy: N" if want == "dummy" else "dummies: [N, E]"
        raise InputError(f"the game {game} needs `{want}`: which seat is Dummy's hand", ck.file,
                         root.line, root.col, f"add e.g. `{example}` at the top of the incident")
    y = top[want]
    if want == "dummy":
        if isinstance(y.value, list):
            raise ck.err(y, "dummy: one seat, the seat of Dummy's hand", "e.g. dummy: N")
        return [ck.seat(y, "dummy")]
    seats = ck.seats(y, "dummies")
    sides = {ck.table.side_of(s) for s in seats}
    if len(seats) != 2 or len(sides) != 2:
        raise ck.err(y, "dummies: two seats, one Dummy on each side",
                     "each player has a Dummy for his partner, e.g. dummies: [N, E]")
    return seats


# Fields of an event that one game's laws give it and no other's: (event, field) -> (the game, its
# law). Written in another game's incident they are refused; an interview never asks them there, nor
# may an incident leave them `unknown` (adjudicator/interview/ask.py, adjudicator/core/unknowns.py).
# Each: (the game, its law, how another game's incident tells it, the fix).
GAME_ONLY_FIELDS = {("deal", "out-of-turn"): ("piquet", "law 16", "a deal out of turn is told by who dealt",
                                              "write `deal: {by: SEAT}` with the seat that dealt; the dealer's "
                                              "seat is the top-level `dealer`")}


def field_of_game(event: str, field: str, game: str) -> bool:
    """Whether `field` of the event `event` may be told in an incident of `game`."""
    only = GAME_ONLY_FIELDS.get((event, field))
    return only is None or only[0] == game


def parse_events(ck: Checker, y: Y) -> list[Event]:
    if not isinstance(y.value, list):
        raise ck.err(y, "events: expected a list, one '- name: {fields}' item per event",
                     "e.g.\n  events:\n    - lead: {by: W, card: KS}")
    if len(y.value) > MAX_EVENTS:
        raise ck.err(y.value[MAX_EVENTS], f"event {MAX_EVENTS + 1}: an incident has at most {MAX_EVENTS} events",
                     "describe only what the dispute turns on; `start: {trick: K, leader: X}` begins at a trick")
    out: list[Event] = []
    for i, item in enumerate(y.value, start=1):
        if isinstance(item.value, str) and item.value.strip() in schema.EVENTS:
            ev = schema.EVENTS[item.value.strip()]
            raise ck.err(item, f"event {i}: '{ev.name}' is written without its fields",
                         f"write it as a one-key mapping, e.g. {ev.example}")
        if not isinstance(item.value, dict) or not item.value:
            raise ck.err(item, f"event {i}: each event is a one-key mapping, '- name: {{fields}}'",
                         "e.g. - lead: {by: W, card: KS}")
        if len(item.value) > 1:
            first, second = list(item.keys.values())[:2]
            raise ck.err(second, f"event {i} ('{shown(first.value)}' at line {first.line}) has a second key "
                         f"'{shown(second.value)}': each event is a one-key mapping",
                         "put the fields inside the braces, e.g. - lead: {by: W, card: KS}; "
                         "or, for a new event, begin the line with '- '")
        (name, body), = item.value.items()
        kname = item.keys[name]
        ev = schema.EVENTS.get(name)
        if ev is None:
            close = suggest(name, schema.EVENTS)
            raise ck.err(kname, f"unknown event '{shown(name)}'",
                         f"did you mean '{close}'?" if close else "`adjudicator events` lists the events")
        own = schema.GAME_EVENTS.get(ck.game)
        shared = schema.EVENT_GAMES.get(name)
        if (own is not None and name not in own) or (own is None and name in schema.ONLY_FOR
                                                       and (shared is None or ck.game not in shared)):
            allowed = sorted(own) if own is not None else None
            raise ck.err(kname, f"'{shown(name)}' is not an event of {ck.game}",
                         f"the events of {ck.game}: {', '.join(allowed)}" if allowed else
                         f"it is an event of {', '.join(sorted(shared)) if shared else schema.ONLY_FOR[name]}")
        fields: dict[str, Any] = {}
        if body.value is None:
            body_map: dict[str, Y] = {}
        elif isinstance(body.value, dict):
            body_map = body.value
            allowed = {f.name: f for f in ev.fields}
            _check_keys(ck, body, allowed, f"event '{name}'")
        else:
            raise ck.err(body, f"event '{name}': its fields go in a mapping", f"write it as {ev.example}")
        for f in ev.fields:
            if f.name in body_map:
                fields[f.name] = ck.value(f, body_map[f.name], f"{name}.{f.name}")
            elif f.required:
                raise ck.err(kname, f"event '{name}' needs `{f.name}` ({f.doc})", f"e.g. {ev.example}")
        if name == "wrong-number" and ("surplus" in fields) == ("missing" in fields):
            raise ck.err(kname, "event 'wrong-number' needs exactly one of `surplus` and `missing`",
                         "e.g. - wrong-number: {player: W, missing: 1}")
        if name == "wrong-number":
            # a hand of thirteen cards: he cannot lack more than he was dealt, nor be wrong by none
            for key, top_n in (("missing", HAND), ("surplus", DECK - HAND)):
                if key in fields and not 1 <= fields[key] <= top_n:
                    raise ck.err(body_map[key], f"wrong-number.{key}: {fields[key]} cards "
                                 f"{'too few' if key == 'missing' else 'too many'} cannot be: a hand has {HAND} "
                                 f"cards and the pack {DECK}", f"give a number from 1 to {top_n}")
            # `cards` names the missing cards (English 46): none with a surplus, no more than are missing
            if "cards" in fields and "surplus" in fields:
                raise ck.err(body_map["cards"], "wrong-number.cards: the cards named are the missing ones, and "
                             f"a hand with {fields['surplus']} too many is missing none",
                             "remove `cards` (the cards too many are not named), or write `missing` with the "
                             "number of cards missing")
            if "cards" in fields and "missing" in fields and len(fields["cards"]) > fields["missing"]:
                n, m = len(fields["cards"]), fields["missing"]
                raise ck.err(body_map["cards"], f"wrong-number.cards: {n} missing cards named, but the hand is "
                             f"said to be missing {m}", f"name at most {m} card{'s' if m > 1 else ''}, or write "
                             f"missing: {n}")
        kind_who = fields.get("by") if name == "break-up-table" else None
        who = (kind_who[1] if kind_who[0] == "name" else ck.players.get(kind_who[1], kind_who[1])) if kind_who else None
        if who is not None and any(name_key(p) == name_key(who) for p in fields["players"]):
            raise ck.err(body_map["players"], f"break-up-table: {shown(who)} broke up the table, and is named "
                         "among the players left at it", f"list only the others who sat at it; {shown(who)} left it")
        if name == "leave-cards" and ck.game == "piquet" and fields["by"] == "elder" and fields["count"] > 5:
            raise ck.err(body_map["count"], f"leave-cards.count: the elder hand leaves {fields['count']} cards, "
                         "but his part of the stock is five (law 27: the elder hand's five, the younger "
                         "hand's three)", "give how many of his five he leaves, 1 to 5")
        # piquet's words for a deal (law 15's wrong pack; law 16's deal out of turn, in
        # GAME_ONLY_FIELDS) said of another game, where whose pack it was and whose turn it was are
        # told otherwise
        if name == "deal" and ck.game != "piquet":
            if fields.get("pack") == "wrong":
                raise ck.err(body_map["pack"], "deal.pack: `wrong` is piquet's (law 15: not the pack for this "
                             f"deal), not {ck.game}'s", "write whose pack it was: `pack: own` or `pack: adversaries`")
        for fname in fields:
            if not field_of_game(name, fname, ck.game):
                owner, law, told, fix = GAME_ONLY_FIELDS[(name, fname)]
                raise ck.err(body_map[fname], f"{name}.{fname} is {owner}'s ({law}), not {ck.game}'s: {told}", fix)
        if name == "consult" and len({ck.table.side_of(x) for x in fields["by"]}) > 1:
            raise ck.err(body_map["by"], f"consult: {' and '.join(fields['by'])} are not partners: partners "
                         "consult, adversaries do not", "write the side that consulted, e.g. by: N-S")
        out.append(Event(index=i, name=name, fields=fields, line=kname.line))
    return out


def load(path: str, stdin_text: str | None = None, allow_case: bool = True, as_game: str | None = None,
         as_code: str | None = None) -> Incident:
    text, name = read_source(path, stdin_text)
    return parse(text, name, allow_case, as_game, as_code)
