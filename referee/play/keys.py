"""Keys and signatures (SPEC §9): a new key pair, a private key read to sign with, and the
signatures of a record checked.

Signing needs the cryptography package, an optional extra (`pip install 'referee[sign]'`):
referee/signing.py is imported by `signing()` alone, so a referee without the extra plays
unsigned games and says what to install when a signature is asked for.
"""

from __future__ import annotations

from referee.errors import UsageError
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
    """Raise the first bad signature of a record, if it has signed plies."""
    if not any(e.signature for e in play.record.moves):
        return
    problems = signing(f"{play.record.path}: has signed plies; ").signature_problems(
        play.record, play.digests, play.movers)
    if problems:
        names = names_of(play.record.players)  # the seats by their players' names (SPEC §8b)
        raise problems[0].named(lambda reason: named(reason, names))


def signature_note(play: Replay) -> str:
    """Check a record's signatures where the signing library is installed; say so where not."""
    try:
        check_signatures(play)
    except UsageError:
        return " (signatures not checked: pip install 'referee[sign]')"
    return ""
