"""Rulings in worker processes: `adjudicator serve --workers N` (docs/web.md, "Many tables at once").

Each worker is a process of its own with the engine in it (its caches, its clingo), started from a
forkserver that imported the API once, and warmed by one ruling before its first request. A request
that rules (a ruling, a comparison, the interview, the builder's step) takes an idle worker and
hands it back when answered; law lookups, search, topics and codes never come here: the server's
own process answers them from the law books it read once, so a heavy ruling holds one worker and
nothing else.

Each worker is its own one-process concurrent.futures.ProcessPoolExecutor: a worker killed breaks
only its own executor (a pool of several would fail every ruling in it), and the one request it
was ruling. Its budget, watched from the server's process while it rules:

- time: the engine's own limit (ADJUDICATOR_TIME_LIMIT, which stops a solve and answers 503) and,
  since a grounding cannot be interrupted inside a process, a hard deadline of that limit and a
  half again plus GRACE seconds (the conditional ruling spends its limit twice: grounding, then
  weighing), past which the worker is killed;
- memory: its resident size, read every POLL seconds from /proc; past ADJUDICATOR_MEMORY_LIMIT
  megabytes (MEMORY_MB) it is killed.

A worker killed (or one left grinding a grounding past the engine's limit) is replaced at once by
a new one; the client is told in the JSON error object, status 503. More than QUEUED requests
waiting for a worker are answered 503 at once (the server is busy) rather than queued for ever.
"""
from __future__ import annotations

import asyncio
import os
import signal

MEMORY_VARIABLE = "ADJUDICATOR_MEMORY_LIMIT"
MEMORY_MB = 1024            # a worker warm is ~70 MB; the heaviest account the format admits, ~320
GRACE = 2.0                 # seconds past one and a half times the engine's limit, before the kill
POLL = 0.05                 # seconds between two looks at a ruling worker's memory
QUEUED = 256                # requests waiting for a worker before the next is answered 503


def memory_mb() -> int:
    """ADJUDICATOR_MEMORY_LIMIT (megabytes, 32 to 1,000,000) or MEMORY_MB; anything else is refused
    (UsageError, exit 2) before the server listens."""
    raw = os.environ.get(MEMORY_VARIABLE)
    if raw is None:
        return MEMORY_MB
    if raw.strip().isascii() and raw.strip().isdigit() and 32 <= int(raw) <= 1_000_000:
        return int(raw)
    from adjudicator.core.values import shown
    from adjudicator.errors import UsageError
    raise UsageError(f"{MEMORY_VARIABLE} is '{shown(raw)}', which is not a number of megabytes",
                     hint="set it to a whole number of megabytes from 32 to 1000000 (e.g. 1024), or unset it")


def default_workers() -> int:
    """As many workers as this process may use cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _start() -> None:
    """In the worker: Ctrl-C is the server's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _warm() -> int:
    """In the worker: one ruling, so that the first request finds the rules read; its process id."""
    from adjudicator.web import examples, service
    try:
        service.ruling(examples.get("lead-out-of-turn").encode("utf-8"))
    except Exception:  # noqa: BLE001 - pragma: no cover - the example rules; a worker that cannot
        pass           # warm still serves (each request says its own refusal)
    return os.getpid()


def _resident(pid: int) -> int:
    """A process's resident memory in bytes (0 where /proc cannot say)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Worker:
    """One worker process (a one-process executor) and its process id once warm."""

    def __init__(self, context):
        from concurrent.futures import ProcessPoolExecutor
        self.executor = ProcessPoolExecutor(1, mp_context=context, initializer=_start)
        self.warm = self.executor.submit(_warm)
        self.pid: int | None = None

    def kill(self) -> None:
        pid = self.pid
        if pid is None and self.warm.done() and not self.warm.exception():
            pid = self.warm.result()
        if pid is None:         # (not yet warm: the executor's own process)
            pid = next(iter(getattr(self.executor, "_processes", None) or {}), None)
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.executor.shutdown(wait=False, cancel_futures=True)


class Pool:
    """N workers; `await pool.run(fn, *args)` is fn(*args) in one of them, within its budget."""

    def __init__(self, workers: int, seconds: float, megabytes: int, queued: int = QUEUED):
        import multiprocessing
        self.size, self.seconds, self.megabytes, self.queued = workers, seconds, megabytes, queued
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["adjudicator.web.service"])
        self.idle: asyncio.Queue | None = None
        self.waiting = 0
        self.replaced = 0           # workers killed and replaced (for the tests and the benchmark)
        self.workers: list[_Worker] = []

    def start(self) -> None:
        """The workers started (each warms itself); called in the server's event loop."""
        self.idle = asyncio.Queue()
        for _ in range(self.size):
            w = _Worker(self.context)
            self.workers.append(w)
            self.idle.put_nowait(w)

    def stop(self) -> None:
        for w in self.workers:
            w.kill()
        self.workers.clear()

    def _replace(self, w: _Worker) -> _Worker:
        w.kill()
        self.replaced += 1
        new = _Worker(self.context)
        self.workers[self.workers.index(w)] = new
        return new

    async def run(self, fn, *args):
        from adjudicator.web.service import Refusal, busy, in_worker, over_budget
        if self.waiting >= self.queued:
            raise busy(self.waiting)
        self.waiting += 1
        try:
            w = await self.idle.get()
        finally:
            self.waiting -= 1
        replace, job = False, None
        try:
            if w.pid is None:
                w.pid = await asyncio.wrap_future(w.warm)
            job = asyncio.wrap_future(w.executor.submit(in_worker, fn, *args))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.seconds
            limit = self.megabytes * 1024 * 1024
            while True:
                done, _ = await asyncio.wait({job}, timeout=POLL)
                if done:
                    answer = job.result()
                    break
                if _resident(w.pid) > limit:
                    replace = True
                    raise over_budget(f"the ruling used more than {self.megabytes:,} MB of memory")
                if loop.time() > deadline:
                    replace = True
                    raise over_budget(f"the ruling took more than {self.seconds:g} s")
            if answer[0] == "ok":
                return answer[1]
            _, exit_code, payload, status, abandoned = answer
            replace = abandoned         # (a grounding past the engine's limit still runs in it)
            raise Refusal(exit_code, payload, status=status)
        except Exception as e:
            from concurrent.futures.process import BrokenProcessPool
            if not isinstance(e, BrokenProcessPool):
                raise
            replace = True
            raise over_budget("the worker ruling it stopped") from None
        except asyncio.CancelledError:
            replace = True          # (the client left: its ruling is not left running unwatched)
            raise
        finally:
            if replace:
                if job is not None:         # (its end, a broken pool, is not left unread)
                    job.add_done_callback(lambda f: f.cancelled() or f.exception())
                w = self._replace(w)
            self.idle.put_nowait(w)
