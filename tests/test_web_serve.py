"""`adjudicator serve` refuses an address it cannot listen on: exit 2, the reason, the fix."""
from __future__ import annotations

import os
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
