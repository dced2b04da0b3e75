"""Answers read with a bound, and the files a command reads answers from or writes to checked.

One mechanism for every interactive command (the quiz, `ask`): an answer's line is at most
MAX_ANSWER bytes, a line still going past MAX_LINE is no answer at all and stops the command,
and MAX_TRIES answers in a row that cannot be read stop it too (exit 2). A file named for
answers must be a regular file, and a file to write a regular file or a new one: a FIFO would
wait for ever, a device (/dev/zero) never end. A file read is opened without blocking and checked
again on what was opened; a file written is written beside its place and then put there
(write_replacing), its folder checked to take a new file before any question; a link on its way
is followed, and a file there replaced, only where another user cannot have put it (followed).
"""
from __future__ import annotations

import os
import stat
from typing import Callable

from adjudicator.errors import safe

MAX_ANSWER = 500          # bytes of one answer's line (its end of line aside): longer is no answer
MAX_LINE = 1 << 20        # a line still going past this (`cat /dev/zero`) is no answer at all: the command stops
MAX_TRIES = 5             # answers in a row that cannot be read before the command stops (`yes zz`)
QUOTE = 40                # what was written, as a message quotes it


def chosen_number(text: str, low: int, high: int) -> int | None:
    """The number a user wrote to choose (an option, an answer, a question, a limit): decimal digits
    in ASCII, from low to high; else None. str.isdigit() alone passes '²', which int() cannot read (an
    internal error), and '١' or a mathematical bold 3, which it reads as 1 and 3: a choice never
    offered taken for one that was. (A run of digits longer than any choice is none, before int()
    reads it: past 4,300 digits int() refuses.)"""
    if text.isascii() and text.isdigit() and len(text) <= 18:
        number = int(text)
        if low <= number <= high:
            return number
    return None


class LongAnswer(Exception):
    """A line of input longer than MAX_ANSWER (`endless`: still going past MAX_LINE, and left unread)."""

    def __init__(self, start: str, endless: bool = False):
        self.start, self.endless = start, endless
        super().__init__(start)


def _decoded(raw) -> str:
    """A line as text: bytes that are not UTF-8 kept visible as \\xNN (never a lone surrogate)."""
    return raw.decode("utf-8", "backslashreplace") if isinstance(raw, bytes) else raw


def read_answer(stream) -> str | None:
    """One answer's line from `stream` (binary, or text), without its end of line; None at the end
    of input. Bounded: a line longer than MAX_ANSWER raises LongAnswer, the rest of it read and
    dropped in small pieces up to MAX_LINE, past which it is left unread (LongAnswer.endless)."""
    raw = stream.readline(MAX_ANSWER + 2)
    if not raw:
        return None
    nl = "\n" if isinstance(raw, str) else b"\n"
    cr = "\r" if isinstance(raw, str) else b"\r"
    ended = raw.endswith(nl)
    body = raw[:-1] if ended else raw
    body = body[:-1] if body.endswith(cr) else body
    if len(body) <= MAX_ANSWER:
        return _decoded(body)
    start = _decoded(body[:MAX_ANSWER])
    if ended or len(raw) < MAX_ANSWER + 2:     # the whole line was read: one long answer
        raise LongAnswer(start)
    total = len(raw)
    while total <= MAX_LINE:
        chunk = stream.readline(1 << 16)
        if not chunk or chunk.endswith(nl):
            raise LongAnswer(start)
        total += len(chunk)
    raise LongAnswer(start, endless=True)


def too_long(said: str) -> bool:
    """Longer than MAX_ANSWER bytes in UTF-8 (as the terminal's line is bounded)."""
    return len(said) > MAX_ANSWER or len(said.encode("utf-8", "surrogatepass")) > MAX_ANSWER


def endless(start: str) -> str:
    """Why a command stops on a line without end."""
    return (f"a line of input ran past {MAX_LINE} bytes without an end "
            f"('{safe(start, QUOTE)}'): that is no answer")


def unreadable(where: str, last: str) -> str:
    """Why a command stops after MAX_TRIES answers in a row it could not read (`where`: 'to question 3')."""
    return f"{MAX_TRIES} answers in a row {where} could not be read (the last: '{safe(last.strip(), QUOTE)}')"


# --- files named for answers or for output ------------------------------------------------------

def path_shown(path: str, limit: int = QUOTE) -> str:
    """A path quoted short by its end (the file's own name, which says which it is), made safe."""
    return safe(path) if len(path) <= limit else "..." + safe(path[-limit:])


def path_quoted(path: str) -> str:
    """A path as a sentence names it: quoted ('...tail', path_shown), or, given empty, said so."""
    return f"'{path_shown(path)}'" if path else "an empty argument"


Refuse = Callable[[str], Exception]       # what is said of the path ("is not a regular file") -> the error


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file, however spelt (relative or absolute, `./`, a link to it):
    os.path.samefile; a path that names no file yet (a new file to save) is no other."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device or a socket")


# --- links and files of other users --------------------------------------------------------------
# In a folder others may write (mode 1777: /tmp, /var/tmp, a shared folder), anyone can put a link
# where the user will write, naming a file of the user's (~/.bashrc), or a file of their own: a
# write that follows the link replaces the user's file, or fills theirs. So a file to write (`ask
# --save`, the quiz's sheets, the quiz's progress database) is found by walking its path one name
# at a time (os.lstat, os.readlink), as careful tools in shared folders do, and the kernel's
# protected_symlinks and protected_regular settings where they are on:
# - a link on the way is followed only when it belongs to the user, or, out of a folder others may
#   write, to that folder's owner (the kernel's rule: a folder's owner may put links in it);
# - the file named itself, when it is a link, only when the link belongs to the user and so does
#   the file it names (where that file exists);
# - a file there, reached without a link, is replaced only when it is the user's, or the folder is
#   not one others may write.
# The file is then written beside the place found and put there (os.replace, which never follows a
# link put at the last moment: it replaces the link).

MAX_LINKS = 40              # links followed on one path (the kernel's own limit)


def _others_write(st: os.stat_result) -> bool:
    return bool(st.st_mode & stat.S_IWOTH)


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


def followed(path: str, refuse: Refuse) -> str:
    """The place the file `path` names, its links followed where they may be (the rules above), as
    an absolute path whose every folder is the real one; the refusal of a link or a file that may
    not be. A name not there yet ends the walk: the rest is the place, as written."""
    uid = _uid()
    todo = [n for n in os.path.abspath(path).split(os.sep) if n]
    here, links = os.sep, 0
    while todo:
        name = todo.pop(0)
        if name == ".":
            continue
        if name == "..":
            here = os.path.dirname(here)
            continue
        place = os.path.join(here, name)
        try:
            st = os.lstat(place)
        except (OSError, ValueError):
            return os.path.join(place, *todo)           # (not there: checked as a new file by the caller)
        if not stat.S_ISLNK(st.st_mode):
            here = place
            continue
        links += 1
        if links > MAX_LINKS:
            raise refuse(f"cannot be used (more than {MAX_LINKS} links on its way)")
        if uid is not None and st.st_uid != uid:
            if not todo:
                raise refuse(f"is a link that belongs to another user (uid {st.st_uid}): it is not followed")
            folder = os.lstat(here)
            if _others_write(folder) and st.st_uid != folder.st_uid:
                raise refuse(f"passes through a link that another user (uid {st.st_uid}) put in a folder others "
                             f"can write ({path_shown(place)}): it is not followed")
        target = os.readlink(place)
        if not todo and uid is not None:         # (the link is the file named: its target must be the user's)
            _target_is_the_users(os.path.join(here, target), refuse, uid)
        if os.path.isabs(target):
            here = os.sep
        todo = [n for n in target.split(os.sep) if n] + todo
    return here


def _target_is_the_users(final: str, refuse: Refuse, uid: int) -> None:
    try:
        st = os.stat(final)
    except (OSError, ValueError):
        return
    if st.st_uid != uid:
        raise refuse(f"is a link to a file that belongs to another user (uid {st.st_uid}): it is not followed")


def _check_owner(place: str, st: os.stat_result, refuse: Refuse) -> None:
    """A file found at `place` (not through a link) that belongs to another user, in a folder
    others may write, is not the user's to replace (protected_regular)."""
    uid = _uid()
    if uid is None or st.st_uid == uid:
        return
    try:
        folder = os.stat(os.path.dirname(place) or ".")
    except OSError:
        return
    if _others_write(folder) and st.st_uid != folder.st_uid:
        raise refuse(f"belongs to another user (uid {st.st_uid}), in a folder others can write: it is not replaced")


def check_writable(path: str, refuse: Refuse) -> None:
    """A file to write must be a regular file or a new one in a folder that exists: a FIFO (which
    would wait for a reader for ever), a device or a folder is refused; so is a path of nothing but
    spaces, which names no file (`ask --save ''` was found writable: its folder '.' exists)."""
    if not path.strip():
        raise refuse("names no file")
    place = followed(path, refuse)
    try:
        st = os.stat(place)
    except FileNotFoundError:
        if not os.path.isdir(os.path.dirname(place) or "."):
            raise refuse("cannot be written (its folder does not exist)") from None
        _probe(place, refuse)
        return
    except (OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else "not a usable path"
        raise refuse(f"cannot be used ({why.lower()})") from None
    if not stat.S_ISREG(st.st_mode):
        raise refuse(f"is not a regular file ({_kind(st.st_mode)})")
    _check_owner(place, st, refuse)
    _probe(place, refuse)


def _probe(path: str, refuse: Refuse) -> None:
    """A file is written beside its target and then put in its place (write_replacing): that the
    folder takes a new file is checked now, before any question, by making one and removing it. A
    folder that takes none (/proc/sys/kernel, where `hostname` is a regular file whose writing
    changes the machine's name; a read-only disk) is refused here, not after the interview."""
    fd, name = _new_file_beside(path, refuse)
    os.close(fd)
    os.unlink(name)


def _new_file_beside(target: str, refuse: Refuse) -> tuple[int, str]:
    """A new, hidden file in the folder of `target` (open, and its name), or the refusal of a
    folder that takes none."""
    import tempfile
    try:
        return tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix=".adjudicator-", suffix=".tmp")
    except OSError as e:
        raise refuse("cannot be written: its folder takes no new file "
                     f"({(e.strerror or 'not a usable folder').lower()})") from None


def write_replacing(path: str, text: str, refuse: Refuse) -> None:
    """Write `text` (UTF-8) to `path`: to a new file beside it, then put in its place (os.replace),
    so that a write that fails (a full disk, an input/output error found only when the file is
    closed) leaves the file that was there whole and is said as this file's ("cannot be written
    (no space left on device)"), never as standard output's; and a file that is not a plain file
    though it looks like one (/proc/version, /proc/sys/kernel/hostname) is never written into. A link
    is followed: the file it names is replaced, the link kept. Nothing blocks (a FIFO put there since
    the check is replaced, never opened). A link, and a file of another user, are followed and
    replaced only as `followed` allows (a link another user planted in a shared folder is not)."""
    target = followed(path, refuse)
    try:
        st = os.lstat(target)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise refuse(f"is not a regular file ({_kind(st.st_mode)})")
    if st is not None:
        _check_owner(target, st, refuse)
    fd, tmp = _new_file_beside(target, refuse)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as e:
        _discard(tmp)
        raise refuse(f"cannot be written ({(e.strerror or 'write error').lower()})") from None
    except BaseException:
        _discard(tmp)       # (Ctrl-C between the new file and its move: nothing is left beside it)
        raise


def _discard(tmp: str) -> None:
    """The new file written beside the target, removed (gone already: nothing to do)."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _open_regular(path: str, flags: int, verb: str, refuse: Refuse) -> int:
    """os.open without blocking (O_NONBLOCK: a FIFO is not waited on), then what was opened checked:
    a regular file's descriptor, else the refusal ("cannot be <verb> (...)", "is not a regular file")."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), 0o666)
    except (OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else "not a usable path"
        raise refuse(f"cannot be {verb} ({why.lower()})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise refuse(f"is not a regular file ({_kind(mode)})")
    return fd


def open_to_read(path: str, refuse: Refuse, not_text: Callable[[int], Exception] | None = None):
    """A regular file opened to read bytes (read_answer reads it a bounded line at a time). Opened
    without blocking and checked before any read: a FIFO, a device (/dev/zero) or a folder is refused.
    With `not_text` (line number -> the error), what is read must be UTF-8 text, as an incident
    file must: a UTF-16 file, a Latin-1 one or a NUL byte is refused at the line it is found on,
    never taken for answers nobody wrote (a UTF-8 byte order mark at its start is passed over)."""
    if not path:        # (`--answers ''`: not standard input, and not "'' cannot be read")
        raise refuse("names no file")
    fh = os.fdopen(_open_regular(path, os.O_RDONLY, "read", refuse), "rb")
    return fh if not_text is None else _Utf8Lines(fh, not_text)


class _Utf8Lines:
    """A binary file's readline(), each piece read checked as UTF-8 text as it comes (a piece may
    end inside a character: the decoder keeps the rest for the next)."""

    def __init__(self, fh, not_text: Callable[[int], Exception]):
        import codecs
        self._fh, self._not_text, self._line = fh, not_text, 1
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._first = True

    def readline(self, size: int = -1) -> bytes:
        raw = self._fh.readline(size)
        if self._first:
            self._first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
        try:
            if b"\x00" in raw:
                raise ValueError("a NUL byte")
            self._decoder.decode(raw, final=not raw)
        except ValueError:          # (UnicodeDecodeError is one)
            raise self._not_text(self._line) from None
        self._line += raw.count(b"\n")
        return raw

    def close(self) -> None:
        self._fh.close()
