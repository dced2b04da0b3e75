"""`adjudicator serve` refuses an address it cannot listen on: exit 2, the reason, the fix."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys

import pytest

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


def _read_all(s: socket.socket) -> bytes:
    got = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return got
        got += chunk


def test_slow_and_broken_clients_get_a_json_error_and_cannot_shut_others_out(tmp_path):
    """A hundred clients sending part of a request and waiting locked everyone else out (503,
    text/plain) for as long as they waited; a Content-Length of -5 got uvicorn's plain text."""
    import json
    import time
    import urllib.request
    from tests import serving
    proc, base, _ = serving.start({"ADJUDICATOR_REQUEST_SECONDS": "2", "ADJUDICATOR_DATA_DIR": str(tmp_path)})
    port = int(base.rsplit(":", 1)[1])
    slow: list[socket.socket] = []
    try:
        for _ in range(100):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /api/adjudicate HTTP/1.1\r\nHost: x\r\n")      # and nothing more
            slow.append(s)
        r = urllib.request.urlopen(base + "/api/codes", timeout=10)
        assert r.status == 200 and json.loads(r.read())
        slow[0].settimeout(10)
        said = _read_all(slow[0])
        head, _, body = said.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and b"application/json" in head
        assert "did not arrive whole within 2 seconds" in json.loads(body)["error"]["message"]
        with socket.create_connection(("127.0.0.1", port)) as bad:
            bad.sendall(b"POST /api/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n")
            bad.settimeout(10)
            head, _, body = _read_all(bad).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head
        assert json.loads(body)["error"]["exit_code"] == 2
    finally:
        for s in slow:
            s.close()
        serving.stop(proc)



@pytest.mark.parametrize("variable, value, says", [
    ("ADJUDICATOR_REQUEST_SECONDS", "-1", "ADJUDICATOR_REQUEST_SECONDS is '-1', which is not a number of seconds"),
    ("ADJUDICATOR_REQUEST_SECONDS", "abc", "ADJUDICATOR_REQUEST_SECONDS is 'abc', which is not a number of seconds"),
    ("ADJUDICATOR_REQUEST_SECONDS", "inf", "ADJUDICATOR_REQUEST_SECONDS is 'inf', which is not a number of seconds"),
    ("ADJUDICATOR_REQUEST_SECONDS", "nan", "ADJUDICATOR_REQUEST_SECONDS is 'nan', which is not a number of seconds"),
    ("ADJUDICATOR_REQUEST_SECONDS", "2\x1b[2J", "ADJUDICATOR_REQUEST_SECONDS is '2\\x1b[2J', which is not"),
    ("ADJUDICATOR_TIME_LIMIT", "abc", "ADJUDICATOR_TIME_LIMIT is 'abc', which is not a time limit"),
])
def test_a_setting_of_the_server_that_cannot_be_used_is_refused_before_it_listens(variable, value, says):
    """-1 seconds had the server answer every request 408 at once, `abc` (or nan, inf) left the
    slow-client guard at its default or off without a word, and a time limit that is not one had
    every ruling answered 400, as if each client's incident were at fault."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    try:        # (without the check the server starts and serves: it is stopped, and that is the failure)
        r = subprocess.run([EXE, "serve", "--port", str(port)], capture_output=True, text=True, timeout=20,
                           env={**os.environ, variable: value})
    except subprocess.TimeoutExpired:
        raise AssertionError(f"serve started with {variable}={value!r}") from None
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith(f"adjudicator: {says}"), r.stderr
    assert "hint: set it to a number of seconds above 0 and at most 86400" in r.stderr
    assert "Serving" not in r.stdout and "Traceback" not in r.stderr and "\x1b" not in r.stderr


@pytest.mark.parametrize("host, everywhere", [("0", True), ("0.0", True), ("0.0.0.0", True), ("127.0.0.1", False)])
def test_listening_on_every_address_is_said_however_the_host_is_written(host, everywhere):
    """`--host 0` listens on every address of the machine (0.0.0.0), as `--host 0.0.0.0` does, but
    was announced as if it were one address: the notice went by the words given."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    proc = subprocess.Popen([EXE, "serve", "--host", host, "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert first.startswith(f"Serving the referee's page at http://{host}:{port}/"), first
    assert ("(every address of this machine)" in first) == everywhere, first


def test_a_request_line_in_absolute_form_is_read_as_its_path(tmp_path):
    """`GET http://host:port/law/whist/24 HTTP/1.1`, which a server must accept (RFC 9112, 3.2.2),
    was answered 404 for every page: uvicorn's h11 took the whole URL for the path."""
    import json
    from tests import serving
    proc, base, _ = serving.start({"ADJUDICATOR_DATA_DIR": str(tmp_path)})
    port = int(base.rsplit(":", 1)[1])
    try:
        for target, status in ((f"{base}/api/law/whist/24", b"200"), (f"HTTP://127.0.0.1:{port}/api/codes?x=1", b"200"),
                               (f"{base}/api/law/whist/99", b"400"), (f"{base}/static/style.css", b"200"),
                               (f"{base}/no-such-page", b"404")):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                s.settimeout(10)
                head, _, body = _read_all(s).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 " + status), (target, head)
            if b"/api/law/whist/24" in target.encode():
                assert json.loads(body)["id"] == "24"
    finally:
        serving.stop(proc)
