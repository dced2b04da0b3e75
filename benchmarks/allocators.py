"""A warm ruling's time by clingo's allocator, in wall and CPU time (the CPU time stands where other
programs share the machine's cores): the package's loop of bench.py over the cases given, every
case ruled once to warm, then each three times, the median of each case's median.

    python benchmarks/allocators.py CASES_DIR
    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 python benchmarks/allocators.py CASES_DIR
    ADJUDICATOR_MALLOC=system python benchmarks/allocators.py CASES_DIR

Run each inside benchmarks/hide_system_allocators.sh (unshare -m) to measure as on a machine
without Debian's mimalloc and jemalloc. Also prints incidents a second one at a time, each new to the
process (half the cases ruled to warm it, the other half timed)."""
import glob
import os
import statistics
import sys
import time

import adjudicator  # noqa: F401 - first: clingo's allocator is chosen on import
from adjudicator.core import allocator, engine, incident, ruling
from adjudicator.errors import AdjudicatorError

allocator.settle_collector()
paths = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.yaml"), recursive=True))


def once(p):
    inc = incident.load(p)
    try:
        ruling.build(inc, engine.solve(inc))
    except AdjudicatorError:
        pass


for p in paths[0::2]:
    once(p)
t1 = time.perf_counter()
for p in paths[1::2]:
    once(p)
new_rate = len(paths[1::2]) / (time.perf_counter() - t1)
wall, cpu = [], []
for p in paths:
    w, c = [], []
    for _ in range(3):
        t, u = time.perf_counter(), time.process_time()
        once(p)
        w.append((time.perf_counter() - t) * 1000)
        c.append((time.process_time() - u) * 1000)
    wall.append(statistics.median(w))
    cpu.append(statistics.median(c))
lib = os.path.basename(getattr(allocator, "clingo_library", None) or "-")
print(f"{allocator.in_use()} for all, clingo's {allocator.clingo_allocator} ({lib}): warm median wall "
      f"{statistics.median(wall):.1f} ms, CPU {statistics.median(cpu):.1f} ms; one at a time, each new: "
      f"{new_rate:.0f}/s ({len(paths)} cases)")
