"""Every example in README.md and the guides in docs/ runs as written, section by section, in a
scratch folder, and prints what the page shows (the conventions: tests/transcripts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from transcripts import CHECKOUT, Section, Shell, check, sections

PAGES = [CHECKOUT / "README.md", *sorted((CHECKOUT / "docs").glob("*.md"))]
ALL = [section for page in PAGES for section in sections(page)]
RUN = [section for section in ALL if section.commands]

# Blocks that are not run (```sh and the like hold commands for a real checkout: installing,
# the test suite, benchmarks): the pages, or sections, where they may stand.
UNRUN_SH = {
    "README.md#set-up",
    "matches.md#a-cluster-of-several-machines",
    "development.md",
    "performance.md",
    "engine-strength.md",
}


def _by_name(page: Path, anchor: str) -> Section:
    for section in ALL:
        if section.page == page and section.anchor == anchor:
            return section
    raise LookupError(f"no section #{anchor} in {page.name}")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The shells of the sections run so far, by name, for the sections that continue them."""
    shells: dict[str, Shell] = {}
    yield shells, tmp_path_factory.mktemp("docs")


def _shell_for(section: Section, finished) -> tuple[Shell, list[str]]:
    """A shell to run the section in: fresh, or a copy of the one the section continues (run
    first if it has not been run in this session)."""
    shells, base = finished
    root = base / f"{len(list(base.iterdir())):03d}"
    if section.continues is None:
        return Shell.fresh(root), []
    before = _by_name(*section.continues)
    faults = []
    if before.name not in shells:
        shell, faults = _shell_for(before, finished)
        faults += check(before, shell)
        shells[before.name] = shell
    return shells[before.name].copy(root), faults


def _run(section: Section, finished) -> None:
    shell, faults = _shell_for(section, finished)
    faults += check(section, shell)
    finished[0][section.name] = shell
    if faults:
        pytest.fail("\n\n".join(faults), pytrace=False)


@pytest.mark.parametrize("section", [s for s in RUN if not s.slow], ids=lambda s: s.name)
def test_the_examples_run_as_written(section, finished):
    _run(section, finished)


@pytest.mark.slow
@pytest.mark.parametrize("section", [s for s in RUN if s.slow], ids=lambda s: s.name)
def test_the_slow_examples_run_as_written(section, finished):
    _run(section, finished)


def test_there_are_examples_on_every_players_page():
    notes = {"development.md", "performance.md", "robustness.md", "engine-strength.md", "rulings.md"}
    players = [page for page in PAGES if page.name not in notes]
    bare = [page.name for page in players
            if not any(s.commands for s in ALL if s.page == page)]
    assert not bare, bare
    assert sum(len(s.commands) for s in RUN) >= 100


def test_every_continued_section_exists_and_comes_first():
    for section in ALL:
        if section.continues:
            before = _by_name(*section.continues)
            assert not before.slow or section.slow, f"{section.name} continues a slow section"
            if before.page == section.page:
                assert ALL.index(before) < ALL.index(section), section.name


def test_commands_that_are_not_run_stand_only_where_they_may():
    stray = [f"{s.name} (line {line}: ```{language})" for s in ALL for line, language in s.unrun
             if language in {"sh", "bash", "shell", ""}
             and s.name not in UNRUN_SH and s.page.name not in UNRUN_SH]
    assert not stray, stray


# -- the runner itself: a page that is wrong is caught ------------------------------------------

PAGE = """# A page

## Right

```console
$ echo "Seat 2 to move, 2026-11-28T13:00:00Z"
Seat 2 to move, 2020-01-01T00:00:00Z
$ printf 'a\\nb\\nc\\n'
a
...
$ false    # exit 1
$ cd sub 2>/dev/null || mkdir sub && cd sub && export WHERE=sub
```

## Next

This continues [the section above](#right): the folder and the variables carry over.

```console
$ echo "$WHERE $(basename "$PWD")"
sub sub
```

## Wrong

```console
$ echo 3 groups
4 groups
$ true    # exit 2
```
"""


def test_the_runner_compares_masked_output_keeps_a_session_and_catches_what_is_wrong(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    _, right, after, wrong = sections(page)
    assert after.continues == (page, "right")
    shell = Shell.fresh(tmp_path / "scratch")
    assert check(right, shell) == []
    assert check(after, shell) == []
    found = check(wrong, Shell.fresh(tmp_path / "other"))
    assert len(found) == 2
    assert "4 groups" in found[0] and "exit 0, expected 2" in found[1]
