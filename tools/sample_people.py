"""What every sample generator in tools/ shares: the invented players, the clock, and the
layout of a hand-typed moves array.

Names use example.org/.net/.com addresses, which never reach anyone.
"""

import datetime as dt

UTC = dt.timezone.utc
HOUR = dt.timedelta(hours=1)

ANN = "Ann Example <ann@example.org>"
BO = "Bo Sample <bo@example.net>"
CHIDI = "Chidi Placeholder <chidi@example.com>"
DAGNY = "Dagny Testperson <dagny@example.org>"
EMEKA = "Emeka Demo <emeka@example.net>"
FUMIKO = "Fumiko Fictive <fumiko@example.com>"


def typed_moves_array(moves: list[str | None], notes: dict[int, str], per_row: int) -> list[str]:
    """The lines of a `moves = [...]` array as a player would type it: `per_row` moves a line,
    and before move i the comment notes[i] on a line of its own. A noted move then ends its
    line, or is left out when it is None (a pass the referee works out for itself)."""
    lines, row = ["moves = ["], []

    def flush() -> None:
        if row:
            lines.append("  " + " ".join(row))
            row.clear()

    for index, move in enumerate(moves):
        if index in notes:
            flush()
            lines.append(f"  # {notes[index]}")
            if move is None:
                continue
        row.append(f'"{move}",')
        if len(row) == per_row or index in notes:
            flush()
    flush()
    return lines + ["]"]
