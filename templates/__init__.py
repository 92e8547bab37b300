"""Jinja templates of the diagrams, shipped inside the package as `referee.templates`."""
