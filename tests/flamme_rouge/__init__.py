"""Flamme Rouge: its engine, renderer and widgets, as tests/flanders/ is for In Flanders Field."""
