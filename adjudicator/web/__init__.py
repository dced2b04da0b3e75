"""`adjudicator serve`: the referee's web page and its JSON API (docs/web.md)."""
from __future__ import annotations


def create_app():
    from .app import create_app as make
    return make()


def serve(host: str = "127.0.0.1", port: int = 8000, echo=print) -> None:
    """Serve the page with uvicorn until interrupted; say where first."""
    import socket

    import uvicorn
    # the address is tried first, so a port in use or an unknown host is said plainly (OSError)
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(infos[0][4])
    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning",
                            limit_concurrency=64, timeout_keep_alive=5, server_header=False)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    where = "  (every address of this machine)" if host in ("0.0.0.0", "::") else ""
    echo(f"Serving the referee's page at http://{shown}:{port}/{where}  (Ctrl-C stops it)")
    server.run()
