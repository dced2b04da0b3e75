"""Which memory allocator a long-running process uses (jemalloc where the machine has it), and how
often its garbage collector looks (settle_collector, at the end).

clingo's grounding makes and frees a great many small blocks, and the C library's malloc (glibc)
does poorly at it in a process that rules incident after incident: a third of a warm ruling's time
is spent in malloc and free (perf), and a process that has ruled a thousand different incidents
rules each later one a third slower than one that has ruled two hundred (the same 281 cases: 15.2
against 11.4 ms a ruling; its own settings, `mallopt` and GLIBC_TUNABLES, changed nothing or made
it worse). With jemalloc (Debian's libjemalloc2) the same rulings take 9.1 ms however many came
before, and the bundled cases are ruled at 80 a second in turn instead of 51 (benchmarks/README.md).

No Python package carries an allocator, and the C library's malloc can only be replaced when a process starts
(LD_PRELOAD). So the commands that run for long start themselves again with jemalloc preloaded
when the machine has it (the same process id: a service manager sees nothing), unless
ADJUDICATOR_MALLOC=system says to keep the C library's: `adjudicator serve`, and `adjudicate` and
`check` given MANY_FILES files or more; benchmarks/bench.py measures a warm process the same way.
A command on one file, or a few, gains too little to pay for a second start (one ruling in a fresh
heap), so it never does this. Where there is no jemalloc, nothing changes but the speed.

Any process, though, can give clingo an allocator of its own without starting again: most of what
grounding allocates, clingo (C++) asks of `operator new`, which the dynamic loader looks up in the
libraries loaded for all (RTLD_GLOBAL) before libstdc++, the library that defines it, is loaded.
So when this package is imported before clingo is (adjudicator/__init__.py), the machine's
mimalloc (Debian's libmimalloc2.0) is loaded so first, and clingo's `new` and `delete` are
mimalloc's; Python's own allocations stay with the C library. A warm ruling in a plain Python loop
over the bundled cases took 8.7 ms so, against 15.9 ms with the C library's malloc for all and
8.0 ms with jemalloc preloaded (benchmarks/README.md). jemalloc itself cannot be loaded so (Debian's
build refuses: "cannot allocate memory in static TLS block"), so the long runs above keep their
second start. Not done when clingo or libstdc++ is already in the process (a `new` bound to the C
library's malloc would then free, or be freed by, mimalloc's), when jemalloc is preloaded
already, or when ADJUDICATOR_MALLOC says "system".
"""
from __future__ import annotations

import os
import sys

# Set by the console script (cli.entry), which ends the process with os._exit once its output is
# flushed: what is still held then need not be freed (engine.solve keeps its last program).
leaves_with_exit = False

VARIABLE = "ADJUDICATOR_MALLOC"          # "system": keep the C library's malloc
# From this many files on, `adjudicate` and `check` start again with jemalloc. A second start costs
# some 0.1 s; `check` on 16 of the bundled cases took 0.80-0.95 s with jemalloc against 1.31-1.45 s
# without, on 8 0.52-0.55 against 0.64-0.78, and on 512 10-12 s against 19-25 s (the C library's
# malloc slows as a process's heap fills: benchmarks/README.md).
MANY_FILES = 16
_STARTED = "ADJUDICATOR_MALLOC_STARTED"  # on the second start: LD_PRELOAD as it was before

# Where Debian, Ubuntu and Fedora put it, beside what the loader's cache knows (find_library).
_PLACES = ("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
           "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2")


# Where Debian, Ubuntu and Fedora put mimalloc (clingo's allocator in any process: give_clingo_mimalloc).
_MIMALLOC_PLACES = ("/usr/lib/x86_64-linux-gnu/libmimalloc.so.2", "/usr/lib/aarch64-linux-gnu/libmimalloc.so.2",
                    "/usr/lib64/libmimalloc.so.2", "/usr/lib/libmimalloc.so.2", "/usr/local/lib/libmimalloc.so.2")

# What clingo allocates with in this process: "jemalloc" (preloaded), "mimalloc" (loaded for it by
# give_clingo_mimalloc) or "system" (the C library's malloc).
clingo_allocator = "system"


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
        if _set_to() not in ("", "jemalloc"):
            return clingo_allocator                 # "system" (anything else is refused where it is read)
        try:
            _ctypes.dlopen("libstdc++.so.6", os.RTLD_LAZY | os.RTLD_NOLOAD)
            return clingo_allocator                 # loaded already: its `new` may be bound to malloc
        except OSError:
            pass
        library = next((p for p in _MIMALLOC_PLACES if os.path.isfile(p)), None)
        if library is None:
            return clingo_allocator
        _ctypes.dlopen(library, os.RTLD_NOW | os.RTLD_GLOBAL)
    except (ImportError, OSError, AttributeError):
        return clingo_allocator
    clingo_allocator = "mimalloc"
    return clingo_allocator


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
    """ADJUDICATOR_MALLOC as set, in any case: "system" (keep the C library's malloc), "jemalloc"
    or "" (unset or empty: jemalloc where the machine has it). Anything else is refused where it
    is read (`serve`, a command on many files): a typo such as `sytem` was taken silently for the
    default."""
    value = _set_to()
    if value in ("", "system", "jemalloc"):
        return value
    raw = os.environ.get(VARIABLE, "")
    from adjudicator.errors import UsageError
    from adjudicator.core.values import shown
    raise UsageError(f"{VARIABLE} is '{shown(raw)}', which is no allocator this command knows",
                     hint="set it to `system` to keep the C library's malloc, or to `jemalloc` (or unset it) "
                          "for jemalloc where the machine has it")


def this_command() -> list[str]:
    """The command line that starts this command again, importing the same package: `python -m
    adjudicator ...` when it was started so (the same folders first on the module path), else the
    script that started it (the console script: its own folder first). `-m adjudicator` from a
    console script would put the current folder first instead, and in a checkout of the repository
    import the source tree in place of the installed package."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name in ("adjudicator.__main__", "adjudicator"):
        return [sys.executable, "-m", "adjudicator", *sys.argv[1:]]
    return [sys.executable, sys.argv[0], *sys.argv[1:]]


def restart_with_jemalloc(argv: list[str]) -> None:
    """Start this process again as `argv` (os.execve: the same process, `argv[0]` the program)
    with jemalloc preloaded, when the machine has it, it is not in use already, and
    ADJUDICATOR_MALLOC does not say "system". Returns only when it does not: then the command goes
    on as it is. Called again in the process started (it returns at once), it gives LD_PRELOAD back
    its value from before, so that no program this one starts is given jemalloc unasked."""
    if _STARTED in os.environ:
        was = os.environ.pop(_STARTED)
        if was:
            os.environ["LD_PRELOAD"] = was
        else:
            os.environ.pop("LD_PRELOAD", None)
        return
    if setting() == "system" or in_use() == "jemalloc":
        return
    library = jemalloc_library()
    if library is None:
        return
    env = dict(os.environ)
    env[_STARTED] = env.get("LD_PRELOAD", "")
    env["LD_PRELOAD"] = " ".join(x for x in (library, env[_STARTED]) if x)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(argv[0], argv, env)
    except OSError:
        return                      # (could not start again: go on with the C library's malloc)


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
