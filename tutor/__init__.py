"""Rules tutor: interactive lessons for tabletop games.

Layout: ``tutor.<game>`` holds a pure rules engine (no widget imports),
``tutor.flamme_rouge.render`` draws states and events on ipycanvas, ``tutor.flamme_rouge.widgets``
wires clicks to engine actions. Lessons in ``lessons/`` only import and display.
"""

__version__ = "0.1.0"
