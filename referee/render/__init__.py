"""Diagrams: view models built from a replay, drawn by the Jinja templates in `templates/`."""
