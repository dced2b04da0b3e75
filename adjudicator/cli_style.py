"""How the command's output looks: colour that helps the eye, and a pager for long output.

A face module of the command (adjudicator/cli.py): it styles and pages what the API's texts say
(`Ruling.text()`, `Lookup.text()`, a law's text), never their words. Each text is styled by its
form, line by line: a numbered remedy and the sentence after its number, a label at the start of a
line ("May exact it:", "May not:", "Because:"), a law's tag ("[law 24]") or the laws closing a
sentence ("(24, 39)."), a heading alone on its line ("Findings:"), and, where the ruling's data
names them, its heading (the code's title) and its verdict (`summary`), found in the text by their
words. A form not recognised is printed as it is, plain.

When: colour on a terminal only, never in a pipe, a file, nor in `--json`; `NO_COLOR` (set and not
empty: no-color.org) turns it off; `--color=always|never|auto` decides over both (auto: the
stream's own, standard output and standard error each). `TERM=dumb` is no colour. The pager: output
taller than the terminal, on a terminal (standard input and output both), through `$PAGER` (else
`less`, with `LESS=FRX` when LESS is not set, as git sets it: quit at once if it fits, show the
colours, leave the text on the screen); `--no-pager`, or `PAGER` set empty, print it straight.
Click's own styling does all of it: no library beside it, so `--help` and TAB completion start no
slower (they run the program again at each press).
"""
from __future__ import annotations

import itertools
import os
import re
import shlex
import sys

import click

COLORS = ("auto", "always", "never")

# What each kind of text looks like (click.style's arguments). Colours that read on a dark and on a
# light background alike: no white, no black; yellow only bold.
STYLES: dict[str, dict] = {
    "heading": {"bold": True},
    "verdict": {"bold": True, "fg": "yellow"},
    "remedy": {"bold": True},
    "law": {"fg": "cyan"},
    "may": {"bold": True, "fg": "green"},
    "may-not": {"bold": True, "fg": "red"},
    "later": {"bold": True, "fg": "yellow"},
    "done": {"fg": "green"},
    "label": {"bold": True},
    "quiet": {"dim": True},
    "marked": {"bold": True, "fg": "yellow"},
    "match": {"bold": True, "fg": "red"},
    "pass": {"fg": "green"},
    "fail": {"bold": True, "fg": "red"},
    "same": {"fg": "green"},
    "differs": {"bold": True, "fg": "yellow"},
    "error": {"bold": True, "fg": "red"},
    "hint": {"bold": True, "fg": "cyan"},
    "where": {"bold": True},
}


# --------------------------------------------------------------------------------------------------
# When: the settings (--color, --no-pager) and the streams
# --------------------------------------------------------------------------------------------------
def _settings() -> dict:
    """The settings given on the command line (`ctx.meta`, shared by the group and its command)."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta if ctx is not None else {}


def _remember(key: str):
    def callback(ctx: click.Context, param: click.Parameter, value):
        if value not in (None, False):          # given: the command's own beats the group's
            ctx.meta[key] = value
        return value
    return callback


def color_option(f):
    return click.option("--color", type=click.Choice(COLORS), default=None, expose_value=False,
                        callback=_remember("color"), metavar="[auto|always|never]",
                        help="Colour the output: auto (on a terminal, unless NO_COLOR is set), always, never.")(f)


def pager_option(f):
    return click.option("--no-pager", is_flag=True, default=False, expose_value=False,
                        callback=_remember("no_pager"),
                        help="Print long output straight, not through the pager ($PAGER, else less).")(f)


def _is_terminal(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def colour(err: bool = False) -> bool:
    """Whether to colour standard output (or standard error): --color, else NO_COLOR, else whether
    the stream is a terminal (not `TERM=dumb`)."""
    given = _settings().get("color")
    if given in ("always", "never"):
        return given == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _is_terminal(sys.stderr if err else sys.stdout)


def style(text: str, kind: str) -> str:
    return click.style(text, **STYLES[kind])


# --------------------------------------------------------------------------------------------------
# Painting: spans of a text given a kind, each line styled apart
# --------------------------------------------------------------------------------------------------
def _styled(piece: str, kind: str) -> str:
    """A piece of text styled, line by line (each line carries its own codes, so that a pager shows
    any line alone rightly), its indent and trailing blanks left plain."""
    out = []
    for line in piece.split("\n"):
        body = line.strip(" ")
        if not body:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        out.append(lead + style(body, kind) + line[len(lead) + len(body):])
    return "\n".join(out)


def _apply(text: str, spans: list[tuple[int, int, str]]) -> str:
    """The text with each span (start, end, kind) styled; a span overlapping an earlier one is left."""
    out, pos = [], 0
    for start, end, kind in sorted(spans):
        if start < pos or end <= start:
            continue
        out.append(text[pos:start])
        out.append(_styled(text[start:end], kind))
        pos = end
    out.append(text[pos:])
    return "".join(out)


# A heading alone on its line: words and one colon, at the end ("Findings:", "If it was Dodd (W):",
# "Cases exercising it (30):"), not a remedy's first line nor an entry.
_HEADING = r"(?!\d+\. |- )[^:]+:"


class _Block:
    """A line and the lines wrapped under it (deeper indented): one sentence or one entry."""

    __slots__ = ("start", "end", "indent", "text")

    def __init__(self, start: int, end: int, indent: int):
        self.start, self.end, self.indent, self.text = start, end, indent, ""


def _blocks(text: str, starts: str) -> list[_Block]:
    """The text's blocks. A line indented deeper than the line above it continues that line's block,
    unless it begins a block of its own (`starts`, matched after its indent: a label, a number), a
    blank line stands between them, or the line above is a heading ("Referred to by:")."""
    blocks: list[_Block] = []
    offset, apart = 0, True
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if body.strip():
            if blocks and not apart and indent > blocks[-1].indent and not re.match(starts, body):
                blocks[-1].end = offset + len(line)
                apart = False
            else:
                blocks.append(_Block(offset + indent, offset + len(line), indent))
                apart = bool(re.fullmatch(_HEADING, body.rstrip()))     # a heading: what follows is under it
        else:
            apart = True
        offset += len(line) + 1
    for b in blocks:
        b.text = text[b.start:b.end]
    return blocks


def _words(text: str) -> str:
    return " ".join(text.split())


def _find_words(blocks: list[_Block], words: str) -> _Block | None:
    """The first block whose words begin with these words (a sentence of the data, wrapped)."""
    want = _words(words)
    if not want:
        return None
    for b in blocks:
        if _words(b.text).startswith(want) or (len(want) > 20 and want in _words(b.text)):
            return b
    return None


# A law's tag closing a remedy's sentence, and the laws closing a reason's or a finding's. (The
# patterns are kept as text, compiled on first use by re's own cache: `--help` and TAB compile none.)
_TAG = r"\[laws? [^\]]+\]"
_CLOSING_LAWS = r"\(([\w.\-]+(?:,\s+[\w.\-]+)*)\)\.?\s*\Z"


# --------------------------------------------------------------------------------------------------
# A ruling (adjudicate; a conditional ruling's branches too)
# --------------------------------------------------------------------------------------------------
_RULING_LABELS = [
    (r"May exact it:", "may"), (r"May not:", "may-not"), (r"In fault:", "may-not"), (r"Lost:", "may-not"),
    (r"Not yet:", "later"), (r"Exacted by\b", "done"), (r"Done:", "done"),
    (r"Because( of)?\b", "quiet"), (r"What happened:", "label"), (r"Facts the rules saw:", "heading"),
    (r"In detail --", "heading"), (r"It follows of itself\.", "quiet"),
]
# A sentence said once for several remedies, or a fact named by its letter: its closing laws styled
_SAID_ONCE = re.compile(r"\([a-z]\) |.* may exact none of these: |Under rulings .* may not exact it: ")
_RULING_START = r"\d+\. |- |" + "|".join(p for p, _ in _RULING_LABELS)


def paint_ruling(text: str, data: dict | None = None) -> str:
    """A ruling's text (Ruling.text()) styled: the code's heading, the verdict, each remedy's
    sentence, who may and who may not, the laws."""
    data = data or {}
    spans: list[tuple[int, int, str]] = []
    if text.startswith("Ruling under "):        # the verdict first: its heading, then its sentences
        head = re.match(r"Ruling under (?:.|\n)*?:\n", text)
        verdict_end = text.find("\n\n")
        if head and verdict_end > head.end():
            spans.append((0, head.end() - 1, "heading"))
            spans.append((head.end(), verdict_end, "verdict"))
            return _apply(text[:verdict_end], spans) + paint_ruling(text[verdict_end:], {})
    blocks = _blocks(text, _RULING_START)
    special = {}
    for key, kind in (("code_title", "heading"), ("summary", "verdict"), ("verdict", "verdict")):
        words = data.get(key)
        if isinstance(words, list):         # (the verdict's sentences, wrapped as one paragraph)
            words = " ".join(words)
        found = _find_words(blocks, words) if isinstance(words, str) else None
        if found is not None:
            special[found.start] = kind
    for b in blocks:
        t, s = b.text, b.start
        if s in special:
            spans.append((s, b.end, special[s]))
            continue
        number = re.match(r"\d+\. ", t)
        if number:                                  # a remedy: its number, its sentence, its laws
            tag = None
            for tag in re.finditer(_TAG, t):
                pass
            end = tag.start() if tag else len(t)
            spans.append((s, s + number.end() - 1, "remedy"))
            spans.append((s + number.end(), s + end, "remedy"))
            if tag:
                spans.append((s + tag.start(), s + tag.end(), "law"))
            continue
        for pattern, kind in _RULING_LABELS:
            m = re.match(pattern, t)
            if m:
                spans.append((s, s + m.end(), kind))
                break
        if t.endswith(":") and "\n" not in t and b.indent <= 2 and not any(re.match(p, t) for p, _ in _RULING_LABELS):
            spans.append((s, b.end, "heading"))     # Findings:, If it was Dodd (W):
            continue
        closing = re.search(_CLOSING_LAWS, t)
        if closing and (t.startswith(("- ", "May not:", "Because:", "Lost:")) or _SAID_ONCE.match(t)):
            spans.append((s + closing.start(1), s + closing.end(1), "law"))
        for tag in re.finditer(_TAG, t):
            spans.append((s + tag.start(), s + tag.end(), "law"))
    return _apply(text, spans)


# --------------------------------------------------------------------------------------------------
# The lookups: a law, a code's laws, search, topics, compare, check, tables
# --------------------------------------------------------------------------------------------------
_LAW_LABELS = (r"(In short:|Refers to:|Referred to by:|Topics:|Encoded in:|Cases exercising it \(\d+\):|"
               r"Cases:|Source:|Nothing to adjudicate)")
_LAW_START = r"> |- |\[|" + _LAW_LABELS
_REF = r"(?:[a-z][\w-]* )?law \S+?(?=[:,( ]|\Z)"


def paint_law(text: str) -> str:
    """A law's text (`adjudicator law`): its title, the clause asked for, the headings and labels,
    the ids of the exceptions and of the laws it refers to."""
    spans: list[tuple[int, int, str]] = []
    blocks = _blocks(text, _LAW_START)
    section = None
    title = next((b for b in blocks if b.indent == 0 and ", law " in b.text.split("\n")[0]),
                 blocks[0] if blocks else None)
    for b in blocks:
        t, s = b.text, b.start
        if b is title:          # (after a note, when another code's law answers: `law dummy 38`)
            spans.append((s, b.end, "heading"))
            continue
        if b.indent == 0 and t.endswith(":") and "\n" not in t:
            spans.append((s, b.end, "heading"))
            section = t
            continue
        if b.indent == 0:
            section = None
        label = re.match(_LAW_LABELS, t)
        if label:
            kind = "later" if label.group(1).startswith("Nothing") else "label"
            spans.append((s, s + label.end(), kind))
            if t.startswith(("Refers to:", "Referred to by:")):
                section = t
            continue
        if t.startswith("> "):
            spans.append((s, b.end, "marked"))
            continue
        ex = re.match(r"(> )?(\[[^\]]+\])", t)
        if ex:
            spans.append((s + ex.start(2), s + ex.end(2), "law"))
        if section and section.startswith(("Refers to", "Referred to by")) and b.indent == 2:
            ref = re.match(_REF, t)
            if ref:
                spans.append((s, s + ref.end(), "law"))
    return _apply(text, spans)


def paint_laws(text: str) -> str:
    """A code's laws (`adjudicator law CODE`): the code's title, each section, each law's id."""
    spans: list[tuple[int, int, str]] = []
    for i, b in enumerate(_blocks(text, r"\S+  ")):
        if i == 0 or (b.indent == 0 and "\n" not in b.text and not b.text.startswith("`")):
            spans.append((b.start, b.end, "heading"))
        elif b.indent == 2:
            m = re.match(r"\S+", b.text)
            spans.append((b.start, b.start + m.end(), "law"))
    return _apply(text, spans)


_HIT = r"\*([^*\n]+(?:\n[^*\n]+)*?)\*"


def paint_search(text: str) -> str:
    """Search results: each law's rank, code and id, and the words found highlighted in place of
    the stars that mark them in plain text."""
    spans: list[tuple[int, int, str]] = []
    offset = 0
    for line in text.split("\n"):
        m = re.match(r"(\d+\.) (\S+, law \S+)", line)
        if m:
            spans.append((offset + m.start(1), offset + m.end(1), "label"))
            spans.append((offset + m.start(2), offset + m.end(2), "law"))
        offset += len(line) + 1
    painted = _apply(text, spans)
    return re.sub(_HIT, lambda m: _styled(m.group(1), "match"), painted)


def paint_topic(text: str) -> str:
    """A topic: its name, each code's heading, each law's id."""
    spans: list[tuple[int, int, str]] = []
    for i, b in enumerate(_blocks(text, r"\S+\s{2,}")):
        if i == 0 or (b.indent == 0 and " -- " in b.text):
            spans.append((b.start, b.end, "heading"))
        elif b.indent == 0 and b.text.startswith("Not filed under this topic:"):
            spans.append((b.start, b.start + len("Not filed under this topic:"), "label"))
        elif b.indent == 2:
            m = re.match(r"\S+", b.text)
            spans.append((b.start, b.start + m.end(), "law"))
    return _apply(text, spans)


def paint_topics(text: str) -> str:
    """The list of topics: each topic's name."""
    spans: list[tuple[int, int, str]] = []
    offset = 0
    for line in text.split("\n"):
        m = re.match(r"[a-z][\w-]*(?=\s|$)", line)
        if m and not line.startswith("`"):
            spans.append((offset, offset + m.end(), "label"))
        offset += len(line) + 1
    return _apply(text, spans)


def paint_compare(text: str) -> str:
    """A comparison: each remedy, `DIFFERS` or `same`, the laws of each code."""
    spans: list[tuple[int, int, str]] = []
    offset = 0
    for i, line in enumerate(text.split("\n")):
        head = re.match(r"([\w-]+): (DIFFERS|same)\b", line)
        if i == 0:
            spans.append((offset, offset + len(line), "heading"))
        elif head:
            spans.append((offset, offset + head.end(1), "label"))
            spans.append((offset + head.start(2), offset + head.end(2),
                          "differs" if head.group(2) == "DIFFERS" else "same"))
        else:
            for m in re.finditer(r"\[[\w.\-]+(?:, [\w.\-]+)*\]", line):
                spans.append((offset + m.start(), offset + m.end(), "law"))
            m = re.search(r"(?<=  )not given$", line)
            if m:
                spans.append((offset + m.start(), offset + m.end(), "quiet"))
        offset += len(line) + 1
    return _apply(text, spans)


def paint_check(line: str) -> str:
    """A line of `check`: pass or FAIL, and the totals."""
    if line.startswith("pass "):
        return style("pass", "pass") + line[4:]
    if line.startswith("FAIL "):
        return style("FAIL", "fail") + line[4:]
    m = re.match(r"(\d+ passed), (\d+) failed", line)
    if m:
        failed = style(f"{m.group(2)} failed", "fail") if m.group(2) != "0" else f"{m.group(2)} failed"
        return style(m.group(1), "pass") + ", " + failed + line[m.end():]
    return line


def paint_first_column(text: str, kind: str = "label") -> str:
    """A table (codes, remedies, events): the first word of each row at the margin."""
    spans: list[tuple[int, int, str]] = []
    offset = 0
    for line in text.split("\n"):
        m = re.match(r"[\w-]+\*?(?=\s)", line)
        if m:
            spans.append((offset, offset + m.end(), kind))
        d = line.find("(default)")
        if d >= 0:
            spans.append((offset + d, offset + d + len("(default)"), "pass"))
        offset += len(line) + 1
    return _apply(text, spans)


def paint_event(text: str) -> str:
    """An event explained (`events NAME`): its name, the headings, the laws that read it."""
    spans: list[tuple[int, int, str]] = []
    offset, laws = 0, False
    for i, line in enumerate(text.split("\n")):
        m = re.match(r"Laws that read it \([^)]*\):", line)
        if i == 0:
            m = re.match(r"\S+", line)
            if m:
                spans.append((offset, offset + m.end(), "heading"))
        elif re.match(r"(Fields \(\* required\)|Example):$", line):
            spans.append((offset, offset + len(line), "heading"))
        elif m:
            spans.append((offset, offset + m.end(), "label"))
        laws = bool(m) or (laws and line.startswith("  "))
        if laws:        # the laws' ids, on the label's line and the lines wrapped under it
            for law in re.finditer(r"(?<![^\s])[\w.\-]+(?=,|$)", line[m.end() if m else 0:]):
                at = offset + (m.end() if m else 0)
                spans.append((at + law.start(), at + law.end(), "law"))
        offset += len(line) + 1
    return _apply(text, spans)


def paint_error(text: str, where: str | None = None) -> str:
    """An error on standard error: where it is (the file, line and column, or the command), the
    hint's label, an internal fault's first words."""
    if where and text.startswith(where):
        text = style(where, "where") + text[len(where):]
    text = re.sub(r"(?m)^(\s+)(hint:)", lambda m: m.group(1) + style(m.group(2), "hint"), text)
    return re.sub(r"(?m)^(internal error)", lambda m: style(m.group(1), "error"), text)


# --------------------------------------------------------------------------------------------------
# Printing, through the pager when long
# --------------------------------------------------------------------------------------------------
def _pager_command() -> list[str] | None:
    """The pager to use ($PAGER, else less), or None: `--no-pager`, PAGER set empty, or not both
    standard input and standard output a terminal (a pipe, a file: never a pager)."""
    if _settings().get("no_pager"):
        return None
    if not (_is_terminal(sys.stdin) and _is_terminal(sys.stdout)):
        return None
    given = os.environ.get("PAGER")
    if given is None:
        return None if os.environ.get("TERM") in ("dumb", "emacs") else ["less"]
    try:
        parts = shlex.split(given)
    except ValueError:
        parts = given.split()
    return parts or None


def _less_shows_colour(parts: list[str]) -> bool:
    """Whether `less`, with LESS and its own arguments, shows colours rather than their codes: -R,
    -r or --raw-control-chars among its options (LESS may write them without the dash: `FRX`)."""
    env = os.environ.get("LESS", "")
    try:
        env_tokens = shlex.split(env)
    except ValueError:
        env_tokens = env.split()
    for tok in env_tokens + [t for t in parts[1:] if t.startswith("-")]:
        if tok.lower() == "--raw-control-chars":
            return True
        if not tok.startswith("--") and re.search("[rR]", tok.lstrip("-")):
            return True
    return False


def _height() -> int:
    import shutil
    return shutil.get_terminal_size((80, 24)).lines


def _through_pager(pager: list[str], on: bool) -> bool:
    """Set the pager up (LESS=FRX for less, when LESS is not set); whether it is to get colour."""
    if os.path.basename(pager[0]) == "less":
        if "LESS" not in os.environ:
            os.environ["LESS"] = "FRX"      # as git: quit if it fits, show colours, leave it on screen
        return on and _less_shows_colour(pager)
    return on


# Messages for standard error while the pager holds the terminal: said once it has left it.
_held: list[tuple[str, bool]] | None = None


def _page(chunks, on: bool) -> None:
    """Stream text into the pager as it comes (click adds a last newline: the text's own is kept
    back), then say the messages held meanwhile."""
    global _held

    def without_last_newline():
        owed = ""
        for chunk in chunks:
            if not chunk:
                continue
            yield owed + chunk[:-1] if chunk.endswith("\n") else owed + chunk
            owed = "\n" if chunk.endswith("\n") else ""
    _held = []
    try:
        click.echo_via_pager(without_last_newline(), color=on)
    finally:
        held, _held = _held, None
        for message, err_on in held:
            click.echo(message, err=True, nl=False, color=err_on)


def echo(text: str, *, paint=None, page: bool = True, nl: bool = False) -> None:
    """Print text on standard output: styled (`paint`) when colour is on; through the pager when
    `page`, on a terminal, and taller than it."""
    styler = None
    if paint is not None:       # (the text styled without the newline added)
        styler = (lambda t, _: paint(t[:-1]) + "\n") if nl else (lambda t, _: paint(t))
    echo_pieces([(text + ("\n" if nl else ""), None)], paint=styler, page=page)


def echo_pieces(pieces, *, paint=None, page: bool = True) -> None:
    """Print pieces of text as they come (an iterable of (text, data): one ruling after another),
    each styled by `paint(text, data)` when colour is on. Where a pager may show them, they are held
    until they fill the screen: all of them shorter, they are printed; else the pager starts with
    them and the rest streams into it as it comes (`adjudicate` on many files shows its first
    screen as soon as it is ruled)."""
    on = colour()
    pager = _pager_command() if page else None
    pieces = iter(pieces)
    if pager is not None:
        held, lines, height = [], 0, _height()
        for piece in pieces:
            held.append(piece)
            lines += piece[0].count("\n")
            if lines >= height:
                break
        else:
            pager = None                # it fits: printed straight
        if pager is not None:
            shown = _through_pager(pager, on)
            _page(((paint(t, d) if shown and paint else t) for t, d in itertools.chain(held, pieces)), shown)
            return
        pieces = iter(held)
    for text, data in pieces:
        click.echo(paint(text, data) if on and paint else text, nl=False, color=on)


def echo_err(text: str, *, where: str | None = None, nl: bool = True) -> None:
    """Print a message on standard error, styled when standard error takes colour; held while the
    pager holds the terminal, and said when it has left it."""
    on = colour(err=True)
    message = (paint_error(text, where) if on else text) + ("\n" if nl else "")
    if _held is not None:
        _held.append((message, on))
        return
    click.echo(message, err=True, nl=False, color=on)


def paint_stats(text: str) -> str:
    """`quiz stats`: its headings."""
    return re.sub(r"(?m)^(By code:|By topic:)$", lambda m: style(m.group(1), "heading"), text)


def paint_quiz(text: str) -> str:
    """The quiz: each question's heading, and whether the answer was right."""
    m = re.match(r"(Question \d+ of \d+)", text)
    if m:
        return style(m.group(1), "heading") + text[m.end():]
    first, nl, rest = text.partition("\n")         # the feedback: its first line says right or wrong
    if first.startswith("Right"):
        return style(first, "pass") + nl + rest
    if first.startswith("Wrong."):
        return style(first, "fail") + nl + rest
    return text
