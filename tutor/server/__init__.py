"""``rules-tutor serve``: the lessons as a Voila web app (settings in ``voila.json``), for one learner or a class.

- ``process``: the server process seen from the terminal: Voila's command line with the tutor's template
  (``voila_command``), its start and its orderly stop on Ctrl+C or SIGTERM (``run``, ``stop``).
- ``class_mode``: inside Voila's process (``python -m tutor.server``): Voila with the tutor's lesson page handler,
  the class limit, preheated kernel pools and the door for pages that never connect (``classroom_voila_class``).
- ``voila_adapter``: every use of Voila's private internals, each with its own test (tests/test_voila_adapter.py).
- ``command``: ``cmd_serve``, which checks the options, writes class mode's settings and runs the process.
- ``text_pages``: the pages without a board, rendered once and served without a kernel; under a Jupyter server
  (a hub, Binder) through the extensions ``text_pages_extension`` and ``leaving_page_extension`` (a closing page
  frees its kernel), which ``server_settings`` enables with the settings all three routes share.

The template the pages use is its own folder, ``tutor/voila_template`` (``process.template_dir``); the class's
data and endpoints are ``tutor.classroom``.
"""
