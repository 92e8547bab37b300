"""The packages to install, found rather than listed (the rest of the set-up is in
pyproject.toml): every package under referee/, so that adding a game's package needs no line
here, and the templates at the top of the checkout, shipped inside the package as
`referee.templates`."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["referee", "referee.*"]) + ["referee.templates"],
    package_dir={"referee.templates": "templates"},
)
