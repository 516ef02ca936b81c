"""A local HTTP server that plays the BOE's open-data API from a script: for each path,
the answers to give in order (the last one again after that). No test touches the
network: the fetcher is pointed at ``server.base_url``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Answer", "Script", "serve"]


@dataclass(frozen=True)
class Answer:
    """One answer: status, body, headers, and seconds to wait before answering."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0


@dataclass
class Script:
    """The answers per path (``/BOE-A-2004-99999/texto``) and the requests received."""

    answers: dict[str, list[Answer]]
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    base_url: str = ""

    def next_answer(self, path: str) -> Answer:
        queue = self.answers.get(path)
        if not queue:
            return Answer(404, b"not found")
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            script.requests.append((self.path, dict(self.headers.items())))
            answer = script.next_answer(self.path)
            time.sleep(answer.delay)
            self.send_response(answer.status)
            for name, value in answer.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
                self.wfile.write(answer.body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the tests read ``script.requests``."""

    return Handler


@contextmanager
def serve(answers: dict[str, list[Answer]]) -> Iterator[Script]:
    """A server on a free local port playing ``answers``; ``script.base_url`` is the
    API's address to give the fetcher (ends with ``/``)."""
    script = Script({path: list(queue) for path, queue in answers.items()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    script.base_url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield script
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
