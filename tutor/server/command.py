"""The command ``rules-tutor serve``: checks its options (``serve_problem``), writes class mode's settings
(``class_mode.classroom_settings``, ``tutor.classroom``'s) or a learner alone's (``next_lesson``) and runs the
server (``process.run``)."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import socket
import sys
import tempfile
from pathlib import Path

from .class_mode import CLASS_MARGIN, classroom_settings
from .next_lesson import learner_alone_settings
from .process import lessons_dir, run, voila_command, write_settings


def serve_problem(directory: Path, ip: str | None, port: int, lessons: list[str]) -> str | None:
    """Why ``serve`` cannot start with these options (missing folder or lesson, bad address, port taken); None
    when it can."""
    if not directory.is_dir():
        return f"no lessons folder {directory}"
    for lesson in lessons:
        if not (directory / lesson).is_file():
            return f"no lesson {lesson} in {directory}"
    host = ip or "127.0.0.1"
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return f"--ip {ip!r} is not an IP address (such as 0.0.0.0 for a classroom network, or 127.0.0.1)"
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        return (
            f"cannot listen on {host} port {port} ({exc.strerror}): another server uses it, or the address "
            "is not this machine's"
        )
    return None


def make_languages(directory: Path) -> str:
    """Make the lessons in each language with a catalog (``directory/<language>/``, from the English lessons and
    the catalog: ``tutor.i18n.lesson_languages``) before the server starts; what was done, or why it could not be."""
    from ..i18n.lesson_languages import build_languages
    from ..i18n.pages import write_language_list

    try:
        made = build_languages(directory)
        write_language_list()
    except (OSError, ValueError) as exc:
        return f"rules-tutor serve: the lessons in other languages could not be made in {directory}: {exc}"
    return f"Lessons made in {', '.join(sorted(made))} from the English lessons and the catalogs" if made else ""


def cmd_serve(args: argparse.Namespace) -> int:
    """``rules-tutor serve [DIR] [--port P] [--open]``; with the (optional) options ``--ip ADDRESS``,
    ``--class-size N`` and ``--lesson NOTEBOOK`` (repeatable), it serves a class (see ``classroom_settings``).
    Options it cannot serve with (see ``serve_problem``) exit 2 with a message."""
    directory = (Path(args.directory) if args.directory else lessons_dir()).resolve()
    ip = args.ip
    class_size = args.class_size
    lessons = [str(Path(lesson)) for lesson in args.lesson]
    if directory.is_dir():
        made = make_languages(directory)
        if made:
            print(made, flush=True)
    problem = serve_problem(directory, ip, args.port, lessons)
    if problem:
        print(f"rules-tutor serve: {problem}", file=sys.stderr)
        return 2
    command = [*voila_command(directory, args.port, args.open), "--Voila.port_retries=0"]
    if ip:
        command.append(f"--Voila.ip={ip}")
    config_file = directory.parent / "voila.json"
    base = json.loads(config_file.read_text()) if config_file.is_file() else {}
    with tempfile.TemporaryDirectory(prefix="rules-tutor-serve-") as tmp:
        if not class_size and not getattr(args, "no_next_lesson", False):
            command.append(f"--Voila.config_file_paths={write_settings(learner_alone_settings(base), Path(tmp))}")
        if class_size:
            from ..classroom.database import default_path
            from ..classroom.handlers import (
                TEACHER_LINK_LINE,
                class_mode_settings,
                new_teacher_token,
                teacher_address,
                teacher_link_at,
            )

            class_db = Path(args.class_db).resolve() if getattr(args, "class_db", None) else default_path()
            teacher_token = new_teacher_token()
            address = teacher_address("localhost" if not ip or ip in ("127.0.0.1", "localhost") else ip, args.port)
            folder = write_settings(
                class_mode_settings(classroom_settings(base, class_size, lessons), class_db, teacher_token, address),
                Path(tmp),
            )
            command.append(f"--Voila.config_file_paths={folder}")
            preheated = f"{class_size} kernels preheated for {', '.join(lessons)}; " if lessons else ""
            print(f"A class of {class_size}: {preheated}at most {class_size + CLASS_MARGIN} pages at once", flush=True)
            if lessons:
                print(
                    'Preparing the lessons: wait for "The class can come in" before the learners open them.', flush=True
                )
        host = "localhost" if not ip or ip in ("127.0.0.1", "localhost") else ip
        print(f"Serving the lessons at http://{host}:{args.port}/  (Ctrl+C stops)", flush=True)
        if class_size:
            print(f"Results of this class are kept in {class_db}", flush=True)
            print(TEACHER_LINK_LINE.format(link=teacher_link_at(address, teacher_token)), flush=True)
            if hasattr(signal, "SIGUSR1"):
                print(f"The link works once; for a new one: kill -USR1 {os.getpid()}", flush=True)
        return run(command, cwd=directory.parent)
