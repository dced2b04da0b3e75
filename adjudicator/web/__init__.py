"""`adjudicator serve`: the referee's web page and its JSON API (docs/web.md)."""
from __future__ import annotations


def create_app(pool=None):
    from adjudicator.web.app import create_app as make
    return make(pool)


# A request must come whole (its head and its body) within this many seconds of the connection, or
# of the answer to the one before: a client that sends a part and waits (a "slow loris") is answered
# 408 and closed, and cannot hold a place for ever. It covers a ruling's own time limit (10 s) with
# room to spare. ADJUDICATOR_REQUEST_SECONDS changes it.
REQUEST_SECONDS = 30.0
REQUEST_SECONDS_VARIABLE = "ADJUDICATOR_REQUEST_SECONDS"
# Connections open at once: far more than a club's referees. At the limit, a new connection takes
# the place of the oldest one that has not sent a whole request (idle, or half sent), which is
# answered 503 in JSON and closed; only when every connection is a request being answered is the
# new one answered 503 (in JSON, as every error). So idle and half-open connections, however many,
# never shut out a client that sends its request. ADJUDICATOR_CONNECTIONS changes it.
CONNECTIONS = 512
# Stopped (Ctrl-C, SIGTERM), the server answers the requests under way for this long, then stops
# the rest and its workers.
SHUTDOWN_SECONDS = 3
CONNECTIONS_VARIABLE = "ADJUDICATOR_CONNECTIONS"


def request_seconds() -> float:
    """The seconds a request has to arrive whole: ADJUDICATOR_REQUEST_SECONDS, a number above 0 and
    at most a day, else REQUEST_SECONDS. Anything else set there is refused (UsageError, exit 2)
    before the server listens: -1 had every request answered 408 at once, and `abc`, `nan` or `inf`
    left the slow-client guard silently at its default or off."""
    import os

    from adjudicator.core.limits import seconds_setting      # (as the ruling's time limit is read)
    raw = os.environ.get(REQUEST_SECONDS_VARIABLE)
    if raw is None:
        return REQUEST_SECONDS
    seconds = seconds_setting(raw)
    if seconds is not None:
        return seconds
    from adjudicator.errors import UsageError
    from adjudicator.core.values import shown
    raise UsageError(f"{REQUEST_SECONDS_VARIABLE} is '{shown(raw)}', which is not a number of seconds",
                     hint="set it to a number of seconds above 0 and at most 86400 (e.g. 30), or unset it")


def check_settings() -> None:
    """The settings the server reads, refused before it listens (exit 2, saying what was set) rather
    than each request answered 400 or 408 for the server's own setting."""
    from adjudicator import api
    from adjudicator.web import workers
    request_seconds()
    connections()
    workers.memory_mb()
    api.check_settings()            # (ADJUDICATOR_TIME_LIMIT is a time limit)


def connections() -> int:
    """ADJUDICATOR_CONNECTIONS (a whole number from 2 to 100000) or CONNECTIONS; anything else is
    refused (UsageError, exit 2) before the server listens."""
    import os
    raw = os.environ.get(CONNECTIONS_VARIABLE)
    if raw is None:
        return CONNECTIONS
    if raw.strip().isascii() and raw.strip().isdigit() and 2 <= int(raw) <= 100_000:
        return int(raw)
    from adjudicator.core.values import shown
    from adjudicator.errors import UsageError
    raise UsageError(f"{CONNECTIONS_VARIABLE} is '{shown(raw)}', which is not a number of connections",
                     hint="set it to a whole number from 2 to 100000 (e.g. 512), or unset it")


def _protocol():
    """uvicorn's HTTP/1.1 protocol (h11) with a limit on the time a request takes to arrive: uvicorn
    times out an idle kept-alive connection, but not one whose request never ends."""
    import json

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
    seconds = request_seconds()
    body = json.dumps({"error": {"message": f"the request did not arrive whole within {seconds:g} seconds",
                                 "exit_code": 2, "hint": "send the whole request at once"}}).encode()
    answer = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
              b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    limit = connections()
    full_body = json.dumps({"error": {"message": f"the server has all its {limit} connections in use",
                                      "exit_code": 1, "hint": "try again in a few seconds"}}).encode()
    full = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(full_body)).encode() + b"\r\n\r\n" + full_body)
    waiting: dict = {}          # the connections that have not sent a whole request, oldest first

    class Protocol(H11Protocol):
        _arrival = None

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            # uvicorn's own limit answers 503 in plain text: the limit is kept here instead
            self.limit_concurrency = None
            app, tasks = self.app, self.tasks

            async def limited(scope, receive, send):
                if len(tasks) > limit:          # (every connection a request being answered)
                    for message in ({"type": "http.response.start", "status": 503,
                                     "headers": [(b"content-type", b"application/json"), (b"connection", b"close")]},
                                    {"type": "http.response.body", "body": full_body}):
                        await send(message)
                    return
                await app(scope, receive, send)
            self.app = limited

        def _arm(self) -> None:
            self._disarm()
            self._arrival = self.loop.call_later(seconds, self._too_slow)
            waiting[self] = None

        def _disarm(self) -> None:
            waiting.pop(self, None)
            if self._arrival is not None:
                self._arrival.cancel()
                self._arrival = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > limit:
                # the oldest connection with no whole request gives its place (503, JSON); none:
                # this one is refused so
                oldest = next((p for p in waiting if p is not self and not p.transport.is_closing()), None)
                (oldest or self)._refuse(full)
                if oldest is None:
                    return
            self._arm()

        _refused = False

        def _refuse(self, said: bytes) -> None:
            """Answer `said` and end the connection. Its sending side is shut first and what the
            client still sends is read and dropped until it closes (or for 2 s): closed with bytes
            unread, the connection is reset, and a client that had not yet read the answer lost it."""
            self._disarm()
            if self.transport.is_closing() or self._refused:
                return
            self._refused = True
            if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
                self.transport.write(said)
            if self.transport.can_write_eof():
                self.transport.write_eof()
                self.loop.call_later(2.0, self.transport.close)
            else:                                           # pragma: no cover - TLS
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:               # (answered and ending: read and dropped)
                return
            super().data_received(data)
            if self.conn.their_state is h11.DONE:       # the request has arrived whole: it is answered
                self._disarm()                           # in its own time (a ruling's time limit)

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def send_400_response(self, msg: str) -> None:
            """A request HTTP itself cannot read (a Content-Length of -5 or abc, a broken head): the
            JSON error of every other refusal, not uvicorn's plain text."""
            said = json.dumps({"error": {"message": "the request is not valid HTTP (its head or its "
                                         "Content-Length cannot be read)", "exit_code": 2,
                                         "hint": "send a well-formed HTTP request"}}).encode()
            head = [(b"content-type", b"application/json"), (b"connection", b"close")]
            for event in (h11.Response(status_code=400, headers=head, reason=b"Bad Request"),
                          h11.Data(data=said), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

        def _too_slow(self) -> None:
            self._arrival = None
            self._refuse(answer)
    return Protocol


def serve(host: str = "127.0.0.1", port: int = 8000, echo=print, workers: int | None = None) -> None:
    """Serve the page with uvicorn until interrupted, its rulings in `workers` processes (None: as
    many as cores; web/workers.py); say where first."""
    import socket

    import uvicorn

    from adjudicator import api
    from adjudicator.web import workers as pool_of
    check_settings()
    # the address is tried first, so a port in use or an unknown host is said plainly (OSError)
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(infos[0][4])
    pool = pool_of.Pool(workers or pool_of.default_workers(), api.time_limit() * 1.5 + pool_of.GRACE,
                        pool_of.memory_mb())
    config = uvicorn.Config(create_app(pool), host=host, port=port, log_level="warning", http=_protocol(),
                            limit_concurrency=None, timeout_keep_alive=5, server_header=False,
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    # (said from the address listened on, not the words given: `--host 0`, `0.0` or `::0` are every
    # address too, and were announced as if they were one)
    import ipaddress
    everywhere = ipaddress.ip_address(infos[0][4][0].split("%")[0]).is_unspecified
    where = "  (every address of this machine)" if everywhere else ""
    echo(f"Serving the referee's page at http://{shown}:{port}/{where}  (Ctrl-C stops it)")
    server.run()
