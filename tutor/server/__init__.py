"""``rules-tutor serve``: the lessons as a Voila web app (settings in ``voila.json``), for one learner or a class.

- ``process``: the server process seen from the terminal: Voila's command line with the tutor's template
  (``voila_command``), its start and its orderly stop on Ctrl+C or SIGTERM (``run``, ``stop``).
- ``class_mode``: inside Voila's process (``python -m tutor.server``): Voila with the tutor's lesson page handler,
  the class limit, preheated kernel pools and the door for pages that never connect (``classroom_voila_class``).
- ``voila_adapter``: every use of Voila's private internals, each with its own test (tests/test_voila_adapter.py).
- ``command``: ``cmd_serve``, which checks the options, writes class mode's settings and runs the process.

The template the pages use is its own folder, ``tutor/voila_template`` (``process.template_dir``); the class's
data and endpoints are ``tutor.classroom``, the pages without a board ``tutor.server.text_pages``.
"""
