"""Does the server serve every table? Rulings a second at 1, 4 and 16 clients, and a law lookup's
wait while a heavy ruling runs.

Starts `python -m adjudicator serve` (this interpreter, so PYTHONPATH may point at another
checkout: main's, to compare) on a free port, with `--workers N` when given, and measures over
HTTP with keep-alive connections, one thread a client:

1. ordinary rulings: each client sends bundled cases (a fixed sample, no facts unknown) one after
   the other for --seconds: rulings a second, the median (p50) and the 99th percentile (p99) of a
   ruling's time, at 1, 4 and 16 clients;
2. a heavy ruling beside a lookup: one client sends, again and again, an account with twelve facts
   not known (tests/fixtures/unknowns-too-many.yaml: seconds of weighing before its refusal), while
   another looks laws up (GET /api/law/CODE/N, laws looked up once before), one every 50 ms: the
   lookups' p50, p99 and slowest.

    python benchmarks/load_bench.py [--workers N] [--seconds S]
    PYTHONPATH=/path/to/main python benchmarks/load_bench.py      # main: one lock, no --workers

The clients run on the same machine as the server and take CPU from it (on 2 cores, a good
share): the figures are the server's floor, not its ceiling. benchmarks/README.md has the figures.
"""
from __future__ import annotations

import argparse
import glob
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = os.path.join(ROOT, "tests", "fixtures", "unknowns-too-many.yaml")
LAWS = [("american-1893", "24"), ("american-1893", "28"), ("american-1893", "30"), ("american-1893", "17"),
        ("english-1864", "58"), ("american-1893", "21")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cases(n: int) -> list[bytes]:
    """Every k-th bundled whist case with no facts unknown and no case of a ruling refused."""
    paths = [p for p in sorted(glob.glob(os.path.join(ROOT, "cases", "whist", "**", "*.yaml"), recursive=True))
             if "unknown" not in os.path.basename(p)]
    out = []
    for p in paths[:: max(1, len(paths) // n)]:
        data = open(p, "rb").read()
        if b"\nunknown:" not in data and b"\nexpected:\n  error" not in data:
            out.append(data)
    return out[:n]


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] * 1000 if xs else float("nan")


class Client:
    """One keep-alive connection (opened again after the server closes it)."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def ask(self, method: str, path: str, body: bytes | None = None) -> tuple[int, float]:
        t = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body)
                r = self.conn.getresponse()
                r.read()
                if r.getheader("connection", "").lower() == "close":
                    self.conn.close()
                return r.status, time.perf_counter() - t
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def rulings(port: int, cases: list[bytes], clients: int, seconds: float) -> dict:
    times: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def run(k: int):
        c = Client(port)
        i = k
        while time.monotonic() < stop:
            status, took = c.ask("POST", "/api/adjudicate", cases[i % len(cases)])
            i += clients
            with lock:
                times.append(took)
                statuses[status] = statuses.get(status, 0) + 1
    t0 = time.monotonic()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    return {"clients": clients, "rulings": len(times), "per_second": len(times) / elapsed,
            "p50": _pct(times, 50), "p99": _pct(times, 99), "statuses": statuses}


def lookups_beside_heavy(port: int, seconds: float) -> dict:
    heavy = open(HEAVY, "rb").read()
    c = Client(port)
    for code, n in LAWS:                  # looked up once before (a law's first lookup reads the cases)
        c.ask("GET", f"/api/law/{code}/{n}")
    done = threading.Event()
    heavies: list[tuple[int, float]] = []

    def heavy_client():
        h = Client(port)
        while not done.is_set():
            heavies.append(h.ask("POST", "/api/adjudicate", heavy))
    t = threading.Thread(target=heavy_client)
    t.start()
    time.sleep(0.5)                        # (the heavy ruling under way)
    waits, statuses = [], {}
    stop = time.monotonic() + seconds
    i = 0
    while time.monotonic() < stop:
        code, n = LAWS[i % len(LAWS)]
        status, took = c.ask("GET", f"/api/law/{code}/{n}")
        statuses[status] = statuses.get(status, 0) + 1
        waits.append(took)
        i += 1
        time.sleep(0.05)
    done.set()
    t.join()
    return {"lookups": len(waits), "p50": _pct(waits, 50), "p99": _pct(waits, 99), "max": max(waits) * 1000,
            "statuses": statuses, "heavy_rulings": len(heavies),
            "heavy_seconds": statistics.median(h[1] for h in heavies) if heavies else float("nan"),
            "heavy_statuses": sorted({h[0] for h in heavies})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=None, help="`serve --workers N` (left out: the server's default)")
    ap.add_argument("--seconds", type=float, default=8.0, help="how long each measure runs")
    ap.add_argument("--cases", type=int, default=40, help="how many bundled cases the clients send")
    args = ap.parse_args()
    port = _free_port()
    command = [sys.executable, "-m", "adjudicator", "serve", "--port", str(port)]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    env = {**os.environ, "ADJUDICATOR_DATA_DIR": tempfile.mkdtemp(prefix="load-bench-")}
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        print(server.stdout.readline().rstrip())
        deadline = time.monotonic() + 60
        while True:
            try:
                Client(port).ask("GET", "/api/codes")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit("the server did not start")
                time.sleep(0.2)
        cases = _cases(args.cases)
        warm = Client(port)
        for data in cases:                 # every worker (or the one process) past its first rulings
            warm.ask("POST", "/api/adjudicate", data)
        rulings(port, cases, 4, 2.0)
        import adjudicator
        print(f"adjudicator from {os.path.dirname(adjudicator.__file__)}; workers: "
              f"{args.workers if args.workers is not None else 'default'}; {len(cases)} cases; "
              f"{args.seconds:g} s each; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
        for n in (1, 4, 16):
            r = rulings(port, cases, n, args.seconds)
            print(f"  {n:2} clients: {r['per_second']:6.1f} rulings/s   p50 {r['p50']:7.1f} ms   "
                  f"p99 {r['p99']:7.1f} ms   ({r['rulings']} rulings, status {r['statuses']})")
        r = lookups_beside_heavy(port, args.seconds)
        print(f"  law lookup while a heavy ruling runs: p50 {r['p50']:.1f} ms   p99 {r['p99']:.1f} ms   "
              f"max {r['max']:.1f} ms   ({r['lookups']} lookups, status {r['statuses']}; "
              f"{r['heavy_rulings']} heavy rulings of {r['heavy_seconds']:.1f} s median, status {r['heavy_statuses']})")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
