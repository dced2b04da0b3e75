"""How fast does the referee's page answer, alone and with several tables at once?

Starts `adjudicator serve` (the app under uvicorn, in this process's thread) on a free port and
measures over HTTP, as a browser or a club's other tables would meet it:

1. one ruling (POST /api/adjudicate) at a time, on a sample of bundled cases: the median and the
   slowest, against the same ruling in a warm process without the server;
2. eight tables at once: every case of the sample sent by eight clients together: rulings per
   second, the median and the slowest wait;
3. the pages a referee opens most: the form, a law, a search, a topic, a quiz question.

    python benchmarks/web_bench.py [--cases N]

Aims: a ruling's page within 50 ms of the ruling itself (the server adds little); with eight
tables at once every ruling still back within a second; a law, a search or a topic within 100 ms.

Measured 2026-11-23 on this 2-vCPU machine (branch web, editable install, `python
benchmarks/web_bench.py`, the machine shared with other test runs, load average 3-4, so figures
are up to 2x high):

    one at a time (40 cases): 37 ms median over HTTP, 68 ms slowest; the ruling alone 35 ms median
    eight tables at once: 80 rulings in 2.7 s (29.3 a second), 267 ms median wait, 539 ms slowest
    pages: form 1 ms, law 48 ms, search 7 ms, topic 1 ms, quiz question 169 ms
"""
from __future__ import annotations

import argparse
import glob
import os
import socket
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=40, help="how many bundled cases to send")
    args = ap.parse_args()
    import tempfile

    import uvicorn

    from adjudicator.core import engine, incident, ruling
    from adjudicator.web import create_app
    os.environ.setdefault("ADJUDICATOR_DATA_DIR", tempfile.mkdtemp(prefix="web-bench-"))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    while not server.started:
        time.sleep(0.05)

    cases = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))
    step = max(1, len(cases) // args.cases)
    sample = [open(p, "rb").read() for p in cases[::step][:args.cases]]

    def post(body: bytes) -> float:
        t = time.perf_counter()
        req = urllib.request.Request(base + "/api/adjudicate", data=body, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read()
        except urllib.error.HTTPError as e:      # a case that is refused on purpose: a fine answer
            e.read()
        return (time.perf_counter() - t) * 1000

    def warm(body: bytes) -> float:
        t = time.perf_counter()
        try:
            inc = incident.load("-", body)
            ruling.build(inc, engine.solve(inc))
        except Exception:  # noqa: BLE001 - refusals and conditional incidents: the time still counts
            pass
        return (time.perf_counter() - t) * 1000

    for body in sample:          # parse every rule file once, in the server and here
        post(body)
        warm(body)
    served = [post(b) for b in sample]
    direct = [warm(b) for b in sample]
    print(f"one at a time ({len(sample)} cases): {statistics.median(served):.0f} ms median over HTTP, "
          f"{max(served):.0f} ms slowest; the ruling alone {statistics.median(direct):.0f} ms median "
          f"(aim: within 50 ms of it)")
    work = sample * 2
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        waits = list(pool.map(post, work))
    elapsed = time.perf_counter() - t
    print(f"eight tables at once: {len(work)} rulings in {elapsed:.1f} s ({len(work) / elapsed:.1f} a second), "
          f"{statistics.median(waits):.0f} ms median wait, {max(waits):.0f} ms slowest (aim: under 1000 ms)")

    def get(path: str) -> float:
        t = time.perf_counter()
        with urllib.request.urlopen(base + path, timeout=60) as r:
            r.read()
        return (time.perf_counter() - t) * 1000
    rows = []
    for label, path in (("form", "/"), ("law", "/law/whist/24"), ("search", "/search?q=card+dropped+on+the+floor"),
                        ("topic", "/topic/revoke"), ("quiz question", "/quiz?seed=3")):
        get(path)
        rows.append(f"{label} {statistics.median([get(path) for _ in range(5)]):.0f} ms")
    print("pages: " + ", ".join(rows) + " (aim: a law, a search, a topic within 100 ms)")
    server.should_exit = True


if __name__ == "__main__":
    main()
