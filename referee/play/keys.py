"""Keys and signatures (SPEC §9): a new key pair, a private key read to sign with, and the
signatures of a record checked.

Signing needs the cryptography package, an optional extra (`pip install 'referee[sign]'`):
referee/signing.py is imported by `signing()` alone, so a referee without the extra plays
unsigned games and says what to install when a signature is asked for.
"""

from __future__ import annotations

from referee.errors import RecordError, UsageError
from referee.record import seal
from referee.record.files import check_output, read_input, write_atomic
from referee.record.players import named, names_of
from referee.play.replay import Replay


def signing(context: str = ""):
    """The signing module (the `sign` extra), or a clear refusal where it is not installed."""
    try:
        from referee.record import signing as module
    except ImportError:
        raise UsageError(
            f"{context}signed moves need the cryptography package: pip install 'referee[sign]'"
        ) from None
    return module


def private_key(path: str):
    """The private key in a file made by `referee key new`, ready to sign."""
    module = signing()
    try:
        return module.load_signer(read_input(path, "key file"))
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def new_key(output: str, force: bool) -> str:
    """`referee key new`: write a new private key to `output`; returns the public key."""
    check_output(output, force)
    pem, public = signing().new_key_pair()
    write_atomic(output, pem, force=True, mode=0o600)  # private from its first byte
    return public


def check_signatures(play: Replay) -> None:
    """Raise the first bad signature of a record, if it has signed plies, and the first fault
    of its [[reveal]] tables (SPEC §12): a reveal not signed by its seat, or a note of that
    seat that does not open under the key it revealed."""
    names = names_of(play.record.players)  # the seats by their players' names (SPEC §8b)
    if any(e.signature for e in play.record.moves):
        problems = signing(f"{play.record.path}: has signed plies; ").signature_problems(
            play.record, play.digests, play.movers)
        if problems:
            raise problems[0].named(lambda reason: named(reason, names))
    if play.record.reveals:
        try:
            _check_reveals(play)
        except RecordError as exc:
            raise exc.named(lambda reason: named(reason, names)) from None


def note_cipher(context: str = ""):
    """The sealed notes' module (the `sign` extra), or a clear refusal where it is not installed."""
    signing(context)  # the same package, and the same advice
    from referee.record import notes as module

    return module


def revealed_keys(play: Replay) -> dict[int, bytes]:
    """The note key each seat revealed, as bytes (the reveals are checked by check_signatures)."""
    cipher = note_cipher()
    return {reveal["seat"]: cipher.key_bytes(reveal["key"]) for reveal in play.record.reveals}


def _check_reveals(play: Replay) -> None:
    record = play.record
    module = signing(f"{record.path}: has [[reveal]] tables; ")
    for reveal in record.reveals:
        seat, key = reveal["seat"], reveal["key"]
        digest = seal.reveal_digest(record, seat, key)
        if not module.signature_valid(record.keys()[seat], digest, reveal["signature"]):
            raise RecordError(f"[[reveal]] of seat {seat}: the signature is not seat {seat}'s, or the "
                              "revealed key was changed", file=record.path)
    for ply, (problem, _) in notes_opened(play, revealed_keys(play)).items():
        if problem:
            entry = record.moves[ply - 1]
            raise RecordError(problem, file=record.path, line=entry.line, ply=ply, move=entry.move)


def notes_opened(play: Replay, keys: dict[int, bytes]) -> dict[int, tuple[str | None, str | None]]:
    """Every ply with a note: (the fault, when the key of its seat in `keys` does not open it;
    its text, when that key opens it). A ply whose seat is not in `keys` gives (None, None)."""
    cipher = note_cipher() if keys else None
    found = {}
    for ply, entry in enumerate(play.record.moves, 1):
        if entry.note is None:
            continue
        seat = play.line[ply].mover
        if seat not in keys:
            found[ply] = (None, None)
            continue
        text = cipher.open_note(keys[seat], play.record.id or "", ply, entry.note)
        problem = None if text is not None else (
            f"seat {seat}'s note does not open under seat {seat}'s note key: it was written for "
            "another ply or game, or changed")
        found[ply] = (problem, text)
    return found


def signature_note(play: Replay) -> str:
    """Check a record's signatures where the signing library is installed; say so where not."""
    try:
        check_signatures(play)
    except UsageError:
        return " (signatures not checked: pip install 'referee[sign]')"
    return ""
