"""A lesson kernel with a memory limit: ``python -m tutor.server.kernel_launcher -f <connection file>``.

``rules-tutor serve`` puts ``tutor/server/jupyter_data`` on Jupyter's data path (``process.with_template_path``),
whose ``kernels/python3`` starts each lesson's kernel through this module: it limits the process's data memory
(``RLIMIT_DATA``) to ``$RULES_TUTOR_KERNEL_DATA_MIB`` MiB (none when it is unset or 0; the server sets it to
``bounds.KERNEL_DATA_LIMIT_MIB``), then runs ipykernel as ``python -m ipykernel_launcher`` does. A kernel that
reaches its limit fails its allocation (``MemoryError``) or dies, and its page says the lesson has stopped.
"""

from __future__ import annotations

import os
import sys

LIMIT_VARIABLE = "RULES_TUTOR_KERNEL_DATA_MIB"


def limit_data_memory(mib: int) -> None:
    """Limit this process's data memory (heap and private writable mappings) to ``mib`` MiB (soft and hard)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: no limit
        return
    limit = mib * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def main() -> None:
    value = os.environ.get(LIMIT_VARIABLE, "")
    if value.isdigit() and int(value) > 0:
        limit_data_memory(int(value))
    if sys.path and (sys.path[0] == "" or os.path.abspath(sys.path[0]) == os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher: the lesson's folder is added back by the kernel
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
