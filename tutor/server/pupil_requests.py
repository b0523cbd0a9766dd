"""Whatever a pupil sends the lesson server, one short line and a 4xx, never a traceback (issue 39).

- ``refusal(path)``: a path that is not the canonical spelling of an address (a NUL, CR, LF or other control
  character; an empty, ``.`` or ``..`` segment, ``%2e%2e`` included) is refused before any handler sees it: 400
  for control characters, 404 for the others. So a lesson has one address, and Pace (class mode's lesson page handler)
  judges the lesson, not its spelling.
- ``quiet_handler(cls)``: Voila's and Jupyter Server's handlers with that check, a short plain-text error page
  (Jupyter Server's own renders a template that needs a ``static_path`` Voila does not set: a second traceback),
  and one log line for an error instead of a traceback.
- ``log_request``: Tornado's access log with ``token=`` values masked, and refused requests (4xx) said at most once
  a minute per device and kind, with a count.
- ``masked``: a text with its ``token=`` values replaced by ``[secret]``.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from typing import Any

from tornado import web

from .bounds import Said, device_of

_TOKEN = re.compile(r"((?:^|[?&;\s])(?:token|_xsrf)=)[^&;\s'\"]*", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def masked(text: str) -> str:
    """``text`` with the values of ``token=`` (the teacher's link) and ``_xsrf=`` replaced by ``[secret]``."""
    return _TOKEN.sub(r"\1[secret]", text)


def refusal(raw_path: str) -> tuple[int, str] | None:
    """(status, why) when the request path (as sent, percent-encoded) is refused; None when it is canonical."""
    try:
        path = urllib.parse.unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        return 400, "an address that is not UTF-8"
    if _CONTROL.search(path) or _CONTROL.search(raw_path):
        return 400, "a control character in the address"
    segments = path.split("/")[1:]
    inner = segments[:-1]  # the last may be empty: "/voila/tree/"
    if any(segment in ("", ".", "..") for segment in inner) or (segments and segments[-1] in (".", "..")):
        return 404, "not the address of a page (//, ./ or ../)"
    if "\\" in path:
        return 404, "not the address of a page (a backslash)"
    return None


_said = Said(lambda line: logging.getLogger("tornado.access").warning(line))


def _kind(path: str) -> str:
    """What a refused request asked for, for ``Said``'s key: its first two segments, kernel ids left out."""
    return "/".join(_UUID.sub("K", path).split("/")[:3])


def log_request(handler: Any) -> None:
    """Tornado's ``log_function``: one line per request as Tornado writes it, ``token=`` masked, and the refused
    ones (4xx) at most once a minute per device and kind of address, with a count of the others."""
    status = handler.get_status()
    request = handler.request
    summary = masked(f"{request.method} {request.uri} ({request.remote_ip})")
    line = f"{status} {summary} {1000.0 * request.request_time():.2f}ms"
    logger = logging.getLogger("tornado.access")
    if status < 400:
        logger.info(line)
    elif status < 500:
        _said(f"{status} {request.remote_ip} {_kind(request.path)}", line)
    else:
        logger.error(line)


def quiet_handler(base: type) -> type:
    """``base`` (a Tornado handler class) refusing non-canonical paths (``refusal``), writing errors as one short
    plain-text line, and logging an error as one line (no traceback)."""

    class QuietHandler(base):  # type: ignore[misc]
        def prepare(self) -> Any:
            refused = refusal(self.request.path)
            if refused is not None:
                raise web.HTTPError(refused[0], refused[1])
            return super().prepare()

        def write_error(self, status_code: int, **kwargs: Any) -> None:
            self.clear()
            self.set_status(status_code)
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(f"{status_code} {self._reason}\n")

        def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
            where = masked(f"{self.request.method} {self.request.path} ({device_of(self)})")
            if isinstance(value, web.HTTPError):
                if value.log_message:
                    try:
                        why = value.log_message % value.args
                    except (TypeError, ValueError):
                        why = value.log_message
                    _said(
                        f"{value.status_code} {device_of(self)} {_kind(self.request.path)} error",
                        f"{value.status_code} {where}: {masked(why)[:200]}",
                    )
                return
            _said(
                f"500 {device_of(self)} {_kind(self.request.path)} error",
                f"500 {where}: {typ.__name__}: {masked(str(value))[:200]}",
            )

    QuietHandler.__name__ = QuietHandler.__qualname__ = f"Quiet{base.__name__}"
    return QuietHandler


def quiet_routes(routes: list[Any]) -> list[Any]:
    """``routes`` (Voila's: pattern, handler class, arguments) with each handler made quiet (``quiet_handler``)."""
    result = []
    for route in routes:
        if len(route) > 1 and isinstance(route[1], type) and issubclass(route[1], web.RequestHandler):
            route = (route[0], quiet_handler(route[1]), *route[2:])
        result.append(route)
    return result
