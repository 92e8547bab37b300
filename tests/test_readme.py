"""The README and docs/ as a reader meets them: every link leads somewhere, the player's
sections come in the order a newcomer needs them, and the developer's notes are one link away."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
README = CHECKOUT / "README.md"
PAGES = [README, *sorted((CHECKOUT / "docs").glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text without code blocks and inline code, where brackets are not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors, seen = set(), {}
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        slug = _slug(heading)
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _links(page: Path) -> list[str]:
    return [target for target in LINK.findall(_prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", target)]  # https:, mailto: are not ours to check


def test_there_are_links_to_check():
    assert sum(len(_links(page)) for page in PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_leads_to_a_file_and_heading_inside_the_checkout(page):
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if CHECKOUT not in goal.parents or not goal.is_file():
            broken.append(f"{target}: no such file in the checkout")
        elif anchor and goal.suffix == ".md" and anchor not in _anchors(goal):
            broken.append(f"{target}: no heading #{anchor} in {goal.name}")
    assert not broken, broken


def test_the_readme_puts_the_players_sections_first_and_development_last():
    headings = re.findall(r"^## (.+)$", _prose(README.read_text(encoding="utf-8")), flags=re.M)
    order = ["Set-up", "A game by mail", "The games", "Commands", "The record", "Trust",
             "Playing with the engine", "Engine matches", "Club play", "Guides", "Development"]
    assert [h for h in headings if h in order] == order
    assert headings[-1] == "Development"


def test_the_readme_is_a_players_page_of_at_most_500_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 500


def test_the_readme_links_every_page_in_docs():
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in _links(README)}
    notes = set((CHECKOUT / "docs").glob("*.md"))
    assert notes and notes <= linked


def test_every_guide_links_back_to_the_readme_or_another_page():
    for page in PAGES[1:]:
        assert _links(page), f"{page.name} links nowhere"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_nothing_a_reader_follows_points_outside_the_checkout(page):
    """Links, paths and words: nothing that only the people who wrote the referee have."""
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"\.\./shared|/work/|\bSPEC\b|RULINGS\.md", text)


def _setup_commands() -> list[str]:
    readme = README.read_text(encoding="utf-8")
    setup = readme[readme.index("## Set-up"):readme.index("## A game by mail")]
    return re.findall(r"^```sh\n(.*?)\n```", setup, flags=re.S | re.M)


def test_the_readme_sets_up_with_two_commands_one_to_play_and_one_to_test():
    play, test = _setup_commands()[:2]
    for command in (play, test):
        assert "\n" not in command and command.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install ")
    assert "pip install . && referee new " in play
    assert test.endswith("&& python -m pytest")


def test_ci_runs_exactly_the_test_command_of_the_readme():
    """.ci/run runs the README's test command, word for word: what CI passes is what a
    developer who follows the README runs."""
    test_command = _setup_commands()[1].rpartition(" && ")[2]
    ci = (CHECKOUT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci


def test_the_readme_shows_the_quick_test_command_beside_the_full_one_with_their_times():
    readme = README.read_text(encoding="utf-8")
    setup = readme[readme.index("## Set-up"):readme.index("## A game by mail")]
    quick = next(line for line in setup.splitlines() if line.startswith('python -m pytest -m "not slow"'))
    full = next(line for line in setup.splitlines() if re.match(r"python -m pytest +#", line))
    assert re.search(r"\d+ min", quick) and re.search(r"\d+ min", full)
