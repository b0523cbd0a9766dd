"""The tutor's uses of Voila's private internals (written against Voila 0.5.13), one function each.

The one other tie to Voila's insides is class mode's subclass of Voila's application (``class_mode``'s
``classroom_voila_class``: its ``init_settings`` and ``init_handlers``, with the routes handed back here).

Class mode (``tutor.server.class_mode``) needs things Voila offers no API for: the preheated kernel pools, the
step that starts a pooled kernel and runs its lesson, the step that hands a pooled kernel to a page, the page handler's
route, the request a closing page sends; under a Jupyter server (hub, Binder: ``leaving_page_extension``),
Voila's own page handler, which must set the cookie that request needs. Each function below names the one internal
it relies on; tests/test_voila_adapter.py has one test per internal, named after it, so that a Voila upgrade that
changes one fails a test saying which (the closing page's own request is also checked in a real browser,
tests/browser/test_connection.py and, on the Binder route, tests/browser/test_binder.py). The pages without a board
(``tutor.server.text_pages``) need Voila's page rendering itself (``render_page_once``) and the arguments of its lesson
page route, in Voila and in its server extension. On every route, a lesson whose kernel fails before it runs
needs the generator Voila renders a page from (``end_lesson_pages_that_fail_to_start``).
"""

from __future__ import annotations

import asyncio
import os
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from jupyter_core.utils import ensure_async

VoilaKernelManager = Any
"""Voila's kernel manager (``voila.voila_kernel_manager``; Voila ships no type information)."""

PreparedKernel = dict[str, Any]
"""What Voila's ``_initialize`` returns for a pooled kernel: its id and the task running its lesson."""

Prepare = Callable[..., Awaitable[PreparedKernel]]
TakePooled = Callable[..., Awaitable[Any]]


def set_xsrf_cookie_for_the_unload_request(handler: Any) -> None:
    """Give the page the ``_xsrf`` cookie, which Voila's page sends back as a form field when it closes (its
    ``beforeunload`` beacon, POST ``/voila/api/shutdown/<kernel id>``, asks the server to shut its kernel down).

    Tornado sets the cookie when a handler first reads ``xsrf_token``; Voila's page handler never does, so
    without this the shutdown is refused (403, voila#1458) and a closed tab's kernel lives on until culled.
    Call it before the page's first byte is sent.
    """
    handler.xsrf_token  # noqa: B018 - read for its side effect: the Set-Cookie header


def set_xsrf_cookie_on_voila_lesson_pages() -> None:
    """Make Voila's own page handler (``TornadoVoilaHandler.get``, which a Jupyter server's ``/voila/render/``
    routes use) set the ``_xsrf`` cookie before it renders, as ``rules-tutor serve``'s handler does. Idempotent."""
    handler = lesson_page_handler()
    render = handler.get  # type: ignore[attr-defined]
    if getattr(render, "sets_xsrf_cookie", False):
        return

    async def get(self: Any, *args: Any, **kwargs: Any) -> Any:
        set_xsrf_cookie_for_the_unload_request(self)
        rendered = render(self, *args, **kwargs)  # tornado.web.authenticated returns the coroutine
        return await rendered if inspect.isawaitable(rendered) else rendered

    get.sets_xsrf_cookie = True  # type: ignore[attr-defined]
    handler.get = get  # type: ignore[attr-defined]


FAILED_LESSON_PAGE_END = "<script>window.tutorConnection && window.tutorConnection.couldNotStart();</script>\n"
"""What a lesson page whose kernel failed gets instead of the rest of the lesson: the template's connection.js
reloads the page once, then says "This lesson could not start" with a Reload button."""


def end_lesson_pages_that_fail_to_start() -> None:
    """Make a lesson page end with ``FAILED_LESSON_PAGE_END`` when its kernel dies or does not answer before the lesson
    runs (``NotebookRenderer.generate_content_generator``, for the renderers Voila's page handler makes: they have
    a ``request_handler``). Voila's handler runs that generator in a task whose error nobody reads
    (``VoilaHandler.get_generator``'s ``put_html``) and sends heartbeats for ever: the page would stay on
    "loading". The failed kernel is shut down. Pages rendered without a handler (``render_page_once``, the
    preheated pools) still see the error. Idempotent."""
    from voila.notebook_renderer import NotebookRenderer

    generate = NotebookRenderer.generate_content_generator
    if getattr(generate, "ends_failed_pages", False):
        return

    async def ended_on_failure(renderer: Any, snippets: Any, kernel_id: str | None) -> Any:
        try:
            async for snippet in snippets:
                yield snippet
        except Exception as error:  # noqa: BLE001 - any failure of the kernel or of Voila ends the page the same way
            renderer.log.error(
                "The lesson %s could not start (%s: %s); its page asks to be reloaded",
                renderer.notebook_path,
                type(error).__name__,
                error,
            )
            manager = renderer.request_handler.kernel_manager
            if kernel_id is not None and kernel_id in manager:
                try:
                    await ensure_async(manager.shutdown_kernel(kernel_id, now=True))
                except Exception as stopping:  # noqa: BLE001 - already gone, or going
                    renderer.log.warning("The failed kernel %s did not shut down: %s", kernel_id, stopping)
            yield FAILED_LESSON_PAGE_END, {}

    async def ended_if_unfinished(renderer: Any, snippets: Any, kernel_id: str | None) -> Any:
        ended = False
        async for snippet in ended_on_failure(renderer, snippets, kernel_id):
            ended = ended or snippet[0] == FAILED_LESSON_PAGE_END
            yield snippet
        problem = unfinished_lesson(renderer)
        if problem and "TimeoutError" in problem and not ended:  # the page would show the text without its board
            renderer.log.error(
                "The lesson %s did not run to its end (%s); its page asks to be reloaded",
                renderer.notebook_path,
                problem,
            )
            yield FAILED_LESSON_PAGE_END, {}

    def generate_content_generator(self: Any, kernel_id: str | None = None, kernel_future: Any = None) -> Any:
        snippets = generate(self, kernel_id, kernel_future)
        return snippets if self.request_handler is None else ended_if_unfinished(self, snippets, kernel_id)

    generate_content_generator.ends_failed_pages = True  # type: ignore[attr-defined]
    NotebookRenderer.generate_content_generator = generate_content_generator


def note_lessons_that_do_not_run_to_their_end() -> None:
    """Make a renderer note when its lesson's cells did not all run (``NotebookRenderer._jinja_cell_generator``,
    which Voila's template loops over): Voila's generator stops at a cell that timed out or raised (one whose
    output was lost when ``VoilaExecutor.raise_on_iopub_timeout`` is on) and shows the cells before it, so the
    page shows the lesson's text without its board, and nothing says why. ``unfinished_lesson`` reads the note.
    Idempotent."""
    from voila.notebook_renderer import NotebookRenderer

    cells = NotebookRenderer._jinja_cell_generator
    if getattr(cells, "notes_unfinished_lessons", False):
        return

    async def cell_generator(renderer: Any, nb: Any, kernel_id: str | None) -> Any:
        total, seen = len(nb.cells), 0
        renderer.tutor_unfinished = None
        async for cell in cells(renderer, nb, kernel_id):
            seen += 1
            errors = [output for output in cell.get("outputs", []) if output.get("output_type") == "error"]
            if errors and renderer.tutor_unfinished is None:
                renderer.tutor_unfinished = f"cell {seen} of {total} failed ({errors[0].get('ename')})"
            yield cell
        if seen < total and renderer.tutor_unfinished is None:
            renderer.tutor_unfinished = f"it stopped after cell {seen} of {total}"

    cell_generator.notes_unfinished_lessons = True  # type: ignore[attr-defined]
    NotebookRenderer._jinja_cell_generator = cell_generator


def unfinished_lesson(renderer: Any) -> str | None:
    """Why the lesson the renderer ran did not run to its end (see ``note_lessons_that_do_not_run_to_their_end``);
    None when every cell ran (or the lesson has not run yet)."""
    problem = getattr(renderer, "tutor_unfinished", None)
    return str(problem) if problem else None


def lesson_page_handler() -> type:
    """The handler class of Voila's lesson pages (``/voila/render/<notebook>``)."""
    from voila.tornado.handler import TornadoVoilaHandler

    handler: type = TornadoVoilaHandler
    return handler


def with_lesson_page_handler(routes: list[Any], handler: type) -> list[Any]:
    """Voila's routes (``Voila.init_handlers``: tuples of pattern, handler class, arguments) with ``handler``
    serving the lesson pages instead of Voila's own."""
    voila_handler = lesson_page_handler()
    return [(route[0], handler, *route[2:]) if route[1] is voila_handler else route for route in routes]


def has_kernel_pools(kernel_manager: VoilaKernelManager) -> bool:
    """Whether Voila preheats kernels (``preheat_kernel``): its kernel manager then keeps ``_pools``."""
    return hasattr(kernel_manager, "_pools")


def kernel_pools(kernel_manager: VoilaKernelManager) -> dict[str, list[asyncio.Future[PreparedKernel]]]:
    """Voila's ``_pools``: notebook path -> the futures of its preheated kernels, in the order pages take them
    (empty without preheating). The lists are Voila's own: changing them changes what Voila does."""
    pools: dict[str, list[asyncio.Future[PreparedKernel]]] = getattr(kernel_manager, "_pools", {})
    return pools


def pool_item_ready(item: asyncio.Future[PreparedKernel]) -> bool:
    """Whether a pool item is a kernel that has started (it may still be running its lesson)."""
    return item.done() and not item.cancelled() and item.exception() is None


def drop_failed_pool_items(kernel_manager: VoilaKernelManager) -> None:
    """Remove the pool items whose kernel did not start: Voila's ``shutdown_kernel`` reads every finished item's
    result and would raise on them (its ``cull_kernel_if_idle`` drops them the same way)."""
    for pool in kernel_pools(kernel_manager).values():
        pool[:] = [item for item in pool if not (item.done() and not pool_item_ready(item))]


def lesson_run(prepared: PreparedKernel) -> asyncio.Future[Any]:
    """The task running the lesson's cells in a pooled kernel (``_initialize``'s ``"task"``)."""
    task: asyncio.Future[Any] = prepared["task"]
    return task


def prepared_kernel_id(prepared: PreparedKernel) -> str:
    """The id of a pooled kernel (``_initialize``'s ``"kernel_id"``)."""
    return str(prepared["kernel_id"])


PreparePooled = Callable[..., Awaitable[PreparedKernel]]
"""A pool preparation hook: ``hook(prepare, notebook_name, kernel_id, **kwargs)``, where ``prepare`` is Voila's
``_initialize`` (start the kernel, schedule its lesson's run)."""


def prepare_pooled_kernels_through_a_hook() -> None:
    """Make the kernel manager class Voila makes (``voila.app.voila_kernel_manager_factory``, called in
    ``Voila.init_settings``) start each pooled kernel through the hook ``set_pool_preparation`` sets, if any.

    Voila schedules its first fill in the manager's constructor (``wait_before(0, self._initialize(...))``), so
    replacing ``_initialize`` on the manager afterwards reaches only the refills: 25 kernels then start at once
    on two cores. The subclass's ``_initialize`` reads the hook when it runs, once the loop runs. Call it before
    ``Voila.init_settings``; idempotent."""
    import voila.app

    factory = voila.app.voila_kernel_manager_factory
    if getattr(factory, "hooks_pool_preparation", False):
        return

    def hooked_factory(*args: Any, **kwargs: Any) -> Any:
        manager_class = factory(*args, **kwargs)
        if not hasattr(manager_class, "_initialize"):  # no preheating: no pools
            return manager_class

        class HookedVoilaKernelManager(manager_class):  # type: ignore[misc, valid-type]
            hooks_pool_preparation = True

            async def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kw: Any) -> PreparedKernel:
                prepare = super()._initialize
                hook: PreparePooled | None = getattr(self, "tutor_prepare_pooled", None)
                if hook is None or kernel_id is not None:  # a restart of a kernel in use is not a pool's
                    prepared: PreparedKernel = await prepare(notebook_path, kernel_id, **kw)
                    return prepared
                return await hook(prepare, notebook_path, **kw)

        return HookedVoilaKernelManager

    hooked_factory.hooks_pool_preparation = True  # type: ignore[attr-defined]
    voila.app.voila_kernel_manager_factory = hooked_factory


def set_pool_preparation(kernel_manager: VoilaKernelManager, hook: PreparePooled) -> None:
    """Start each of ``kernel_manager``'s pooled kernels through ``hook``: from its first fill on when its class
    was made after ``prepare_pooled_kernels_through_a_hook``, else (``_initialize`` replaced) from its refills on."""
    if getattr(type(kernel_manager), "hooks_pool_preparation", False):
        kernel_manager.tutor_prepare_pooled = hook
        return
    original = kernel_manager._initialize

    async def initialize(notebook_path: str, kernel_id: str | None = None, **kw: Any) -> PreparedKernel:
        if kernel_id is not None:
            prepared: PreparedKernel = await original(notebook_path, kernel_id, **kw)
            return prepared
        return await hook(original, notebook_path, **kw)

    kernel_manager._initialize = initialize


def fill_pool(kernel_manager: VoilaKernelManager, notebook_name: str) -> None:
    """Start the kernels ``notebook_name``'s pool lacks, at once (``fill_if_needed``, which counts the pool's
    items against ``kernel_pools_config``)."""
    kernel_manager.fill_if_needed(delay=0, notebook_name=notebook_name)


def prepare_one(kernel_manager: VoilaKernelManager, notebook_name: str) -> None:
    """Start one pooled kernel for ``notebook_name`` now, and no refill after a page takes it: the pool's size
    (``kernel_pools_config``, which ``fill_if_needed`` reads when it schedules) is 1 only while it schedules."""
    pools_config: dict[str, Any] = kernel_manager.kernel_pools_config
    had = pools_config.get(notebook_name)
    pools_config[notebook_name] = {
        **(had or {}),
        "pool_size": len(kernel_pools(kernel_manager).get(notebook_name, [])) + 1,
    }
    try:
        kernel_manager.fill_if_needed(delay=0, notebook_name=notebook_name)
    finally:
        if had is None:
            del pools_config[notebook_name]
        else:
            pools_config[notebook_name] = had


def empty_pool(kernel_manager: VoilaKernelManager, notebook_name: str) -> None:
    """Stop the pooled kernels of ``notebook_name`` no page has taken (one still starting, once it has)."""
    pool = kernel_pools(kernel_manager).get(notebook_name, [])
    items, pool[:] = list(pool), []
    for item in items:

        def discard(done: asyncio.Future[PreparedKernel]) -> None:
            if pool_item_ready(done):
                asyncio.ensure_future(discard_prepared_kernel(kernel_manager, done.result()))

        item.add_done_callback(discard)


async def discard_prepared_kernel(kernel_manager: VoilaKernelManager, prepared: PreparedKernel) -> None:
    """Stop a pooled kernel that will not serve: its lesson's run, then the kernel (Voila's ``shutdown_kernel``,
    after dropping the failed pool items it would trip over)."""
    run = lesson_run(prepared)
    if not run.done():
        run.cancel()
    kernel_id = prepared_kernel_id(prepared)
    drop_failed_pool_items(kernel_manager)
    if kernel_id in kernel_manager.list_kernel_ids():
        await ensure_async(kernel_manager.shutdown_kernel(kernel_id, now=True))


def lesson_problem(prepared: PreparedKernel) -> str | None:
    """Why a pooled kernel's lesson did not run to its end (its renderer's note, see ``unfinished_lesson``)."""
    renderer = prepared.get("renderer")
    return unfinished_lesson(renderer) if renderer is not None else None


def wrap_take_pooled_kernel(kernel_manager: VoilaKernelManager, wrap: Callable[[TakePooled], TakePooled]) -> None:
    """Replace ``get_rendered_notebook`` (which hands a page the first kernel of the notebook's pool) by
    ``wrap(the original)``."""
    kernel_manager.get_rendered_notebook = wrap(kernel_manager.get_rendered_notebook)


def taken_kernel_id(taken: Any) -> str:
    """The kernel id in what ``get_rendered_notebook`` returns (render task, rendered cells, kernel id)."""
    return str(taken[2])


def set_pool_size(kernel_manager: VoilaKernelManager, pool_size: Callable[[str], int]) -> None:
    """Replace ``get_pool_size(notebook)``, which Voila's page handler asks before taking a pooled kernel (0:
    it starts a kernel of its own instead)."""
    kernel_manager.get_pool_size = pool_size


def wrap_start_kernel(
    kernel_manager: VoilaKernelManager, wrap: Callable[[Callable[..., Any]], Callable[..., Awaitable[Any]]]
) -> None:
    """Replace ``start_kernel``, which Voila's page handler calls when it does not take a pooled kernel."""
    kernel_manager.start_kernel = wrap(kernel_manager.start_kernel)


def on_page_connect(kernel_manager: VoilaKernelManager, connected: Callable[[str], None]) -> None:
    """Call ``connected(kernel_id)`` each time a page opens a kernel's websocket (Jupyter Server's
    ``notify_connect``, which its websocket connection calls on the kernel manager)."""
    notify_connect = kernel_manager.notify_connect

    def noting_connect(kernel_id: str) -> Any:
        connected(kernel_id)
        return notify_connect(kernel_id)

    kernel_manager.notify_connect = noting_connect


def add_kernel_environment(kernel_manager: VoilaKernelManager, variables: Callable[[str], dict[str, str]]) -> None:
    """Start every kernel (pooled ones too) with ``variables(kernel_id)`` added to its environment (Jupyter
    Client's ``pre_start_kernel``, which names the kernel and hands on the keyword arguments its start gets)."""
    pre_start_kernel = kernel_manager.pre_start_kernel

    def with_variables(kernel_name: str | None, kwargs: dict[str, Any]) -> Any:
        started = pre_start_kernel(kernel_name, kwargs)
        kwargs["env"] = {**kwargs.get("env", os.environ), **variables(started[2])}
        return started

    kernel_manager.pre_start_kernel = with_variables


def on_page_disconnect(kernel_manager: VoilaKernelManager, disconnected: Callable[[str, int], None]) -> None:
    """Call ``disconnected(kernel_id, connections)`` each time a kernel's websocket closes (Jupyter Server's
    ``notify_disconnect``), with the kernel's websockets still open after it."""
    notify_disconnect = kernel_manager.notify_disconnect

    def noting_disconnect(kernel_id: str) -> Any:
        result = notify_disconnect(kernel_id)
        disconnected(kernel_id, connections(kernel_manager, kernel_id))
        return result

    kernel_manager.notify_disconnect = noting_disconnect


def connections(kernel_manager: VoilaKernelManager, kernel_id: str) -> int:
    """The kernel's open websockets, as Jupyter Server counts them (``notify_connect``/``notify_disconnect``)."""
    return int(getattr(kernel_manager, "_kernel_connections", {}).get(kernel_id, 0))


# ----- Pages without a board (tutor.server.text_pages): rendered once with a kernel, then served without one --------

NO_KERNEL_ID = "00000000-0000-0000-0000-000000000000"
"""The kernel id a page rendered once names instead of its (shut down) rendering kernel: well-formed, never a
kernel's."""


def lesson_page_route_arguments(routes: list[Any]) -> dict[str, Any]:
    """The arguments Voila gives its lesson page handler (``config``, ``template_paths``,
    ``voila_configuration``), from Voila's routes (``Voila.init_handlers``)."""
    voila_handler = lesson_page_handler()
    for route in routes:
        if len(route) > 2 and isinstance(route[1], type) and issubclass(route[1], voila_handler):
            arguments: dict[str, Any] = route[2]
            return arguments
    raise LookupError("Voila has no lesson page route")


def server_extension_route_arguments(server_app: Any) -> dict[str, Any]:
    """The arguments Voila's server extension gives its lesson page handler, built as it builds them
    (as ``voila.server_extension`` loads itself: voila.json on Jupyter's config path)."""
    from voila.configuration import VoilaConfiguration
    from voila.paths import collect_template_paths
    from voila.server_extension import load_config_file

    configuration = VoilaConfiguration(parent=server_app)
    local_config = load_config_file()
    if local_config is not None:
        configuration.update_config(local_config)
    template_paths = collect_template_paths(["voila", "nbconvert"], configuration.template)
    return {"config": server_app.config, "template_paths": template_paths, "voila_configuration": configuration}


async def render_page_once(settings: dict[str, Any], route_arguments: dict[str, Any], path: str, log: Any) -> str:
    """The page Voila's handler sends for the notebook ``path`` (relative to the served folder), rendered as its
    handler renders a page without a pooled kernel (``VoilaHandler.get_generator``: ``get_page_config``, then
    ``NotebookRenderer`` executing the cells in a new kernel), the kernel shut down afterwards and its id in the
    page replaced by ``NO_KERNEL_ID``. The page loads none of the JupyterLab extensions (the page config's
    ``federated_extensions``, which Voila's page loads): its outputs are HTML, and the widget extensions would ask
    the server for its kernel (a failed request, then one "failed to activate" error each). ``settings``: the web
    application's (managers, base URL, MathJax); ``log``: a logger for Voila's warnings."""
    import os

    from voila.notebook_renderer import NotebookRenderer
    from voila.utils import get_page_config

    configuration = route_arguments["voila_configuration"]
    kernel_manager = settings["kernel_manager"]
    base_url = settings.get("base_url", "/")
    page_config = get_page_config(base_url=base_url, settings=settings, log=log, voila_configuration=configuration)
    page_config["federated_extensions"] = []  # their widget manager would ask the server for the page's kernel
    renderer = NotebookRenderer(
        voila_configuration=configuration,
        traitlet_config=route_arguments["config"],
        notebook_path=path,
        template_paths=route_arguments["template_paths"],
        config_manager=settings.get("config_manager"),
        contents_manager=settings["contents_manager"],
        base_url=base_url,
        kernel_spec_manager=settings["kernel_spec_manager"],
        page_config=page_config,
        mathjax_config=settings.get("mathjax_config"),
        mathjax_url=settings.get("mathjax_url"),
    )
    await renderer.initialize()
    environment = {
        **os.environ,
        "VOILA_PREHEAT": "False",
        "VOILA_BASE_URL": base_url,
        "VOILA_SERVER_URL": settings.get("server_url", "/"),
    }
    kernel_id = await ensure_async(
        kernel_manager.start_kernel(
            kernel_name=renderer.notebook.metadata.kernelspec.name, path=os.path.dirname(path), env=environment
        )
    )
    try:
        page = await renderer.generate_content_str(kernel_id, kernel_manager.get_kernel(kernel_id))
    finally:
        await ensure_async(kernel_manager.shutdown_kernel(kernel_id))
    return str(page).replace(str(kernel_id), NO_KERNEL_ID)


# ----- Bounds on what a page can make the server do (tutor.server.bounds) --------------------------------------


def kernel_channels_handler() -> type:
    """The handler class of a kernel's websocket (``/api/kernels/<id>/channels``): Voila's
    ``VoilaKernelWebsocketHandler``, a ``jupyter_server`` ``KernelWebsocketHandler``."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    handler: type = VoilaKernelWebsocketHandler
    return handler


def request_info_handler() -> type:
    """The handler class of the websocket a page with a preheated kernel opens (``/voila/query/<kernel id>``,
    Voila's ``RequestInfoSocketHandler``)."""
    from voila.request_info_handler import RequestInfoSocketHandler

    handler: type = RequestInfoSocketHandler
    return handler


def login_handlers() -> tuple[type, ...]:
    """The handler classes of ``/login`` and ``/logout`` (``IdentityProvider.get_handlers``), which Voila adds to
    its routes although it serves without a login: their pages need a ``static_path`` Voila does not set."""
    from jupyter_server.auth.login import LoginFormHandler
    from jupyter_server.auth.logout import LogoutHandler

    return LoginFormHandler, LogoutHandler


def with_route_handlers(routes: list[Any], replaced: dict[type, type | None]) -> list[Any]:
    """Voila's routes (``Voila.init_handlers``: tuples of pattern, handler class, arguments) with each handler
    class that is (a subclass of) a key of ``replaced`` served by its value instead; a value None drops the route."""
    result = []
    for route in routes:
        handler = route[1] if len(route) > 1 else None
        match = next((key for key in replaced if isinstance(handler, type) and issubclass(handler, key)), None)
        if match is None:
            result.append(route)
        elif replaced[match] is not None:
            result.append((route[0], replaced[match], *route[2:]))
    return result


def channels_connection_class() -> type:
    """``jupyter_server``'s ``ZMQChannelsWebsocketConnection``: what a kernel's websocket hands the page's messages
    to (``handle_incoming_message``); the class is the ``kernel_websocket_connection_class`` setting."""
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    connection: type = ZMQChannelsWebsocketConnection
    return connection


V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def page_message(connection: Any, ws_message: str | bytes) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The channel, header and content of a message a page sent on a kernel's websocket, read as
    ``handle_incoming_message`` reads it (``connection.subprotocol``: the v1 protocol's binary frames, else JSON or
    the legacy binary form); ValueError when it is not a kernel message. The content is read only for the
    messages that open a comm (``{}`` otherwise): its size is bounded by the websocket's message size."""
    try:
        if connection.subprotocol == V1_PROTOCOL:
            if not isinstance(ws_message, bytes) or len(ws_message) < 8:
                raise ValueError("not a v1 binary frame")
            count = int.from_bytes(ws_message[:8], "little")
            if not 6 <= count <= 64 or len(ws_message) < 8 * (count + 1):
                raise ValueError("a v1 frame with a wrong number of parts")
            offsets = [int.from_bytes(ws_message[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
            if offsets != sorted(offsets) or offsets[-1] > len(ws_message):
                raise ValueError("a v1 frame with wrong offsets")
            parts = [ws_message[offsets[i] : offsets[i + 1]] for i in range(count - 1)]  # channel, header, ...
            channel = parts[0].decode("utf-8")
            header = connection.session.unpack(parts[1])
            content = connection.session.unpack(parts[4]) if _opens_comm(header) else {}
        else:
            if isinstance(ws_message, bytes):
                from jupyter_server.services.kernels.connection.base import deserialize_binary_message

                message = deserialize_binary_message(ws_message)  # type: ignore[no-untyped-call]
            else:
                import json

                message = json.loads(ws_message)
            channel = message.get("channel") or "shell"
            header, content = message["header"], message.get("content", {})
    except ValueError:
        raise
    except Exception as error:  # noqa: BLE001 - any malformed frame is refused the same way
        raise ValueError(f"malformed ({type(error).__name__})") from None
    if not isinstance(header, dict) or not isinstance(content, dict) or not isinstance(channel, str):
        raise ValueError("malformed (not objects)")
    return channel, header, content


def _opens_comm(header: Any) -> bool:
    return isinstance(header, dict) and header.get("msg_type") == "comm_open"


def accept_connections_without_spinning(log: Callable[[str], None], pause_s: float = 1.0) -> None:
    """Make Tornado's servers (``tornado.tcpserver.add_accept_handler``, which ``HTTPServer`` uses) stop accepting
    for ``pause_s`` when the process is out of file descriptors (EMFILE, ENFILE), saying so through ``log`` at most
    once a minute, with how many times it happened. Tornado's own accept loop lets the error out: the IOLoop logs
    a traceback and, the listening socket still readable, calls it again at once, for ever. Idempotent."""
    import errno
    import socket
    import time

    import tornado.tcpserver
    from tornado.ioloop import IOLoop

    if getattr(tornado.tcpserver.add_accept_handler, "does_not_spin", False):  # type: ignore[attr-defined]
        return
    out_of_descriptors = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
    said = {"at": -1e9, "count": 0}

    def add_accept_handler(sock: socket.socket, callback: Callable[[socket.socket, Any], None]) -> Callable[[], None]:
        io_loop = IOLoop.current()
        state = {"removed": False, "watching": True}

        def accept_handler(fd: Any, events: int) -> None:
            for _ in range(128):
                if state["removed"] or not state["watching"]:
                    return
                try:
                    connection, address = sock.accept()
                except BlockingIOError:
                    return
                except ConnectionAbortedError:
                    continue
                except OSError as error:
                    if error.errno not in out_of_descriptors:
                        raise
                    said["count"] += 1
                    now = time.monotonic()
                    if now - said["at"] >= 60:
                        log(
                            f"Out of open files ({errno.errorcode.get(error.errno, error.errno)}): new connections "
                            f"wait {pause_s:g} s (seen {said['count']}x in the last minute)"
                        )
                        said["at"], said["count"] = now, 0
                    io_loop.remove_handler(sock)
                    state["watching"] = False
                    io_loop.call_later(pause_s, watch_again)
                    return
                callback(connection, address)

        def watch_again() -> None:
            if not state["removed"] and not state["watching"]:
                state["watching"] = True
                io_loop.add_handler(sock, accept_handler, IOLoop.READ)

        def remove_handler() -> None:
            if state["watching"]:
                io_loop.remove_handler(sock)
            state["removed"] = True

        io_loop.add_handler(sock, accept_handler, IOLoop.READ)
        return remove_handler

    add_accept_handler.does_not_spin = True  # type: ignore[attr-defined]
    tornado.tcpserver.add_accept_handler = add_accept_handler  # type: ignore[attr-defined]
