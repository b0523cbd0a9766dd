"""JupyterHub on one machine for the rules tutor: learners log in with a name and the class's shared password, and
each gets a Jupyter server of their own, with their own copy of the lessons, that opens the lessons page in Voila.

Start it with options (this file runs ``jupyterhub -f`` on itself; other ``jupyterhub`` options pass through):

    RULES_TUTOR_HUB_PASSWORD='at least 8 characters' python deploy/jupyterhub/jupyterhub_config.py \\
        --port 8000 --state ~/rules-tutor-hub --lessons lessons

or with ``jupyterhub -f deploy/jupyterhub/jupyterhub_config.py`` and the same settings in the environment:
RULES_TUTOR_HUB_IP, RULES_TUTOR_HUB_PORT (the learners' port), RULES_TUTOR_HUB_API_PORT and
RULES_TUTOR_PROXY_API_PORT (both on 127.0.0.1 only), RULES_TUTOR_HUB_STATE (the hub's database, cookie secret and
the learners' folders), RULES_TUTOR_LESSONS (the lessons to copy), RULES_TUTOR_HUB_PASSWORD (or
``--password-file``).

The learner servers read ``singleuser/`` (JUPYTER_CONFIG_PATH: voila.json, jupyter_server_config.json) and find the
``rules-tutor`` template through JUPYTER_PATH. They run as this hub's own user, with no isolation between learners:
see the README's "On a school's JupyterHub".
"""

import argparse
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SINGLEUSER_CONFIG = HERE / "singleuser"
"""The learner servers' config folder (JUPYTER_CONFIG_PATH); deploy/z2jh's image copies it to /etc/jupyter."""
DEFAULT_URL = "/voila/render/index.ipynb"
"""Where a learner's server opens: the lessons' landing page (the z2jh chart's singleuser.defaultUrl)."""
IMPLICIT_SPAWN_SECONDS = 1
"""A link to a lesson whose learner has no server running starts it after this delay instead of asking."""
MIN_PASSWORD_LENGTH = 8  # JupyterHub's SharedPasswordAuthenticator refuses shorter ones
PORTS = {
    "port": ("RULES_TUTOR_HUB_PORT", 8000),
    "hub_port": ("RULES_TUTOR_HUB_API_PORT", 8081),
    "proxy_api_port": ("RULES_TUTOR_PROXY_API_PORT", 8001),
}
PATHS = {"state": ("RULES_TUTOR_HUB_STATE", "rules-tutor-hub"), "lessons": ("RULES_TUTOR_LESSONS", "lessons")}
HELP = {
    "port": "the port learners open",
    "hub_port": "the hub's API, on 127.0.0.1",
    "proxy_api_port": "the proxy's API, on 127.0.0.1",
    "state": "the hub's database, secret and learners' folders",
    "lessons": "the lessons to copy for each learner (a folder with index.ipynb)",
}


def launch(argv: list[str]) -> None:
    """``python jupyterhub_config.py [options]``: put the options in the environment, then run the hub on this file."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], allow_abbrev=False, epilog="Other options are passed to jupyterhub."
    )
    parser.add_argument("--ip", help="address the learners reach (default: every address of this machine)")
    for option, (variable, default) in PORTS.items():
        parser.add_argument(
            "--" + option.replace("_", "-"), type=int, help=f"{HELP[option]}; default {default} (${variable})"
        )
    for option, (variable, default) in PATHS.items():
        parser.add_argument("--" + option, help=f"{HELP[option]}; default ./{default} (${variable})")
    parser.add_argument("--password-file", help="a file holding the shared password ($RULES_TUTOR_HUB_PASSWORD)")
    options, rest = parser.parse_known_args(argv)
    settings = {"RULES_TUTOR_HUB_IP": options.ip}
    settings.update({variable: getattr(options, option) for option, (variable, _) in PORTS.items()})
    settings.update(
        {
            variable: getattr(options, option) and str(Path(getattr(options, option)).resolve())
            for option, (variable, _) in PATHS.items()
        }
    )
    if options.password_file:
        settings["RULES_TUTOR_HUB_PASSWORD"] = Path(options.password_file).read_text().strip()
    os.environ.update({name: str(value) for name, value in settings.items() if value is not None})
    os.execvp(sys.executable, [sys.executable, "-m", "jupyterhub", "-f", str(Path(__file__).resolve()), *rest])


def setting(variable: str, default: object) -> str:
    return os.environ.get(variable) or str(default)


def template_path() -> str:
    """The folder holding ``voila/templates/rules-tutor`` (the installed package's)."""
    from tutor.server.process import template_dir

    return str(template_dir())


def configure(c) -> None:  # noqa: ANN001 - JupyterHub's config object
    state = Path(setting(*PATHS["state"])).resolve()
    lessons = Path(setting(*PATHS["lessons"])).resolve()
    password = os.environ.get("RULES_TUTOR_HUB_PASSWORD", "")
    if len(password) < MIN_PASSWORD_LENGTH:
        sys.exit(
            f"Set the class's shared password ({MIN_PASSWORD_LENGTH} characters at least) in "
            "RULES_TUTOR_HUB_PASSWORD or with --password-file."
        )
    if not (lessons / "index.ipynb").is_file():
        sys.exit(f"No lessons at {lessons} (a folder with index.ipynb): give --lessons or RULES_TUTOR_LESSONS.")
    state.mkdir(parents=True, exist_ok=True, mode=0o700)

    # Addresses: learners reach the proxy; the hub's and the proxy's APIs stay on this machine.
    ip = os.environ.get("RULES_TUTOR_HUB_IP", "")
    c.JupyterHub.bind_url = f"http://{ip}:{setting(*PORTS['port'])}"
    c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{setting(*PORTS['hub_port'])}"
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{setting(*PORTS['proxy_api_port'])}"

    # State: everything the hub writes stays in one folder.
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")

    # Login: any name with the class's shared password.
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = password
    c.Authenticator.allow_all = True

    # Learner servers: local processes as this hub's user, each in its own folder with its own lessons.
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(state / "learners" / "{username}")
    c.Spawner.notebook_dir = str(state / "learners" / "{username}" / "lessons")
    c.Spawner.default_url = DEFAULT_URL
    c.Spawner.environment = {"JUPYTER_CONFIG_PATH": str(SINGLEUSER_CONFIG), "JUPYTER_PATH": template_path()}
    c.Spawner.args = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    c.Spawner.http_timeout = 120  # a busy machine: a learner server can take a while to answer first
    c.JupyterHub.implicit_spawn_seconds = IMPLICIT_SPAWN_SECONDS

    def copy_lessons(spawner) -> None:  # noqa: ANN001
        """Refresh the learner's copy of the lessons (their other files stay) before their server starts, with the
        lessons in each other language made from the English ones and the catalogs (tutor.i18n.lesson_languages)."""
        from tutor.i18n.lesson_languages import build_languages

        copy = Path(spawner.format_string(spawner.notebook_dir))
        shutil.copytree(lessons, copy, dirs_exist_ok=True)
        build_languages(copy)

    c.Spawner.pre_spawn_hook = copy_lessons


if __name__ == "__main__":
    launch(sys.argv[1:])
else:  # read by jupyterhub
    configure(get_config())  # noqa: F821 - get_config is given by JupyterHub's config loader
