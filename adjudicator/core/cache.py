"""The user's cache folder: what adjudicator works out once and keeps between commands (the law
search's index, adjudicator/lookup/search.py; the rules as the rule selection reads them,
adjudicator/core/rulecache.py; the games' table, adjudicator/core/registry.py).

Each file there is named by a digest of what it was made from, so it never answers for sources it
was not made from, and writing one removes the older files of its kind. Nothing there is needed:
where the folder cannot be written, the work is done again by each command.

Nothing there is trusted either. A file is read only when it is a regular file of the user's, not
a link (opened with O_NOFOLLOW and without blocking: a FIFO is not waited on, a link to /dev/zero
not followed), of at most MAX_BYTES; and what it holds is used only when it begins with MAGIC and
the BLAKE2b digest of the rest, which it is checked against first (a file cut short, a random
corruption, a one-byte edit that keeps the length: each fails the check). A file that fails any
check is set aside (renamed `NAME.damaged`, the one before of its kind removed) and made again,
and the command says so in one line on standard error; nothing of it reaches a ruling.
"""
from __future__ import annotations

import marshal
import os
import stat
import sys
import zlib

ENV = "ADJUDICATOR_CACHE"

# A kept file: MAGIC, then the BLAKE2b digest (DIGEST bytes) of what follows, then that.
MAGIC = b"adjudicator-cache 1\n"
DIGEST = 32
MAX_BYTES = 16 << 20        # the largest file kept, a code's rules, is under 1 MB
DAMAGED = ".damaged"        # a file set aside: its name, then this


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


# marshal's format, written as version 4 whichever Python writes it: every Python from 3.4 on reads
# it, so a file is the same for every Python (and one made when the package was built, shipped in
# it, rulecache.py, answers for all).
MARSHAL = 4


def named(prefix: str, source: bytes, suffix: str = ".marshal") -> str:
    """The path of a kept file made from these bytes: its name is a digest of them (CRC-32 and
    Adler-32, and their length: a name, not the check of what the file holds, which is its own
    digest, read_checked) and of marshal's format."""
    data = f"marshal {MARSHAL}\0".encode() + source
    return os.path.join(folder(), f"{prefix}{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}{suffix}")


def _digest(data) -> bytes:
    """BLAKE2b of the bytes (through _blake2: hashlib's import, which loads OpenSSL's, would cost
    every command some 3 ms; this 0.5 ms for a code's rules, 470 KB)."""
    try:
        from _blake2 import blake2b
    except ImportError:             # pragma: no cover (a Python built without it)
        from hashlib import blake2b
    return blake2b(data, digest_size=DIGEST).digest()


def sealed(payload: bytes) -> bytes:
    """The bytes of a kept file holding `payload`: MAGIC, its digest, itself."""
    return MAGIC + _digest(payload) + payload


# Files that failed a check and could not be set aside (a folder that cannot be written), said once
# in a process however often they are looked for.
_said: set[str] = set()


class Damaged(Exception):
    """A kept file that failed a check: why, in words ("it is a FIFO", "its digest does not match")."""


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file")


def _read_whole(path: str, shipped: bool = False) -> bytes | None:
    """The bytes of a kept file, or None when there is none; Damaged when it is not one to read:
    a link, a FIFO, a device, a folder, another user's file (not for a file `shipped` in the
    package, which its installer owns), a file over MAX_BYTES."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None                 # (none kept; or the folder is no folder: nothing is kept there)
    except OSError as e:
        if os.path.islink(path):
            raise Damaged("it is a link (a kept file is never one)") from None
        if not os.path.lexists(path):
            return None
        raise Damaged(f"it cannot be read ({(e.strerror or 'error').lower()})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Damaged(f"it is {_kind(st.st_mode)}, not a regular file")
        if not shipped and hasattr(os, "getuid") and st.st_uid != os.getuid():
            raise Damaged(f"it belongs to another user (uid {st.st_uid})")
        if st.st_size > MAX_BYTES:
            raise Damaged(f"it is {st.st_size:,} bytes, over the {MAX_BYTES:,} a kept file may be")
        chunks, left = [], min(st.st_size, MAX_BYTES) + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > MAX_BYTES:
            raise Damaged(f"it holds over the {MAX_BYTES:,} bytes a kept file may be")
        return data
    except OSError as e:
        raise Damaged(f"it cannot be read ({(e.strerror or 'error').lower()})") from None
    finally:
        os.close(fd)


def _unsealed(data: bytes) -> bytes:
    """What a kept file holds, once its digest is checked; Damaged when it is not."""
    head = len(MAGIC) + DIGEST
    if len(data) < head or not data.startswith(MAGIC):
        raise Damaged("it is not a file adjudicator keeps (cut short, or another program's)")
    payload = memoryview(data)[head:]
    if _digest(payload) != data[len(MAGIC):head]:
        raise Damaged("what it holds does not match its digest (damaged or edited)")
    return payload.tobytes()


def read_checked(path: str, shipped: bool = False) -> bytes | None:
    """What the kept file `path` holds, its digest checked; None when there is none, or when it
    failed a check (then it is set aside and the command says so: set_aside). A file `shipped` in
    the package is never moved: only said, and what it would give made in the cache folder."""
    try:
        data = _read_whole(path, shipped)
        if data is None:
            return None
        return _unsealed(data)
    except Damaged as e:
        if shipped:
            _say(path, f"{e}; what it holds is made in the cache folder")
        else:
            set_aside(path, str(e))
        return None


def set_aside(path: str, why: str) -> None:
    """A kept file that failed a check: renamed NAME.damaged (the one set aside before for its
    kind removed: one at most of each), and one line on standard error. It is made again by
    whoever looked for it."""
    aside = path + DAMAGED
    moved = True
    try:
        os.replace(path, aside)
    except FileNotFoundError:
        return                      # (another command set it aside, or made it again, first)
    except OSError:
        moved = False
    if moved:
        base = os.path.basename(path)
        prefix = base[:base.rfind("-") + 1] if "-" in base else base
        forget_older(aside, prefix, DAMAGED)
    elif path in _said:
        return                      # (left in place: said once in a process, not at every look)
    else:
        _said.add(path)
    from adjudicator.errors import safe
    _say(path, f"{why}; " + (f"it is kept as {safe(os.path.basename(aside))} and made again" if moved
                             else "it cannot be moved aside, so what it holds is worked out again by each command"))


def _say(path: str, what: str) -> None:
    """The one line on standard error that says a kept file was not used, and why."""
    from adjudicator.errors import safe
    try:
        sys.stderr.write(f"adjudicator: the cache file {safe(path)} was not used: {what}.\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass                        # (standard error closed: the command goes on all the same)


def kept(path: str, shipped: bool = False):
    """What a kept file holds (marshal), or None when it is absent or failed a check (then made
    again). A file whose digest matches was written by keep(): marshal reads it whole."""
    payload = read_checked(path, shipped)
    if payload is None:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as e:       # (only a writer with another marshal)
        if shipped:
            _say(path, f"it cannot be read back ({e})")
        else:
            set_aside(path, f"it cannot be read back ({e})")
        return None


def keep_bytes(path: str, payload: bytes, prefix: str, suffix: str) -> bool:
    """Write payload to path, sealed with its digest, whole or not at all, and forget the older
    files of its kind; whether it was written. Whatever stops it (no folder can be made, a full
    disk) only means the work is done again."""
    import tempfile
    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{prefix}", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(sealed(payload))
        os.replace(tmp, path)           # whole or not at all, whoever else writes it at once
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False
    forget_older(path, prefix, suffix)
    return True


def keep(path: str, data, prefix: str, suffix: str = ".marshal") -> None:
    """Keep data (marshal) at path: keep_bytes. A value marshal cannot write is not kept."""
    try:
        payload = marshal.dumps(data, MARSHAL)
    except ValueError:
        return
    keep_bytes(path, payload, prefix, suffix)
