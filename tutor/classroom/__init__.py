"""The teacher's view of a class (``rules-tutor serve`` in class mode).

- ``database``: ``ClassDatabase``, the one owner of the class's SQLite file (learners, their lessons and answers,
  the class's settings, archived classes).
- ``guard``: page keys (which pages this server served) and the per-page rate limit.
- ``handlers``: the tornado handlers Voila's server registers in class mode (learners' join, events and state; the
  teacher's view, data, CSV and actions behind a secret token).
- ``static/``: the teacher's page (HTML, CSS, JS; nothing from the internet). The learners' side is the Voila
  template's ``classroom.js``.
"""
