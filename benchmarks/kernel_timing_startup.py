"""An IPython startup file for bench_first_board.py: the kernel side of a lesson page's first board.

bench_first_board.py copies it into ``$IPYTHONDIR/profile_default/startup/`` of the Voila servers it starts, so
that every kernel runs it before its first cell. It writes ``$TUTOR_BENCH_TIMES/<kernel id>.json`` (epoch
seconds, rewritten after every cell):

- ``process_start``: when the kernel's process started (from /proc), ``startup``: when this file ran (the kernel
  has imported ipykernel and IPython and is about to answer);
- ``cells``: per cell, [source's first line, start, end] (IPython's pre_run_cell / post_run_cell);
- ``imports``: per module imported at the top level of a cell (not below another import), its inclusive seconds
  (``importlib._bootstrap._find_and_load``, which CPython calls for every module not yet imported), and
  ``nested`` the inclusive seconds of ipywidgets, ipycanvas, numpy, babel and jsonschema wherever imported.
- ``comm_msgs``: per comm message handled after the cells (ipycanvas' client_ready is one), [start, end].
"""

import json
import os
import time


def _install() -> None:
    import importlib._bootstrap as bootstrap

    folder = os.environ.get("TUTOR_BENCH_TIMES")
    if not folder:
        return
    from ipykernel.kernelapp import IPKernelApp

    connection_file = IPKernelApp.instance().connection_file if IPKernelApp.initialized() else ""
    kernel_id = os.path.basename(connection_file).removeprefix("kernel-").removesuffix(".json") or str(os.getpid())
    record: dict = {
        "pid": os.getpid(),
        "startup": time.time(),
        "cells": [],
        "imports": [],
        "nested": {},
        "comm_msgs": [],
    }
    try:
        with open("/proc/stat") as stat:
            boot = next(float(line.split()[1]) for line in stat if line.startswith("btime"))
        with open(f"/proc/{os.getpid()}/stat") as stat:
            ticks = float(stat.read().rsplit(")", 1)[1].split()[19])
        record["process_start"] = boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, StopIteration, ValueError):
        record["process_start"] = None
    path = os.path.join(folder, f"{kernel_id}.json")

    def save() -> None:
        with open(path + ".tmp", "w") as out:
            json.dump(record, out)
        os.replace(path + ".tmp", path)

    watched = ("ipywidgets", "ipycanvas", "numpy", "babel", "jsonschema")
    original = bootstrap._find_and_load
    state = {"depth": 0, "in_cell": False}

    def timed_find_and_load(name, import_):
        start = time.perf_counter()
        state["depth"] += 1
        try:
            return original(name, import_)
        finally:
            state["depth"] -= 1
            seconds = time.perf_counter() - start
            if state["in_cell"] and state["depth"] == 0:
                record["imports"].append([name, seconds])
            if name in watched and state["in_cell"]:
                record["nested"][name] = record["nested"].get(name, 0.0) + seconds

    bootstrap._find_and_load = timed_find_and_load

    def pre_run_cell(info) -> None:
        state["in_cell"] = True
        first_line = (info.raw_cell or "").strip().splitlines()[:1]
        record["cells"].append([first_line[0] if first_line else "", time.time(), None])

    def post_run_cell(result) -> None:
        state["in_cell"] = False
        if record["cells"]:
            record["cells"][-1][2] = time.time()
        save()

    shell = get_ipython()  # type: ignore[name-defined]  # noqa: F821 - IPython startup files have it
    shell.events.register("pre_run_cell", pre_run_cell)
    shell.events.register("post_run_cell", post_run_cell)

    kernel = getattr(shell, "kernel", None)
    manager = getattr(kernel, "comm_manager", None) if kernel is not None else None
    if manager is not None and hasattr(manager, "comm_msg"):
        handle = manager.comm_msg

        def comm_msg(stream, ident, msg):
            start = time.time()
            try:
                return handle(stream, ident, msg)
            finally:
                if len(record["comm_msgs"]) < 200:
                    record["comm_msgs"].append([start, time.time()])
                    save()

        manager.comm_msg = comm_msg
        if hasattr(kernel, "shell_handlers"):
            kernel.shell_handlers["comm_msg"] = comm_msg
    save()


_install()
del _install
