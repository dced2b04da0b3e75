"""`adjudicator serve` refuses an address it cannot listen on: exit 2, the reason, the fix."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys

EXE = os.path.join(os.path.dirname(sys.executable), "adjudicator")


def test_a_port_in_use_is_refused_with_a_hint():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = subprocess.run([EXE, "serve", "--port", str(port)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in r.stderr
    assert "hint: choose another --port" in r.stderr
    assert "Traceback" not in r.stderr


def test_an_unknown_host_and_a_bad_port_are_refused():
    r = subprocess.run([EXE, "serve", "--host", "no-such-host.invalid", "--port", "8123"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "cannot listen on no-such-host.invalid:8123" in r.stderr
    assert "hint: give --host an address of this machine" in r.stderr
    r = subprocess.run([EXE, "serve", "--port", "70000"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "70000" in r.stderr


def test_the_browser_tests_fail_saying_how_to_install_chromium_when_it_is_missing(tmp_path):
    """Never skipped silently: without the browser they fail, and say how to get it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "ADJUDICATOR_CHROMIUM": str(tmp_path / "no-chromium")}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                        "tests/e2e/test_browser.py", "-k", "mistake_is_shown"], cwd=root, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stdout
    assert "apt-get install -y chromium" in r.stdout
    assert "ERROR tests/e2e/test_browser.py::test_a_mistake_is_shown_with_its_line_and_fix" in r.stdout
    assert r.stdout.startswith("E ") and not re.search(r"\d+ skipped|^SKIPPED", r.stdout, re.M)
