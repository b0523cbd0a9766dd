"""One test per Voila internal that class mode and the hub and Binder routes rely on (tutor/server/voila_adapter.py), so
that a Voila upgrade that changes one fails the test named after it.

The tests run class mode's Voila in this process (its event loop in a thread), with a pool of one preheated
kernel for a tiny lesson, and look at the internals through the adapter while real page requests go through.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest
from jupyter_core.utils import ensure_async

from tutor.server import voila_adapter as voila
from tutor.server.class_mode import classroom_settings, classroom_voila_class, kernels_in_use
from tutor.server.process import with_template_path, write_settings

REPO = Path(__file__).resolve().parents[1]
LESSON = "tiny.ipynb"
WAIT_S = 120  # generous: the machine may be busy


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(condition, what: str, timeout_s: float = WAIT_S):
    deadline = time.monotonic() + timeout_s
    while not (result := condition()):
        assert time.monotonic() < deadline, f"{what} did not happen in {timeout_s} s"
        time.sleep(0.1)
    return result


class InProcessVoila:
    """Class mode's Voila (``classroom_voila_class``) serving a tiny lesson, its loop running in a thread."""

    def __init__(self, root: Path) -> None:
        lessons = root / "lessons"
        lessons.mkdir()
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('ready')")])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(notebook, lessons / LESSON)
        settings = classroom_settings(json.loads((REPO / "voila.json").read_text()), 1, [LESSON])
        settings["VoilaKernelManager"]["fill_delay"] = 0.5
        settings["ClassroomVoila"].update(max_kernels=0, page_connect_timeout=0)  # no limit, no door
        config = write_settings(settings, root / "config")
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self._environment = dict(os.environ)
        os.environ.update(with_template_path(dict(os.environ)))
        sigterm = signal.getsignal(signal.SIGTERM)
        self.app = classroom_voila_class()()
        self.app.initialize(
            [
                str(lessons),
                f"--port={self.port}",
                "--no-browser",
                "--Voila.ip=127.0.0.1",
                f"--Voila.config_file_paths={config}",
            ]
        )
        signal.signal(signal.SIGTERM, sigterm)  # Voila's initialize takes SIGTERM over
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(started,), daemon=True)
        self._thread.start()
        assert started.wait(WAIT_S), "Voila did not start"

    def _serve(self, started: threading.Event) -> None:
        import tornado.web

        asyncio.set_event_loop(self.loop)
        app = self.app
        app.connection_dir = tempfile.mkdtemp(prefix="voila_")
        settings = app.init_settings()
        app.app = tornado.web.Application(**settings)
        app.app.settings.update(app.tornado_settings)
        app.app.add_handlers(".*$", app.init_handlers())
        app.app.listen(self.port, "127.0.0.1")
        started.set()
        self.loop.run_forever()

    @property
    def kernel_manager(self):
        return self.app.kernel_manager

    def call(self, coroutine):
        """Run ``coroutine`` on Voila's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(WAIT_S)

    def on_loop(self, function, *args):
        """Run ``function(*args)`` on Voila's loop (hooks are replaced there, between two requests)."""

        async def run():
            return function(*args)

        return self.call(run())

    def pool_ready(self) -> bool:
        return any(
            voila.pool_item_ready(item) and voila.lesson_run(item.result()).done()
            for item in voila.kernel_pools(self.kernel_manager).get(LESSON, [])
        )

    def open_page(self, opener=None) -> str:
        """Fetch the lesson page; the kernel id it names."""
        opener = opener or urllib.request.build_opener()
        with opener.open(f"{self.url}/voila/render/{LESSON}", timeout=WAIT_S) as page:
            html = page.read().decode()
        return json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', html, re.S)[1])["kernelId"]

    def stop(self) -> None:
        self.call(self.kernel_manager.shutdown_all())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(WAIT_S)
        shutil.rmtree(self.app.connection_dir, ignore_errors=True)
        os.environ.clear()
        os.environ.update(self._environment)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = InProcessVoila(tmp_path_factory.mktemp("adapter"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pool_ready(served):
    """The server, once its pooled kernel has started and run the lesson."""
    _wait_for(served.pool_ready, "the pooled kernel running its lesson")
    return served


def test_voila_init_handlers_routes_lesson_pages_to_tornadovoilahandler(served):
    routes = [route for route in served.app.init_handlers() if "/voila/render/" in route[0]]
    assert len(routes) == 1
    assert routes[0][1] is not voila.lesson_page_handler() and issubclass(routes[0][1], voila.lesson_page_handler())


def test_kernel_manager_keeps_pools_of_prepared_kernels_in_pools(pool_ready):
    km = pool_ready.kernel_manager
    assert voila.has_kernel_pools(km)
    pool = voila.kernel_pools(km)[LESSON]
    prepared = [item.result() for item in pool if voila.pool_item_ready(item)]
    assert prepared and voila.prepared_kernel_id(prepared[0]) in km.list_kernel_ids()
    assert kernels_in_use(km) == len(km.list_kernel_ids()) - len(prepared)


def recording(calls: list, what=lambda result: result):
    """A wrap for a kernel manager method: the method, noting ``what(its result)`` in ``calls`` at each call."""

    def wrap(method):
        async def recorded(*args, **kwargs):
            result = await ensure_async(method(*args, **kwargs))
            calls.append(what(result))
            return result

        return recorded

    return wrap


@contextlib.contextmanager
def hooks_put_back(server: InProcessVoila, *names: str):
    """Put the kernel manager's methods ``names`` back as they were after the test's hooks."""
    before = {name: getattr(server.kernel_manager, name) for name in names}
    try:
        yield
    finally:
        for name, method in before.items():
            server.on_loop(setattr, server.kernel_manager, name, method)


def test_voila_kernel_manager_factory_makes_pools_that_prepare_each_kernel_through_the_hook(pool_ready):
    """The kernel manager class Voila makes (``voila_kernel_manager_factory``, hooked before ``init_settings``)
    starts each pooled kernel through the hook, refills too (``_initialize``: the kernel id and the task running
    the lesson); its renderer notes whether every cell ran (``_jinja_cell_generator``, ``lesson_problem``)."""
    km = pool_ready.kernel_manager
    assert getattr(type(km), "hooks_pool_preparation", False)
    [first] = [item.result() for item in voila.kernel_pools(km)[LESSON] if voila.pool_item_ready(item)][:1]
    assert first["renderer"].tutor_unfinished is None and voila.lesson_problem(first) is None
    prepared_kernels = []
    hook = km.tutor_prepare_pooled

    async def recording(prepare, notebook_name, *args, **kwargs):
        prepared = await hook(prepare, notebook_name, *args, **kwargs)
        prepared_kernels.append(prepared)
        return prepared

    with hooks_put_back(pool_ready, "tutor_prepare_pooled"):
        pool_ready.on_loop(setattr, km, "tutor_prepare_pooled", recording)
        pool_ready.open_page()  # takes the pooled kernel: Voila refills the pool after fill_delay
        prepared = _wait_for(lambda: prepared_kernels, "a refill through the hook")[0]
    assert voila.prepared_kernel_id(prepared) in km.list_kernel_ids()
    assert voila.lesson_run(prepared).done() and voila.lesson_problem(prepared) is None


def test_get_rendered_notebook_hands_the_page_a_pooled_kernel(pool_ready):
    """Voila asks ``get_pool_size``, then takes the kernel with ``get_rendered_notebook`` (kernel id third)."""
    asked, taken = [], []

    def pool_size(notebook: str) -> int:
        asked.append(notebook)
        return 1

    km = pool_ready.kernel_manager
    with hooks_put_back(pool_ready, "get_pool_size", "get_rendered_notebook"):
        pool_ready.on_loop(voila.set_pool_size, km, pool_size)
        pool_ready.on_loop(voila.wrap_take_pooled_kernel, km, recording(taken, voila.taken_kernel_id))
        kernel_id = pool_ready.open_page()
    assert asked == [LESSON]
    assert taken == [kernel_id]


def test_start_kernel_serves_a_page_when_no_pooled_kernel_is_ready(pool_ready):
    km = pool_ready.kernel_manager
    started = []
    with hooks_put_back(pool_ready, "get_pool_size", "start_kernel"):
        pool_ready.on_loop(voila.set_pool_size, km, lambda notebook: 0)
        pool_ready.on_loop(voila.wrap_start_kernel, km, recording(started))
        kernel_id = pool_ready.open_page()
    assert started == [kernel_id]


def test_notify_connect_tells_when_a_page_opens_its_kernel(pool_ready):
    from tornado.websocket import websocket_connect

    connected = []
    kernel_id = pool_ready.open_page()

    async def connect():
        socket = await websocket_connect(f"ws://127.0.0.1:{pool_ready.port}/api/kernels/{kernel_id}/channels")
        socket.close()

    with hooks_put_back(pool_ready, "notify_connect"):
        pool_ready.on_loop(voila.on_page_connect, pool_ready.kernel_manager, connected.append)
        asyncio.run(connect())
        _wait_for(lambda: kernel_id in connected, "notify_connect for the page's kernel")


def test_the_unload_request_passes_the_xsrf_check_with_the_cookie_the_page_set(pool_ready):
    """Voila's page shuts its kernel down when it closes (POST /voila/api/shutdown/<id>, the ``_xsrf`` cookie's
    value as form field): refused without the token (the check is on), accepted with the cookie the page set."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    kernel_id = pool_ready.open_page(opener)
    token = {cookie.name: cookie.value for cookie in cookies}.get("_xsrf")
    assert token, f"the lesson page set no _xsrf cookie: {[cookie.name for cookie in cookies]}"
    shutdown = f"{pool_ready.url}/voila/api/shutdown/{kernel_id}"
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(urllib.request.Request(shutdown, data=b"", method="POST"), timeout=WAIT_S)
    assert refused.value.code == 403
    assert kernel_id in pool_ready.kernel_manager.list_kernel_ids()
    form = urllib.parse.urlencode({"_xsrf": token}).encode()
    with opener.open(urllib.request.Request(shutdown, data=form, method="POST"), timeout=WAIT_S) as answer:
        assert answer.status == 204
    assert kernel_id not in pool_ready.kernel_manager.list_kernel_ids()


def test_tornadovoilahandler_get_sets_the_xsrf_cookie_under_a_jupyter_server(tmp_path):
    """Under a Jupyter server (hub, Binder), Voila's own ``TornadoVoilaHandler.get`` serves the lesson pages; with
    the settings of tutor.server.server_settings (its extension wraps that ``get``) the page gets the ``_xsrf`` cookie
    and its closing request frees its kernel."""
    from tutor.server.process import stop
    from tutor.server.server_settings import write_jupyter_config

    root = tmp_path / "root"
    root.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('ready')")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, root / LESSON)
    write_jupyter_config(tmp_path / "config")
    port, token = _free_port(), "adapter-test-token"
    url = f"http://127.0.0.1:{port}/user/learner"
    environment = with_template_path(
        dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    )
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.base_url=/user/learner/",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        *(["--allow-root"] if os.geteuid() == 0 else []),
    ]
    with (tmp_path / "server.log").open("wb") as log:
        server = subprocess.Popen(
            command,
            cwd=root,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:

        def up() -> bool:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5).close()
                return True
            except OSError:
                assert server.poll() is None, (tmp_path / "server.log").read_text()
                return False

        _wait_for(up, "the Jupyter server answering")
        cookies = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
        with opener.open(f"{url}/voila/render/{LESSON}?token={token}", timeout=WAIT_S) as page:
            html = page.read().decode()
        kernel_id = json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', html, re.S)[1])["kernelId"]
        xsrf = {cookie.name: cookie.value for cookie in cookies}.get("_xsrf")
        assert xsrf, f"the lesson page set no _xsrf cookie: {[cookie.name for cookie in cookies]}"

        def kernels() -> list[str]:
            with opener.open(f"{url}/api/kernels", timeout=WAIT_S) as answer:
                return [model["id"] for model in json.loads(answer.read())]

        assert kernel_id in kernels()
        form = urllib.parse.urlencode({"_xsrf": xsrf}).encode()
        shutdown = urllib.request.Request(f"{url}/voila/api/shutdown/{kernel_id}", data=form, method="POST")
        with opener.open(shutdown, timeout=WAIT_S) as answer:
            assert answer.status == 204
        assert kernel_id not in kernels()
    finally:
        stop(server)


# ----- Pages without a board (tutor.server.text_pages) ---------------------------------------------------------------


def test_fill_if_needed_prepares_one_kernel_and_shutdown_kernel_stops_an_unused_one(pool_ready):
    """``prepare_one``: Voila's ``fill_if_needed`` reads ``kernel_pools_config`` when it schedules (one kernel for
    a notebook with no pool, and no refill after: the config is as before); ``empty_pool``: the pool's unused
    kernel stops (``shutdown_kernel``), as the next-lesson preparation needs (tutor/server/next_lesson.py)."""
    km = pool_ready.kernel_manager
    other = "other.ipynb"
    shutil.copy(Path(km.root_dir) / LESSON, Path(km.root_dir) / other)
    config_before = json.loads(json.dumps(km.kernel_pools_config))
    pool_ready.on_loop(voila.prepare_one, km, other)
    assert km.kernel_pools_config == config_before
    item = _wait_for(
        lambda: [i for i in voila.kernel_pools(km).get(other, []) if voila.pool_item_ready(i)],
        "the other lesson's kernel",
    )[0]
    kernel_id = voila.prepared_kernel_id(item.result())
    assert kernel_id in km.list_kernel_ids() and len(voila.kernel_pools(km)[other]) == 1
    pool_ready.on_loop(voila.empty_pool, km, other)
    assert voila.kernel_pools(km)[other] == []
    _wait_for(lambda: kernel_id not in km.list_kernel_ids(), "the unused kernel stopped")


def test_voila_init_handlers_gives_the_lesson_page_route_its_arguments(served):
    arguments = voila.lesson_page_route_arguments(served.app.init_handlers())
    assert arguments["voila_configuration"] is served.app.voila_configuration
    assert arguments["template_paths"] == served.app.template_paths and arguments["config"] is served.app.config


def test_notebookrenderer_renders_a_page_once_as_the_page_handler_does(pool_ready):
    """``render_page_once`` (``get_page_config`` and ``NotebookRenderer`` with a kernel of its own, shut down
    after) gives the page Voila's handler sends, naming no kernel that exists."""
    import logging

    from test_text_pages import same_page_but_the_kernel

    km = pool_ready.kernel_manager
    kernels = sorted(km.list_kernel_ids())
    arguments = voila.lesson_page_route_arguments(pool_ready.app.init_handlers())
    page = pool_ready.call(
        voila.render_page_once(pool_ready.app.app.settings, arguments, LESSON, logging.getLogger("test"))
    )
    assert sorted(km.list_kernel_ids()) == kernels
    config = json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)[1])
    assert config["kernelId"] == voila.NO_KERNEL_ID and "ready" in page and "tutorConnection" in page
    with urllib.request.urlopen(f"{pool_ready.url}/voila/render/{LESSON}", timeout=WAIT_S) as reply:
        handlers_page = reply.read().decode()
    same_page_but_the_kernel(page, handlers_page)


def test_notebookrenderer_generate_content_generator_ends_the_page_of_a_kernel_that_failed(pool_ready):
    """A kernel that dies before the lesson runs makes the generator Voila's page handler reads raise (the handler
    loses that error and would send heartbeats for ever). In class mode's Voila (``init_handlers`` calls
    ``end_lesson_pages_that_fail_to_start``) a page rendered for a handler ends with the reload script instead;
    one rendered without a handler (``render_page_once``) still raises."""
    import logging
    import types

    from voila.notebook_renderer import NotebookRenderer
    from voila.utils import get_page_config

    arguments = voila.lesson_page_route_arguments(pool_ready.app.init_handlers())
    settings = pool_ready.app.app.settings
    kernels = sorted(pool_ready.kernel_manager.list_kernel_ids())

    async def render(handler) -> list[str]:
        configuration = arguments["voila_configuration"]
        renderer = NotebookRenderer(
            request_handler=handler,
            voila_configuration=configuration,
            traitlet_config=arguments["config"],
            notebook_path=LESSON,
            template_paths=arguments["template_paths"],
            config_manager=settings.get("config_manager"),
            contents_manager=settings["contents_manager"],
            base_url="/",
            kernel_spec_manager=settings["kernel_spec_manager"],
            page_config=get_page_config(
                base_url="/", settings=settings, log=logging.getLogger("test"), voila_configuration=configuration
            ),
        )
        await renderer.initialize()
        died = asyncio.get_running_loop().create_future()
        died.set_exception(RuntimeError("Kernel died before replying to kernel_info"))
        return [snippet async for snippet, _ in renderer.generate_content_generator(voila.NO_KERNEL_ID, died)]

    page = pool_ready.call(render(types.SimpleNamespace(kernel_manager=pool_ready.kernel_manager)))
    assert page[-1] == voila.FAILED_LESSON_PAGE_END and 'id="loading"' in "".join(page[:-1])
    with pytest.raises(RuntimeError, match="Kernel died"):
        pool_ready.call(render(None))
    assert sorted(pool_ready.kernel_manager.list_kernel_ids()) == kernels


def test_server_extension_builds_the_lesson_page_route_arguments_from_voila_json(monkeypatch):
    """As ``voila.server_extension`` does: voila.json from Jupyter's config path and the working folder, the
    template's folders from Jupyter's data path."""
    from jupyter_server.serverapp import ServerApp

    monkeypatch.chdir(REPO / "deploy" / "jupyterhub" / "singleuser")
    monkeypatch.setenv("JUPYTER_PATH", str(REPO / "tutor" / "voila_template"))
    arguments = voila.server_extension_route_arguments(ServerApp())
    assert arguments["voila_configuration"].template == "rules-tutor"
    assert str(REPO / "tutor" / "voila_template" / "voila" / "templates" / "rules-tutor") in arguments["template_paths"]
