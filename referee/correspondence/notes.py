"""Sealed notes (SPEC §12): `referee notes`, which shows the notes a key opens and every revealed
note, and `referee reveal`, which makes a seat's note key public in the record, signed by that
seat, so that anyone may read its notes from then on.

The cipher is record/notes.py's (the `sign` extra), reached through play/keys.py's guard.
"""

from __future__ import annotations

from typing import Any

from referee.errors import RecordError, UsageError
from referee.play.keys import note_cipher, notes_opened, private_key, revealed_keys
from referee.play.replay import Replay
from referee.play.reports import load
from referee.play.words import in_words, who, who_and_seat
from referee.record import seal
from referee.record.files import check_output, locked, write_atomic
from referee.text import plain


def notes(path: str, key_file: str | None = None) -> dict[str, Any]:
    """`referee notes --json`: every ply with a note, its text where `key_file` (a seat's private
    key) or a reveal opens it, else null. A note of that seat, or of a revealed seat, that does
    not open is exit 1, naming its ply."""
    play = load(path)
    keys: dict[int, bytes] = {}
    how: dict[int, str] = {}
    if play.record.reveals:
        keys = revealed_keys(play)
        how = dict.fromkeys(keys, "revealed")
    if key_file is not None:
        seat, key = _own_key(play, key_file)
        keys[seat], how[seat] = key, "key"
    listed = []
    for ply, (problem, text) in notes_opened(play, keys).items():
        seat, entry = play.line[ply].mover, play.record.moves[ply - 1]
        if problem:
            raise RecordError(in_words(play, problem), file=play.record.path, line=entry.line, ply=ply,
                              move=entry.move)
        listed.append({"ply": ply, "seat": seat, "player": play.record.player_name(seat),
                       "move": play.entries[ply - 1], "text": text,
                       "opened": how.get(seat) if text is not None else None})
    return {"notes": listed, "revealed": sorted(seat for seat in how if how[seat] == "revealed")}


def notes_lines(play_path: str, report: dict[str, Any]) -> list[str]:
    """`referee notes` in words: a ply a line, the note's text below it, or "sealed"."""
    lines = []
    for item in report["notes"]:
        player = item["player"] or f"seat {item['seat']}"
        head = f"Ply {item['ply']} ({item['move']}), {player}"
        if item["text"] is None:
            lines.append(plain(f"{head}: sealed"))
        else:
            lines.append(plain(f"{head}{' (revealed)' if item['opened'] == 'revealed' else ''}:"))
            lines += ["  " + plain(line) for line in item["text"].splitlines() or [""]]
    return lines or [f"{play_path}: no notes."]


def _own_key(play: Replay, key_file: str) -> tuple[int, bytes]:
    """The seat whose private key is in `key_file`, and its note key for this game."""
    signer = private_key(key_file)
    seats = [seat for seat, public in play.record.keys().items() if public == signer.public]
    if not play.record.keys():
        raise UsageError("notes need a key: `referee key new`, given to each seat when the game is made "
                         "(referee new … --key SEAT=PUBLIC_KEY); this game's seats have none")
    if not seats:
        raise UsageError(f"{key_file}: that key is no seat's key in [players]")
    if play.record.id is None:
        raise UsageError("notes are sealed to the game's id, and this record has none")
    cipher = note_cipher("sealed notes: ")
    return seats[0], cipher.note_key(signer, play.record.id)


def reveal(path: str, key_file: str) -> tuple[Replay, int]:
    """`referee reveal`: append `[[reveal]] seat = N, key = "<note key>"`, signed by that seat,
    under the record's lock, after checking that the key opens every note of the seat (a
    record the referee writes is one it reads). Never the private key."""
    check_output(path, force=True)  # a read-only record is refused before any work
    with locked(path):
        play = load(path)
        seat, key = _own_key(play, key_file)
        if any(r["seat"] == seat for r in play.record.reveals):
            raise UsageError(f"{who_and_seat(play, seat)}'s notes are revealed already")
        cipher = note_cipher()
        for ply, (problem, _) in notes_opened(play, {seat: key}).items():
            if problem:
                entry = play.record.moves[ply - 1]
                raise RecordError(in_words(play, problem), file=path, line=entry.line, ply=ply, move=entry.move)
        text = cipher.key_text(key)
        signer = private_key(key_file)
        play.record.reveals.append({"seat": seat, "key": text,
                                    "signature": signer.sign(seal.reveal_digest(play.record, seat, text))})
        write_atomic(path, play.record.to_toml())
    return play, seat


def reveal_words(play: Replay, seat: int, path: str) -> str:
    return plain(f"{who(play, seat)}'s notes are revealed: anyone's `referee notes {path}` shows them, "
                 "and any note written with this key in this game from now on.")
