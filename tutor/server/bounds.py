"""What one page, or one device, can make the lesson server hold: websockets, messages, kernel memory, file
descriptors (issue 39).

- Kernel websockets (``/api/kernels/<id>/channels``, ``BoundedChannels``): only to a kernel this device's pages were
  given (``ClassMode.client_of``), at most ``CHANNELS_PER_KERNEL`` live per kernel (a new one closes the oldest),
  at most ``channels_per_device`` per device (8 in class mode), messages of at most ``PAGE_MESSAGE_MAX_BYTES``.
- What a page may send on it (``LessonChannels``): the message types Voila allows, and no comm but the widget
  manager's control comm (``PAGE_COMM_TARGETS``): a page cannot make the kernel build widgets the lesson never
  made. Refused messages are dropped with one log line per connection and reason (and a count when it closes).
- The preheated page's query websocket (``/voila/query/<id>``, ``BoundedRequestInfo``): the same owner check, one
  per kernel.
- Each lesson kernel's memory (``KERNEL_DATA_LIMIT_MIB``, applied by ``tutor.server.kernel_launcher``), and the
  server's own open-file limit raised to the hard limit at start (``raise_open_file_limit``).

A device is the address its requests come from (``device_of``), as class mode's places count them.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from . import voila_adapter as voila

CHANNELS_PER_KERNEL = 2
"""Live kernel websockets per kernel: its page's, and a reload's that has not yet replaced it."""
CHANNELS_PER_DEVICE_ALONE = 64
"""Without a class limit (one learner's own server), kernel websockets (live or opening) per device: nine lessons
opened at once in tabs, each with a reload in flight, and room to spare. In class mode it is
``CHANNELS_PER_KERNEL`` times the pages a device may run (``ClassMode.pages_per_client``: 4, so 8)."""
PAGE_MESSAGE_MAX_BYTES = 64 * 1024
"""The largest message a page may send on a kernel's websocket (Tornado's default is 10 MiB). Measured in the
browser tests that play Flamme Rouge and Flanders lessons (test_fr_card_clicks, test_flanders: 165 messages):
a page sends widget events (comm_msg) of at most 375 bytes, a comm_open for the widget manager, kernel info
requests. Images go the other way, from the kernel to the page, and are not bounded by this."""
PAGE_MESSAGE_TYPES = frozenset(
    {"comm_open", "comm_close", "comm_msg", "comm_info_request", "kernel_info_request", "shutdown_request"}
)
"""What a lesson page may send its kernel: Voila's ``allowed_message_types`` (its widgets' comms, the kernel's info,
and a page stopping its own kernel)."""
PAGE_COMM_TARGETS = frozenset({"jupyter.widget.control"})
"""The comms a page may open: the widget manager's, which asks the kernel for the widgets' state. The lesson's
widgets are opened by the kernel; a page opening ``jupyter.widget`` comms would make the kernel build widgets
(and keep their state) that the lesson never made."""
KERNEL_DATA_LIMIT_MIB = 640
"""Each lesson kernel's limit on data memory (``RLIMIT_DATA``: heap and private writable mappings), measured: a
kernel that has run a Flamme Rouge or Flanders lesson holds about 92 MiB resident and 250 MiB of data mappings
(glibc reserves an arena per thread; 14 threads), 960 MiB of address space (so ``RLIMIT_AS`` would need more
than 1 GiB and say little). 640 MiB leaves a played lesson two and a half times its start and stops a page that
fills its kernel at about 400 MiB resident. A kernel that reaches it fails its allocation (``MemoryError``) or
dies; its page shows "This lesson has stopped" with Reload."""


def device_of(handler: Any) -> str:
    """The device a request comes from: its source address (as class mode's pages per device count it)."""
    return str(handler.request.remote_ip or "?")


class Said:
    """Log lines about refusals, at most one a minute per ``key`` (the others counted and told with the next)."""

    def __init__(
        self,
        say: Callable[[str], None],
        every_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 1000,
    ) -> None:
        self.say, self.every_s, self.clock, self.max_keys = say, every_s, clock, max_keys
        self._last: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def __call__(self, key: str, line: str) -> None:
        now = self.clock()
        at, unsaid = self._last.pop(key, (-1e18, 0))
        if now - at >= self.every_s:
            more = f" ({unsaid} more like it in the last minute)" if unsaid else ""
            self.say(line + more)
            self._last[key] = (now, 0)
        else:
            self._last[key] = (at, unsaid + 1)
        while len(self._last) > self.max_keys:
            self._last.popitem(last=False)


class Channels:
    """The kernel websockets live or opening on the server: per kernel the ones in use, in the order they came;
    per device every one not yet ended (one replaced but still in its handshake counts until it ends)."""

    def __init__(self, per_kernel: int = CHANNELS_PER_KERNEL) -> None:
        self.per_kernel = per_kernel
        self.of_kernel: dict[str, list[Any]] = {}
        self.device_of: dict[Any, str] = {}
        self.of_device: dict[str, int] = {}

    def refusal(self, device: str, per_device: int) -> str | None:
        """Why a new websocket from ``device`` is refused when a device may have ``per_device`` (None: it may)."""
        if self.of_device.get(device, 0) >= per_device:
            return f"this device has {per_device} lesson connections open"
        return None

    def add(self, kernel_id: str, device: str, handler: Any) -> list[Any]:
        """Count ``handler``; returns the kernel's older websockets beyond ``per_kernel``, which it replaces (no
        longer the kernel's, still the device's until they end)."""
        handlers = self.of_kernel.setdefault(kernel_id, [])
        handlers.append(handler)
        self.device_of[handler] = device
        self.of_device[device] = self.of_device.get(device, 0) + 1
        replaced = handlers[: -self.per_kernel]
        del handlers[: -self.per_kernel]
        return replaced

    def remove(self, kernel_id: str, handler: Any) -> None:
        """``handler`` has ended."""
        handlers = self.of_kernel.get(kernel_id, [])
        if handler in handlers:
            handlers.remove(handler)
        if not handlers:
            self.of_kernel.pop(kernel_id, None)
        device = self.device_of.pop(handler, None)
        if device is not None:
            self.of_device[device] -= 1
            if not self.of_device[device]:
                del self.of_device[device]

    def live(self, device: str | None = None) -> int:
        """Websockets not yet ended (of ``device``, or all)."""
        return len(self.device_of) if device is None else self.of_device.get(device, 0)


def _owner_refusal(handler: Any, kernel_id: str) -> tuple[int, str] | None:
    """(status, why) when ``handler``'s device may not connect to ``kernel_id``: no such kernel (404), or a kernel
    whose page was sent to another device, or to no page (403)."""
    class_mode = handler.settings.get("rules_tutor_class")
    manager = handler.settings["kernel_manager"]
    if kernel_id not in manager.list_kernel_ids():
        return 404, "no such lesson kernel"
    if class_mode is not None and class_mode.client_of.get(kernel_id) != device_of(handler):
        return 403, "not a kernel of this device's pages"
    return None


def channels_per_device(handler: Any) -> int:
    """How many kernel websockets one device may have live or opening (see ``CHANNELS_PER_DEVICE_ALONE``)."""
    class_mode = handler.settings.get("rules_tutor_class")
    if class_mode is not None and class_mode.max_kernels and class_mode.pages_per_client:
        return CHANNELS_PER_KERNEL * int(class_mode.pages_per_client)
    return CHANNELS_PER_DEVICE_ALONE


def _is_websocket_request(handler: Any) -> bool:
    return str(handler.request.headers.get("Upgrade", "")).lower() == "websocket"


def bounded_channels_class(log: Callable[[str], None]) -> type:
    """Voila's kernel websocket handler with the bounds above (``Channels`` kept in the class)."""
    said = Said(log)
    channels = Channels()

    class BoundedChannels(voila.kernel_channels_handler()):  # type: ignore[misc]
        bounds = channels
        refusals = said
        tutor_kernel_id: str | None = None
        tutor_replaced = False
        tutor_opened = False

        @property
        def max_message_size(self) -> int:
            return PAGE_MESSAGE_MAX_BYTES

        async def get(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
            device = device_of(self)
            if not _is_websocket_request(self):
                return self._refuse(400, "not a websocket request")
            refused = _owner_refusal(self, kernel_id)
            if refused is None and (why := channels.refusal(device, channels_per_device(self))) is not None:
                refused = (429, why)
            if refused is not None:
                said(f"channels {refused[0]} {device}", f"Refused a lesson connection from {device}: {refused[1]}")
                return self._refuse(*refused)
            self.tutor_kernel_id = kernel_id
            for older in channels.add(kernel_id, device, self):
                older.tutor_replace()
            try:
                await super().get(kernel_id, *args, **kwargs)
            except Exception as error:  # noqa: BLE001 - a kernel gone, or no file left: one line, no traceback
                said(
                    f"channels error {device}",
                    f"A lesson connection from {device} failed: {type(error).__name__}: {error}",
                )
                if not self.tutor_opened:
                    try:
                        self._refuse(503, "the lesson's kernel cannot be reached")
                    except Exception:  # noqa: BLE001 - the reply had begun
                        pass
            finally:
                channels.remove(kernel_id, self)

        async def open(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
            self.tutor_opened = True
            await super().open(kernel_id, *args, **kwargs)
            if self.tutor_replaced:
                self.close(4000, "replaced by a newer connection")

        def tutor_replace(self) -> None:
            """A newer websocket to the same kernel takes this one's place: it closes (once open, if opening)."""
            self.tutor_replaced = True
            if self.tutor_opened:
                self.close(4000, "replaced by a newer connection")

        def _refuse(self, status: int, why: str) -> None:
            self.clear()
            self.set_status(status)
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.finish(f"{status}: {why}\n")

        def on_message(self, message: str | bytes) -> Any:
            if getattr(self, "connection", None) is None:
                return None
            return super().on_message(message)

        def on_close(self) -> None:
            if self.tutor_kernel_id is not None:
                channels.remove(self.tutor_kernel_id, self)
            if getattr(self, "connection", None) is not None:
                super().on_close()

        def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
            said(
                f"channels exception {device_of(self)}",
                f"A lesson connection from {device_of(self)}: {typ.__name__}: {value}",
            )

    return BoundedChannels


def lesson_channels_class(log: Callable[[str], None]) -> type:
    """``jupyter_server``'s kernel websocket connection refusing what a lesson page never sends (see
    ``PAGE_MESSAGE_TYPES``, ``PAGE_COMM_TARGETS``): one line per connection and reason, a count when it closes."""
    said = Said(log)

    class LessonChannels(voila.channels_connection_class()):  # type: ignore[misc]
        refused_count = 0

        def handle_incoming_message(self, incoming_msg: Any) -> None:
            try:
                channel, header, content = voila.page_message(self, incoming_msg)
                why = _message_refusal(channel, header, content)
            except ValueError as error:
                why = str(error)
            if why is None:
                try:
                    super().handle_incoming_message(incoming_msg)
                except Exception as error:  # noqa: BLE001 - a message the server could not pass on
                    why = f"not passed on ({type(error).__name__})"
            if why is not None:
                self.refused_count += 1
                if self.refused_count == 1:
                    said(
                        f"message {self.kernel_id} {why}",
                        f"Refused a message from the page of kernel {self.kernel_id}: {why} (the next ones on this "
                        "connection are counted)",
                    )

        def disconnect(self) -> None:
            if self.refused_count > 1:
                log(
                    f"The page of kernel {self.kernel_id} sent {self.refused_count} refused messages before it "
                    "disconnected"
                )
                self.refused_count = 0
            super().disconnect()

    return LessonChannels


def _message_refusal(channel: str, header: dict[str, Any], content: dict[str, Any]) -> str | None:
    msg_type = header.get("msg_type")
    if channel not in ("shell", "control"):
        return f"channel {channel[:40]!r}"
    if msg_type not in PAGE_MESSAGE_TYPES:
        return f"message type {str(msg_type)[:40]!r}"
    if msg_type == "comm_open" and content.get("target_name") not in PAGE_COMM_TARGETS:
        return f"a comm the lesson did not open ({str(content.get('target_name'))[:40]!r})"
    return None


def bounded_request_info_class(log: Callable[[str], None]) -> type:
    """Voila's query websocket (``/voila/query/<kernel id>``) for this device's kernels only, one per kernel (a new
    one closes the older), at most ``PAGE_MESSAGE_MAX_BYTES`` a message (a page sends it none)."""
    said = Said(log)
    base = voila.request_info_handler()
    open_ones: dict[str, Any] = {}

    class BoundedRequestInfo(base):  # type: ignore[misc, valid-type]
        tutor_kernel_id: str | None = None

        @property
        def max_message_size(self) -> int:
            return 4096

        async def get(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
            refused = _owner_refusal(self, kernel_id) or (
                None if _is_websocket_request(self) else (400, "not a websocket request")
            )
            if refused is not None:
                said(
                    f"query {refused[0]} {device_of(self)}",
                    f"Refused a lesson query connection from {device_of(self)}: {refused[1]}",
                )
                self.set_status(refused[0])
                self.set_header("Content-Type", "text/plain; charset=UTF-8")
                self.finish(f"{refused[0]}: {refused[1]}\n")
                return
            older = open_ones.get(kernel_id)
            open_ones[kernel_id] = self
            self.tutor_kernel_id = kernel_id
            if older is not None and older.ws_connection is not None:
                older.close(4000, "replaced by a newer connection")
            await super().get(kernel_id, *args, **kwargs)

        def on_message(self, message: Any) -> None:
            return None

        def on_close(self) -> None:
            if self.tutor_kernel_id is not None and open_ones.get(self.tutor_kernel_id) is self:
                del open_ones[self.tutor_kernel_id]
                waiters = getattr(base, "_waiters", {})
                if waiters.get(self.tutor_kernel_id) is self:
                    del waiters[self.tutor_kernel_id]

        def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
            said(
                f"query exception {device_of(self)}",
                f"A lesson query connection from {device_of(self)}: {typ.__name__}: {value}",
            )

    return BoundedRequestInfo


def raise_open_file_limit() -> tuple[int, int] | None:
    """Raise this process's soft limit on open files to its hard limit (a desktop's soft 1024 is about 110 kernel
    websockets); returns the (soft, hard) limits now, None where there are no such limits."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def quiet_closed_websocket_writes(loop: Any, log: Callable[[str], None]) -> None:
    """A page that goes while its kernel still talks to it: Tornado's write to the closed websocket fails in a task
    nobody awaits, and asyncio prints a traceback for each ("Task exception was never retrieved"). On ``loop``,
    those are counted instead (one line through ``log`` at most once a minute); any other error is reported as
    before."""
    from tornado.iostream import StreamClosedError
    from tornado.websocket import WebSocketClosedError

    previous = loop.get_exception_handler()
    said = Said(log)

    def handler(loop: Any, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
            said("closed", "A message to a page that had gone was dropped")
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
