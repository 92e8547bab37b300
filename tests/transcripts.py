"""Transcripts: the examples of README.md and docs/*.md, run as written and compared.

How an example is written, for whoever writes the README or a guide in docs/:

- A ```console block is a transcript. A line that starts with "$ " is a command (a line ending
  in "\\" goes on to the next); the lines after it, up to the next command, are what it prints:
  standard output and standard error together, as a terminal shows them. A command with no lines
  after it is run, and what it prints is not compared. A line "..." on its own stands for any
  number of lines, none included: it leaves out what is too long or too variable to show.
- A command must exit 0, unless it ends in a shell comment "# exit N": then it must exit N. A
  comment "# slow" (or "# slow: about 30 s") marks the whole section slow: the quick suite
  (`-m "not slow"`) leaves it out.
- Every other block (```sh, ```toml, ```text …) is not run. ```sh is for commands that are not
  to be tried in a scratch folder — installing, the test suite, benchmarks —, and
  tests/test_docs_examples.py says where such a block may stand.
- A section is the text under a heading, of any level, up to the next heading. It starts in a
  fresh folder that holds a copy of the checkout's `sample_games/` and `tests/engines/` (the
  examples run as from the top of the checkout), unless its text says that it continues
  another: the word "continues" followed, in the same sentence, by a link to that section's
  heading ("This continues [the game by mail](#a-game-by-mail)."). It then starts in a copy of
  the folder as that section left it, in the same working folder and with the same exported
  variables.
- The commands of a section run one after another in bash, as in one shell session: `cd` and
  `export` carry over to the next command. HOME is the scratch folder, COLUMNS is 80, standard
  input is empty, and REFEREE_NOW is not set unless an example sets it. A path inside the
  scratch folder is printed from ~, as a reader's own would be.

Before output is compared, both sides — what the document shows and what the command printed —
are masked alike, line by line, so that what differs from run to run does not count:

| what | shown as, say | masked to |
|---|---|---|
| a date-time | 2026-11-22T14:01:00Z, 2026-12-04 18:00 UTC, Sat, 28 Nov 2026 12:59:07 +0000 | <time> |
| a date | 2026-11-28 | <date> |
| a game id | 3f2a0c6d8e9b41f7a5c2d0e4b6a8f1c3 | <id> |
| a game's GAMEID (`serve`) | 3f2a0c6d | <gameid> |
| a digest, a key, a signature | sha256:81a6…, ed25519:MCow… | sha256:<digest>, ed25519:<key> |
| a time taken | 0.4 s, 263 ms, a match's ms/move column | <n> s, <n> ms, <ms> |
| a count of the engine's work | 6,426 playouts, 15 positions, nodes 1145 | <n> playouts … |
| the engine's choice | a hint and its line, the other moves of `--lines`, a bot's reply, `bestmove`, `info`, the solver's line | <move>, <moves> |

After a change to what a command prints, `python tests/transcripts.py PAGE.md…` writes the new
output into the pages where it is shown whole (read the diff before committing it).

The masks are the MASKS list below; the engine's words are masked whole, with the lines they
wrap onto (WRAPPED). A document that shows something else that varies must leave
it out with "...".
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
COPIED = ("sample_games", "tests/engines")  # what a scratch folder starts with, from the checkout

# (pattern, replacement), applied in this order to every line on both sides.
MASKS: list[tuple[re.Pattern[str], str]] = [(re.compile(p), r) for p, r in [
    # the engine's choices: a hint, its line, a bot's reply, UGI's answers
    (r"^(Hint for [^:]*): .*$", r"\1: <move>"),
    (r"^(Expected line|Winning line): .*$", r"\1: <moves>"),
    (r"^Winnable: play .*$", "Winnable: play <moves>"),
    (r"^Engine plays .*$", "Engine plays <move>"),
    (r"^(  \d+\. )\S.* — (?:wins|loses|draws) .*$", r"\1<move>"),  # hint --lines: the others
    (r"^(Ply \d+: ).*( \(Engine\))$", r"\1<move>\2"),
    (r"^bestmove \S+$", "bestmove <move>"),
    (r"^info .*$", "info <search>"),
    # dates and times
    (r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d? \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}", "<time>"),
    (r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?(\.\d+)?(Z| UTC|[+-]\d\d:\d\d)?", "<time>"),
    (r"\b\d{4}-\d\d-\d\d\b", "<date>"),
    # a bot's reply in `history` (after the dates: its line ends "<time> Engine")
    (r"^(\s*\d+\. ).*?(\s+<time> Engine)$", r"\1<move>\2"),
    # ids, digests, keys
    (r"sha256:[0-9a-f]+…?", "sha256:<digest>"),
    (r"ed25519:[A-Za-z0-9+/=_-]+…?", "ed25519:<key>"),
    (r"\b[0-9a-f]{32}\b", "<id>"),
    (r"\b(?=[0-9a-f]*\d)[0-9a-f]{8}\b", "<gameid>"),  # GAMEID, the first 8 of an id (`referee serve`)
    # times taken and the engine's work
    (r"\b\d[\d,]*(\.\d+)? (s|ms)\b", r"<n> \2"),
    (r"\b\d[\d,]* (playouts|positions|iterations|nodes)\b", r"<n> \1"),
    # a match's table of engines: the last column is the mean milliseconds a move
    (r"^(.*\(engine(?: \d)?\)\s+(?:\d+\s+){6})\d+$", r"\1<ms>"),
]]


# Lines whose words are the engine's: their continuation lines (wrapped at 78 columns, so as
# many as the words need) are joined to them before masking.
WRAPPED = re.compile(r"^(Hint for |Expected line: |Winning line: |Winnable: |Engine plays )")


def joined(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and line.startswith("  ") and WRAPPED.match(out[-1]):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def mask(line: str) -> str:
    line = line.rstrip()
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    return line


@dataclass
class Command:
    text: str           # as the reader types it, continuation lines joined
    shown: list[str]    # the output the document shows (empty: not compared)
    exit: int = 0
    line: int = 0       # where it stands in the document (1-based), for messages
    output: tuple[int, int] = (0, 0)  # the 0-based file lines of its shown output: [start, end)


@dataclass
class Section:
    page: Path
    heading: str
    anchor: str
    commands: list[Command] = field(default_factory=list)
    continues: tuple[Path, str] | None = None  # the page and anchor of the section continued
    slow: bool = False
    unrun: list[tuple[int, str]] = field(default_factory=list)  # (line, language) of blocks not run

    @property
    def name(self) -> str:
        return f"{self.page.name}#{self.anchor}"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


CONTINUES = re.compile(r"\bcontinues\b[^.]*?\]\(([^)\s]*#[^)\s]+)\)", re.S)
EXIT = re.compile(r"\s#\s*exit (\d+)\s*$")
SLOW = re.compile(r"\s#\s*slow\b")


def sections(page: Path) -> list[Section]:
    """The page's sections, in order, with their commands."""
    found: list[Section] = []
    seen: dict[str, int] = {}
    current = Section(page, "", "")
    prose: list[str] = []
    lines = page.read_text(encoding="utf-8").splitlines()

    def close() -> None:
        text = "\n".join(prose)
        hit = CONTINUES.search(text)
        if hit:
            path, _, anchor = hit.group(1).partition("#")
            current.continues = ((page.parent / path).resolve() if path else page, anchor)
        found.append(current)
        prose.clear()

    number = 0
    while number < len(lines):
        line = lines[number]
        heading = re.match(r"^(#{1,6}) (.+)$", line)
        fence = re.match(r"^```(\S*)\s*$", line)
        if heading:
            close()
            anchor = slug(heading.group(2))
            anchor_seen = seen.get(anchor, 0)
            seen[anchor] = anchor_seen + 1
            current = Section(page, heading.group(2), f"{anchor}-{anchor_seen}" if anchor_seen else anchor)
        elif fence:
            language, start = fence.group(1), number + 1
            number += 1
            block = []
            while number < len(lines) and not lines[number].startswith("```"):
                block.append(lines[number])
                number += 1
            if language == "console":
                current.commands.extend(_commands(block, start + 1))
                current.slow = current.slow or any(SLOW.search(c.text) for c in current.commands)
            else:
                current.unrun.append((start, language))
        else:
            prose.append(line)
        number += 1
    close()
    return [s for s in found if s.heading]


def _commands(block: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    index = 0
    while index < len(block):
        line = block[index]
        if line.startswith("$ "):
            text, start = line[2:], index
            while text.endswith("\\") and index + 1 < len(block):
                index += 1
                text = text + "\n" + block[index]  # bash reads the backslash-newline as the reader does
            code = EXIT.search(text)
            after = first_line + index  # 0-based: the file line after the command's last line
            commands.append(Command(text, [], int(code.group(1)) if code else 0,
                                    first_line + start, (after, after)))
        elif commands:
            commands[-1].shown.append(line)
            commands[-1].output = (commands[-1].output[0], first_line + index)
        else:
            raise ValueError(f"line {first_line + index}: a console block starts with a command ('$ ')")
        index += 1
    for command in commands:
        while command.shown and not command.shown[-1].strip():
            command.shown.pop()
    return commands


@dataclass
class Shell:
    """A scratch folder and the state of the shell session running in it."""
    root: Path
    cwd: Path
    env: dict[str, str]

    @classmethod
    def fresh(cls, root: Path) -> "Shell":
        root.mkdir(parents=True)
        for name in COPIED:
            shutil.copytree(CHECKOUT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        env = {key: value for key, value in os.environ.items() if not key.startswith("REFEREE_")}
        bin_dir = str(Path(sys.executable).parent)  # `referee` and `python` of this interpreter
        env.update(HOME=str(root), COLUMNS="80", PYTHONUNBUFFERED="1", PYTHONUTF8="1",
                   PATH=os.pathsep.join([bin_dir, env.get("PATH", "")]))
        return cls(root, root, env)

    def copy(self, root: Path) -> "Shell":
        shutil.copytree(self.root, root, symlinks=True)
        env = {key: value.replace(str(self.root), str(root)) for key, value in self.env.items()}
        return Shell(root, root / self.cwd.relative_to(self.root), env)

    def run(self, command: str, timeout: float = 300) -> tuple[int, str]:
        """Run one command as bash would in this session; keep its working folder and exports."""
        state = self.root.parent / f".{self.root.name}.state"
        script = (f"cd {shlex.quote(str(self.cwd))} || exit 99\n{command}\n"
                  f"__status=$?\npwd > {shlex.quote(str(state))}.cwd\n"
                  f"env -0 > {shlex.quote(str(state))}.env\nexit $__status\n")
        done = subprocess.run(["bash", "-c", script], cwd=self.cwd, env=self.env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
        cwd_file, env_file = Path(f"{state}.cwd"), Path(f"{state}.env")
        if cwd_file.exists():
            self.cwd = Path(cwd_file.read_text().strip())
            self.env = dict(item.split("=", 1) for item in env_file.read_text().split("\0") if "=" in item)
            cwd_file.unlink()
            env_file.unlink()
        # The scratch folder is HOME: a path in it is shown as from ~, as the reader's would be.
        return done.returncode, done.stdout.decode("utf-8", "replace").replace(str(self.root), "~")


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, masked alike, "..." standing for any lines."""
    want = [mask(line) for line in joined(shown)]
    got = [mask(line) for line in joined(printed)]
    while got and not got[-1]:
        got.pop()

    # can[i][j]: want[i:] fits got[j:]; filled from the ends, so no recursion however long.
    can = [[False] * (len(got) + 1) for _ in range(len(want) + 1)]
    can[len(want)][len(got)] = True
    for i in range(len(want) - 1, -1, -1):
        for j in range(len(got), -1, -1):
            if want[i] == "...":
                can[i][j] = can[i + 1][j] or (j < len(got) and can[i][j + 1])
            else:
                can[i][j] = j < len(got) and want[i] == got[j] and can[i + 1][j + 1]
    return can[0][0]


def run(section: Section, shell: Shell) -> list[tuple[Command, int, str]]:
    """Run the section's commands in the shell: each with its exit code and what it printed."""
    return [(command, *shell.run(command.text)) for command in section.commands]


def faults(ran: list[tuple[Command, int, str]], page: Path) -> list[str]:
    """What did not go as the page shows, each with what was printed."""
    found = []
    for command, code, printed in ran:
        where = f"{page.name}:{command.line}: $ {command.text}"
        if code != command.exit:
            found.append(f"{where}\nexit {code}, expected {command.exit}:\n{printed}")
        elif command.shown and not matches(command.shown, printed.splitlines()):
            found.append(f"{where}\nprinted:\n{printed}\nthe page shows:\n" + "\n".join(command.shown))
    return found


def check(section: Section, shell: Shell) -> list[str]:
    return faults(run(section, shell), section.page)


def update(page: Path, scratch: Path) -> int:
    """Write what each command printed into the page where the page shows output that no longer
    matches and leaves nothing out ("..."): for whoever changed what the referee prints. Read
    the diff before committing it. Returns how many outputs were rewritten."""
    lines = page.read_text(encoding="utf-8").splitlines()
    shells: dict[str, Shell] = {}
    edits = []
    for number, section in enumerate(sections(page)):
        root = scratch / f"{number:03d}"
        if section.continues and section.continues[0] == page and f"{page.name}#{section.continues[1]}" in shells:
            shell = shells[f"{page.name}#{section.continues[1]}"].copy(root)
        elif section.continues:
            raise SystemExit(f"{section.name}: continues a section of another page; run the test")
        else:
            shell = Shell.fresh(root)
        for command, code, printed in run(section, shell):
            if code != command.exit:
                print(f"{page.name}:{command.line}: exit {code}, expected {command.exit}\n{printed}")
            elif command.shown and "..." not in command.shown and not matches(command.shown, printed.splitlines()):
                edits.append((command.output, printed.rstrip("\n").splitlines()))
        shells[section.name] = shell
    for (start, end), new in sorted(edits, reverse=True):
        tail = []
        old = lines[start:end]
        while old and not old[-1].strip():
            tail.append(old.pop())
        lines[start:end] = [l.rstrip() for l in new] + tail
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(edits)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        for name in sys.argv[1:]:
            print(f"{name}: {update(Path(name).resolve(), Path(scratch) / Path(name).stem)} outputs rewritten")
