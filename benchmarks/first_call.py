"""A code's first call after an install, with the rules the wheel ships and without them (its
kept/ folder moved away, then back), each paired with the import floor of the same venv:

    python benchmarks/first_call.py VENV CASE [PAIRS]

VENV an install from the wheel (`python3 -m venv VENV && VENV/bin/pip install .`); an empty cache
folder for each call."""
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

venv, case = sys.argv[1], sys.argv[2]
pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
py, exe = os.path.join(venv, "bin", "python"), os.path.join(venv, "bin", "adjudicator")
kept = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "adjudicator", "kept"))[0]


def wall(cmd, env=None):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return (time.perf_counter() - t) * 1000


out = {"rules shipped": [], "none shipped": []}
for _ in range(pairs):
    for how in out:
        if how == "none shipped":
            os.rename(kept, kept + ".away")
        try:
            folder = tempfile.mkdtemp()
            floor = wall([py, "-c", "import clingo, yaml, click"])
            call = wall([exe, "adjudicate", "--json", case], env={**os.environ, "ADJUDICATOR_CACHE": folder})
            out[how].append((floor, call))
            shutil.rmtree(folder)
        finally:
            if how == "none shipped":
                os.rename(kept + ".away", kept)
for how, got in out.items():
    print(f"{how}: first call median {statistics.median(c for _, c in got):.0f} ms, floor "
          f"{statistics.median(f for f, _ in got):.0f} ms, pair by pair {statistics.median(c / f for f, c in got):.2f}x")
