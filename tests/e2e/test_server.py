"""`adjudicator serve` under a few tables at once: each gets its own ruling, the command's."""
from __future__ import annotations

import glob
import json
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from click.testing import CliRunner

from adjudicator.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# eight of the whist cases that are ruled (a case that expects its account refused answers 400)
CASES = [p for p in sorted(glob.glob(os.path.join(ROOT, "cases", "whist", "**", "*.yaml"), recursive=True))
         if "error: inconsistent" not in open(p, encoding="utf-8").read()][::25][:8]


def post(url: str, data: bytes) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=data, method="POST", headers={"content-type": "application/yaml"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_several_tables_at_once_each_get_their_own_ruling(server):
    assert len(CASES) == 8
    bodies = [open(p, "rb").read() for p in CASES]
    expected = [json.loads(CliRunner().invoke(main, ["adjudicate", "-", "--json"], input=b).stdout) for b in bodies]
    work = [i % len(bodies) for i in range(24)]          # eight tables, three incidents each, at once
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda i: post(server["url"] + "/api/adjudicate", bodies[i]), work))
    for i, (status, data) in zip(work, got):
        assert status == 200, data
        assert data == expected[i], CASES[i]
    # and the page still answers afterwards
    with urllib.request.urlopen(server["url"] + "/", timeout=10) as r:
        assert r.status == 200
