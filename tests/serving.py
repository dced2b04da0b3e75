"""`adjudicator serve` started for a test, on a free port, and stopped: one way for the browser
tests (tests/e2e) and the server's own tests (test_web_serve.py)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(env: dict, timeout: float = 30, args: tuple = ()) -> tuple[subprocess.Popen, str, str]:
    """The server (`args`: more options of `serve`), its address and the line it said on starting;
    it fails the test if it does not answer within `timeout` seconds."""
    import pytest
    port = free_port()
    exe = shutil.which("adjudicator", path=os.path.dirname(sys.executable)) or "adjudicator"
    proc = subprocess.Popen([exe, "serve", "--port", str(port), *args], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    said = proc.stdout.readline()
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(base + "/static/style.css", timeout=2).read()
            return proc, base, said
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"`adjudicator serve` did not start: {said}{proc.stdout.read()}")
            time.sleep(0.1)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    proc.stdout.close()
