"""YAML to Y values, with positions, and the incident's bytes read from a file or standard input.

The parser's events are read one by one and the values built with an explicit stack; the limits on
size and depth stop the reading as soon as they are passed. A file is opened without blocking and
checked before any read (a FIFO, a device or a directory is refused); every refusal names the file,
the line and the column.
"""
from __future__ import annotations

import re

import yaml

from adjudicator.core import schema
from adjudicator.core.limits import MAX_BYTES, MAX_DEPTH, MAX_EVENTS, MAX_LIST, MAX_NAME, MAX_NODES  # noqa: F401
from adjudicator.core.values import Y, shown
from adjudicator.errors import InputError, safe



try:  # libyaml when present: ten times faster
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader


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


# Folders of the system's own files: a file there (/etc/shadow, /proc/self/status), or reached
# through a link into them, is no incident a user wrote, and a refusal of it quotes none of it.
SYSTEM_FOLDERS = ("/etc", "/proc", "/sys", "/dev", "/boot", "/run", "/var", "/usr", "/lib", "/lib32", "/lib64",
                  "/libx32", "/bin", "/sbin", "/root", "/srv", "/snap")
NOT_SYSTEM = ("/var/tmp",)       # (anyone's: a user's incident may be there)


def _system_file(path: str, st) -> str | None:
    """What a file is, in words, when it is a system file or another user's private one (whose
    content a refusal must not quote); else None. A system file: its real place is in one of the
    SYSTEM_FOLDERS (and not in the user's home, /root for root); another user's private file: one
    others may not read, of another user (root reads it all the same)."""
    import os
    import stat
    real = os.path.realpath(path)
    home = os.path.realpath(os.path.expanduser("~"))
    inside = lambda folder: real == folder or real.startswith(folder.rstrip("/") + "/")   # noqa: E731
    if any(inside(f) for f in SYSTEM_FOLDERS) and not any(inside(f) for f in NOT_SYSTEM) and not inside(home):
        from adjudicator.core.reading import path_shown
        if os.path.islink(path):            # (named as `ls -l` shows the link: what it says it names)
            return f"a link to {path_shown(os.readlink(path), 60)}, a system file"
        return f"a system file ({path_shown(real, 60)})"
    uid = os.getuid() if hasattr(os, "getuid") else None
    if uid is not None and st.st_uid != uid and not st.st_mode & stat.S_IROTH:
        return f"a private file of another user (uid {st.st_uid})"
    return None


def _read_file(path: str, name: str) -> bytes:
    """A regular file's bytes. Opened without blocking and checked with fstat before any read:
    a FIFO, a device (/dev/zero, /dev/urandom, a terminal) or a directory is refused at once."""
    return _read_file_and_kind(path, name)[0]


def _read_file_and_kind(path: str, name: str) -> tuple[bytes, str | None]:
    """_read_file's bytes, and what the file is when it is a system file or another user's private
    one (_system_file), else None."""
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
        kind = _system_file(path, st)
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
        return b"".join(chunks), kind
    finally:
        os.close(fd)


def _only_an_incident(data: bytes, name: str, kind: str) -> str:
    """A system file's or another user's private file's text when it reads as an incident (a mapping
    with an incident's keys: it is one, wherever it lies); else the refusal that names the file and
    what it is, and quotes nothing of it (/etc/shadow through a link: its first line was quoted back,
    "root:*:20228:...: nothing is written after the colon")."""
    refusal = InputError(f"this is {kind}, not an incident: nothing of it is shown", name,
                         hint="give the path of the incident file itself")
    try:
        text = data.decode("utf-8")
        root = load_text(text, name) if "\x00" not in text else None
    except (InputError, UnicodeDecodeError):
        raise refusal from None
    if root is None or not isinstance(root.value, dict) or not any(k in schema.TOP_KEYS for k in root.value):
        raise refusal
    return _checked_text(data, name)


def read_source(path: str, stdin_text: str | bytes | None = None, name: str | None = None) -> tuple[str, str]:
    """Return (text, display name) for a path or '-' (standard input, or the text given: `name`
    names it, `<stdin>` by default)."""
    if path == "-":
        name = name or "<stdin>"
        data = stdin_text.encode("utf-8", "surrogateescape") if isinstance(stdin_text, str) else (stdin_text or b"")
    else:
        # as messages print it: escaped, one line; an empty path, or one with spaces at an end (' ',
        # 'case.yaml '), quoted, else the spaces would not show (': no such file')
        if not path:    # (`adjudicate ''`: said so, not "'': no such file")
            raise InputError("an empty argument names no incident file", "adjudicator",
                             hint="give the incident file's path (or '-' to read standard input)")
        name = safe(path) if path == path.strip() else f"'{safe(path)}'"
        data, kind = _read_file_and_kind(path, _path_named(path))
        if kind is not None:
            return _only_an_incident(data, name, kind), name
    return _checked_text(data, name), name


def _checked_text(data: bytes, name: str) -> str:
    """The incident's bytes as text: at most MAX_BYTES, UTF-8, no NUL byte (each refused with its line)."""
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
    return text

