"""Which memory allocator clingo uses (mimalloc, loaded in-process), and how often the garbage
collector looks (settle_collector, at the end).

clingo's grounding makes and frees a great many small blocks, and the C library's malloc (glibc)
does poorly at it in a process that rules incident after incident: a third of a warm ruling's time
is spent in malloc and free (perf), and a process that has ruled a thousand different incidents
rules each later one a third slower than one that has ruled two hundred (its own settings,
`mallopt` and GLIBC_TUNABLES, changed nothing or made it worse).

The C library's malloc can only be replaced when a process starts (LD_PRELOAD), but most of what
grounding allocates, clingo (C++) asks of `operator new`, which the dynamic loader looks up in the
libraries loaded for all (RTLD_GLOBAL) before libstdc++, the library that defines it, is loaded.
So when this package is imported before clingo is (adjudicator/__init__.py), mimalloc is loaded so
first, and clingo's `new` and `delete` are mimalloc's; Python's own allocations stay with the C
library. The mimalloc loaded is the package's own: the cmeel-mimalloc wheel, a dependency of the
package on Linux x86-64 and arm64 (pyproject.toml), so that `pip install` brings full speed; where it
is not installed, the machine's (Debian's libmimalloc2.0). A warm ruling took 7.5 ms so, against
17.4 ms with the C library's malloc for all and 7.7 ms with jemalloc preloaded (benchmarks/README.md).

Until issue 45, the commands that run long (`serve`, `adjudicate` and `check` on MANY_FILES files)
started themselves again with Debian's jemalloc preloaded; mimalloc in-process rules as fast
(benchmarks/README.md), in every process, and comes with the package: the second start and its
environment variables are gone; check_setting refuses a setting that is no allocator.
ADJUDICATOR_MALLOC=system keeps the C library's malloc for all. Not done when clingo or libstdc++
is already in the process (a `new` bound to the C library's malloc would then free, or be
freed by, mimalloc's), nor when jemalloc is preloaded by the user (clingo's `new` is jemalloc's).
"""
from __future__ import annotations

import os
import sys

# Set by the console script (cli.entry), which ends the process with os._exit once its output is
# flushed: what is still held then need not be freed (engine.solve keeps its last program).
leaves_with_exit = False

VARIABLE = "ADJUDICATOR_MALLOC"          # "system": keep the C library's malloc
# From this many files on, `adjudicate` and `check` are a long run (cli.py: the collector settled).
MANY_FILES = 16

# Where Debian, Ubuntu and Fedora put jemalloc (a user may preload it: in_use tells), beside what
# the loader's cache knows (find_library).
_PLACES = ("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
           "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2")


# mimalloc as the package brings it: the cmeel-mimalloc wheel (a dependency of the package on Linux
# x86-64 and arm64, pyproject.toml) puts it under cmeel.prefix/lib in the environment's site-packages.
_WHEEL_LIBRARY = ("cmeel.prefix", "lib", "libmimalloc.so")

# Where Debian, Ubuntu and Fedora put mimalloc (clingo's allocator in any process: give_clingo_mimalloc),
# looked for when the package's own is not there (an install without the wheel).
_MIMALLOC_PLACES = ("/usr/lib/x86_64-linux-gnu/libmimalloc.so.2", "/usr/lib/aarch64-linux-gnu/libmimalloc.so.2",
                    "/usr/lib64/libmimalloc.so.2", "/usr/lib/libmimalloc.so.2", "/usr/local/lib/libmimalloc.so.2")

# What clingo allocates with in this process: "jemalloc" (preloaded), "mimalloc" (loaded for it by
# give_clingo_mimalloc) or "system" (the C library's malloc).
clingo_allocator = "system"
clingo_library: str | None = None        # the library loaded for it (mimalloc's), if any


def give_clingo_mimalloc() -> str:
    """Load the machine's mimalloc for all (RTLD_GLOBAL) before clingo is imported, so that
    clingo's `operator new` and `delete` are mimalloc's (the module's docstring says why and when
    not); sets and returns clingo_allocator. Called once, by adjudicator/__init__.py; nothing here
    raises. (_ctypes, not ctypes: this runs at every command's start, and ctypes' Python layer
    costs a command that never rules 1-2 ms.)"""
    global clingo_allocator
    if not sys.platform.startswith("linux") or "clingo" in sys.modules:
        return clingo_allocator
    try:
        import _ctypes
        if in_use() == "jemalloc":
            clingo_allocator = "jemalloc"           # preloaded: clingo's `new` is jemalloc's already
            return clingo_allocator
        if _set_to() == "system":
            return clingo_allocator                 # (anything else not known is refused where it is read)
        try:
            _ctypes.dlopen("libstdc++.so.6", os.RTLD_LAZY | os.RTLD_NOLOAD)
            return clingo_allocator                 # loaded already: its `new` may be bound to malloc
        except OSError:
            pass
        for library in mimalloc_libraries():
            try:
                _ctypes.dlopen(library, os.RTLD_NOW | os.RTLD_GLOBAL)
            except OSError:
                continue                            # (a library it needs missing: the next, or none)
            global clingo_library
            clingo_allocator, clingo_library = "mimalloc", library
            return clingo_allocator
    except (ImportError, OSError, AttributeError):
        pass
    return clingo_allocator


def mimalloc_libraries():
    """The mimalloc shared libraries this process may load, in the order they are tried (each
    looked for only when the one before could not be had): the package's own (the cmeel-mimalloc
    wheel, in a site-packages folder of the module path), then the machine's (_MIMALLOC_PLACES)."""
    for entry in sys.path:
        if entry.endswith("site-packages"):
            path = os.path.join(entry, *_WHEEL_LIBRARY)
            if os.path.isfile(path):
                yield path
    for path in _MIMALLOC_PLACES:
        if os.path.isfile(path):
            yield path


def jemalloc_library() -> str | None:
    """The machine's jemalloc shared library (a path, or a name the loader finds), or None; None
    off Linux too (preloading a library is how the ELF loader does it)."""
    if not sys.platform.startswith("linux"):
        return None
    for path in _PLACES:
        if os.path.isfile(path):
            return path
    import ctypes.util          # (here: it imports subprocess, 6 ms a command that never needs it)
    return ctypes.util.find_library("jemalloc")     # a name the loader finds by its own search


def in_use() -> str:
    """"jemalloc" when this process allocates with it (it answers `mallctl`), else "system"."""
    import _ctypes
    try:
        _ctypes.dlsym(_ctypes.dlopen(None, os.RTLD_LAZY), "mallctl")    # present only where jemalloc is loaded
    except OSError:
        return "system"
    return "jemalloc"


def one_arena() -> bool:
    """Have every thread allocate from the process's main arena of the C library's malloc (glibc's
    `mallopt(M_ARENA_MAX, 1)`: adjudicator/core/engine.py says why); whether it was set. Called through
    _ctypes, as give_clingo_mimalloc is: ctypes' Python layer cost every command 1 ms for this one
    call. Elsewhere than glibc (macOS, musl: no mallopt) nothing is done."""
    try:
        import _ctypes

        class _Int(_ctypes._SimpleCData):
            _type_ = "i"

        class _Function(_ctypes.CFuncPtr):      # (as ctypes' own CDLL functions are made)
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = _Int

        mallopt = _Function(_ctypes.dlsym(_ctypes.dlopen(None, os.RTLD_LAZY), "mallopt"))
        mallopt.argtypes = (_Int, _Int)
        M_ARENA_MAX = -8
        return mallopt(M_ARENA_MAX, 1) == 1
    except (ImportError, OSError, AttributeError, TypeError):
        return False


def _set_to() -> str:
    """ADJUDICATOR_MALLOC as set, in any case and without blanks ("" when unset)."""
    return os.environ.get(VARIABLE, "").strip().lower()


def setting() -> str:
    """ADJUDICATOR_MALLOC as set, in any case: "system" (the C library's malloc for all), or ""
    (unset or empty), "mimalloc" or "jemalloc" (the default: clingo's allocations to mimalloc; the
    last as before issue 45, when it meant a second start with jemalloc, now none). Anything else is
    refused where it is read (`serve`, a command on many files): a typo such as `sytem` was taken
    silently for the default."""
    value = _set_to()
    if value in ("", "system", "mimalloc", "jemalloc"):
        return value
    raw = os.environ.get(VARIABLE, "")
    from adjudicator.errors import UsageError
    from adjudicator.core.values import shown
    raise UsageError(f"{VARIABLE} is '{shown(raw)}', which is no allocator this command knows",
                     hint="set it to `system` to keep the C library's malloc, or unset it for mimalloc "
                          "(clingo's allocations, where the package or the machine has it)")


def check_setting() -> None:
    """Before a long run (`serve`, a command on many files): ADJUDICATOR_MALLOC checked, a value that
    is no allocator refused (UsageError, exit 2: setting). Such a run once started again with
    jemalloc preloaded; it no longer does (mimalloc, loaded in-process, rules as fast: the module's
    docstring)."""
    setting()


# The cyclic garbage collector's thresholds for a process that rules incident after incident
# (gc.set_threshold: objects allocated before the youngest generation is looked at, and collections
# of each generation before the next older one is). Python's own first threshold, 700, is reached
# about once a ruling; each time, the ruling's objects still alive are moved a generation up, and
# every so often the whole heap (the rules' parsed statements, the selection's kept answers:
# adjudicator/core/relevance.py) is looked through, 90-140 ms at a time in a process that has ruled a
# few hundred incidents. With 10,000 that whole look did not come in 570 rulings, and the
# collector's time fell from 4% of the rulings' to 1% (benchmarks/README.md).
COLLECTOR_THRESHOLDS = (10_000, 10, 10)


def settle_collector() -> None:
    """Set the garbage collector for a long run of rulings (`adjudicator serve`; benchmarks/bench.py
    measures the server so). A one-shot command leaves it as it is: it makes too few objects for
    the collector to matter."""
    import gc
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
