"""The teacher's view of a class (``rules-tutor serve`` in class mode).

- ``database``: ``ClassDatabase``, the one owner of the class's SQLite file (learners, their lessons and answers,
  the class's settings, archived classes).
- ``guard``: page keys (which pages this server served, for which class, until when), rate limits per page and
  per device, joins per device, what a device is (``device_of``), and the checks of a learner's JSON body.
- ``handlers``: the tornado handlers Voila's server registers in class mode (learners' join, events and state).
- ``teacher``: the teacher's view, data, CSV and actions behind a secret token (kept in an HttpOnly cookie).
- ``endpoints``: ``routes``, the learners' and the teacher's endpoints together, for Voila's server.
- ``names``: what a typed name looks like (a skeleton), so that it cannot pass for a classmate or an unnamed
  learner.
- ``pages``: what class mode sends instead of a lesson ("Too many lessons open", "Not open yet").
- ``static/``: the teacher's page (HTML, CSS, JS; nothing from the internet). The learners' side is the Voila
  template's ``classroom.js``, and the lesson kernel's is ``tutor.ui.kernel_report`` (the quiz verdicts).
"""
