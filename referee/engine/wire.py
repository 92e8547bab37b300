"""UGI's wire (SPEC §10): a move written as its canonical notation with every space as `_`
(`b_e5`, `A_d4-d5*c5;_F_c1xc4`), and the words the referee says on it kept to one line, so that
nothing said can pass for another command's answer. The engine (ugi.py, thinking.py) and the
arbiter (match.py) speak it alike.
"""

from __future__ import annotations

from typing import Any


def wire(move: Any) -> str:
    """A move as UGI writes it: canonical notation, spaces as `_`."""
    return str(move).replace(" ", "_")


def one_line(text: str, most: int = 300) -> str:
    """Words said on the wire: one line (nothing in them can start another command's answer)."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text[:most + 1])
    return text if len(text) <= most else text[:most] + "…"
