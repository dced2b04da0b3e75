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


# --- many tables at once: rulings in worker processes (web/workers.py) ---------------------------

HEAVY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "unknowns-too-many.yaml")
CASE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases", "whist",
                    "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")


def _fetch(url: str, data: bytes | None = None, headers: dict | None = None):
    """(status, headers, body, seconds) of one request, an error status included."""
    import time
    import urllib.error
    import urllib.request
    t = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers or {}), timeout=60) as r:
            return r.status, r.headers, r.read(), time.monotonic() - t
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read(), time.monotonic() - t


@pytest.fixture(scope="module")
def workers_server(tmp_path_factory):
    """`serve --workers 2`, at most 16 connections, a ruling's time limit 3 s."""
    from tests import serving
    proc, base, _ = serving.start({"ADJUDICATOR_DATA_DIR": str(tmp_path_factory.mktemp("pool")),
                                   "ADJUDICATOR_CONNECTIONS": "16", "ADJUDICATOR_TIME_LIMIT": "3"},
                                  args=("--workers", "2"))
    yield base
    serving.stop(proc)


def test_a_heavy_ruling_holds_one_worker_and_lookups_and_rulings_do_not_wait(workers_server):
    """Twelve facts not known, weighed for seconds: under one lock every lookup and ruling waited
    for it (9-10 s). Now it holds one worker: a law, the codes and a search answer as if it were
    not there, and an ordinary ruling is made by the other worker."""
    import json
    import threading
    base = workers_server
    heavy_bytes = open(HEAVY, "rb").read()
    lookups = ("/api/law/whist/24", "/api/codes", "/api/search?q=revoke", "/law/whist/24")
    for url in lookups:         # (a law's first lookup reads the cases; the first search, the index)
        assert _fetch(base + url)[0] == 200
    assert _fetch(base + "/api/adjudicate", open(CASE, "rb").read())[0] == 200     # (a worker warm)
    heavy = threading.Thread(target=_fetch, args=(base + "/api/adjudicate", heavy_bytes), daemon=True)
    heavy.start()
    import time
    time.sleep(0.5)
    during = []
    for url in lookups:
        status, _, body, took = _fetch(base + url)
        assert status == 200, (url, body[:200])
        during.append(took)
    status, _, body, ruled_in = _fetch(base + "/api/adjudicate", open(CASE, "rb").read())
    assert status == 200 and json.loads(body)["rulings"]
    # (it weighs until the time limit, 3 s: still weighing, it held one worker all along)
    assert heavy.is_alive(), "the heavy ruling ended before the lookups were made: the test proves nothing"
    assert max(during) < 1.0 and ruled_in < 2.0, (during, ruled_in)


def test_idle_and_half_sent_connections_give_their_place_and_the_503_is_json(workers_server):
    """530 half-open connections from one client had uvicorn answer 503, in plain text, to everyone
    for up to 30 s. At the limit (16 here) the oldest connection that has sent no whole request is
    answered 503 in JSON and closed, and a client that sends its request is served."""
    import json
    port = int(workers_server.rsplit(":", 1)[1])
    half: list[socket.socket] = []
    try:
        for _ in range(24):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/codes HTTP/1.1\r\nHost: x\r\n")      # and nothing more
            half.append(s)
        status, _, body, _ = _fetch(workers_server + "/api/codes")
        assert status == 200 and json.loads(body)
        half[0].settimeout(10)
        head, _, body = _read_all(half[0]).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503") and b"application/json" in head, head
        err = json.loads(body)["error"]
        assert "all its 16 connections in use" in err["message"] and err["hint"] and err["exit_code"] == 1
    finally:
        for s in half:
            s.close()


def test_a_body_over_the_limit_is_read_and_answered_413(workers_server):
    """A body over the limit was answered and the connection closed while the client still sent:
    curl and urllib saw a reset, never the 413. It is now read (up to 8 MB) and dropped first."""
    import json
    port = int(workers_server.rsplit(":", 1)[1])
    size = 3_000_000
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(20)
        s.sendall(b"POST /api/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % size)
        for _ in range(size // 100_000):
            s.sendall(b"#" * 100_000)
        head, _, body = _read_all(s).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert "an incident is at most" in json.loads(body)["error"]["message"]


def test_a_worker_over_its_memory_budget_is_killed_and_replaced(tmp_path):
    """A ruling past ADJUDICATOR_MEMORY_LIMIT: its worker is killed (503, the JSON error) and a new
    one takes its place, so the next ruling is made."""
    import json
    from tests import serving
    proc, base, _ = serving.start({"ADJUDICATOR_DATA_DIR": str(tmp_path), "ADJUDICATOR_MEMORY_LIMIT": "75"},
                                  args=("--workers", "1"))
    try:
        status, headers, body, _ = _fetch(base + "/api/adjudicate", open(HEAVY, "rb").read())
        assert status == 503 and headers["content-type"] == "application/json", body[:300]
        err = json.loads(body)["error"]
        assert err["message"] == ("no ruling within the server's budget: the ruling used more than 75 MB of "
                                  "memory, and was stopped") and err["hint"]
        for _ in range(2):
            status, _, body, _ = _fetch(base + "/api/adjudicate", open(CASE, "rb").read())
            assert status == 200 and json.loads(body)["rulings"], body[:300]
    finally:
        serving.stop(proc)


def test_a_job_past_the_hard_deadline_has_its_worker_killed_and_replaced():
    """A grounding cannot be interrupted inside a process: past the pool's deadline the worker is
    killed (503) and replaced by a new process, which takes the next job."""
    import asyncio
    import time

    from adjudicator.web import workers
    from adjudicator.web.service import Refusal

    async def go():
        pool = workers.Pool(1, 0.5, 1024)
        pool.start()
        try:
            first = await pool.run(os.getpid)
            t = time.monotonic()
            with pytest.raises(Refusal) as refused:
                await pool.run(time.sleep, 30)
            assert time.monotonic() - t < 5
            assert refused.value.http_status == 503
            assert "the ruling took more than 0.5 s" in refused.value.payload["error"]["message"]
            second = await pool.run(os.getpid)
            return first, second, pool.replaced
        finally:
            pool.stop()
    first, second, replaced = asyncio.run(go())
    assert first != second and replaced == 1


@pytest.mark.parametrize("variable, value, says, hint", [
    ("ADJUDICATOR_MEMORY_LIMIT", "lots", "ADJUDICATOR_MEMORY_LIMIT is 'lots', which is not a number of megabytes",
     "a whole number of megabytes from 32 to 1000000"),
    ("ADJUDICATOR_MEMORY_LIMIT", "8", "ADJUDICATOR_MEMORY_LIMIT is '8', which is not a number of megabytes",
     "a whole number of megabytes from 32 to 1000000"),
    ("ADJUDICATOR_CONNECTIONS", "0", "ADJUDICATOR_CONNECTIONS is '0', which is not a number of connections",
     "a whole number from 2 to 100000"),
])
def test_the_workers_and_connections_settings_are_refused_before_the_server_listens(variable, value, says, hint):
    r = subprocess.run([EXE, "serve", "--port", "1"], capture_output=True, text=True, timeout=30,
                       env={**os.environ, variable: value})
    assert r.returncode == 2 and r.stderr.startswith(f"adjudicator: {says}"), r.stderr
    assert hint in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([EXE, "serve", "--workers", "0"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "--workers" in r.stderr and "Traceback" not in r.stderr
