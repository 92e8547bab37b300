"""Signed moves: Ed25519 key pairs and the signatures of plies (README: "Sealed and signed
records").

This is the `sign` extra (`pip install 'referee[sign]'`, the cryptography package); the rest
of the referee never imports it, so a plain install plays, seals and verifies digests, and
only signing and checking signatures ask for the extra (keys.signing()).

A signature is Ed25519 over a ply's digest, which chains the header and every ply before it.
"""

from __future__ import annotations

import base64
from typing import NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from referee.errors import RecordError
from referee.record.values import Record
from referee.record.seal import KEY_PREFIX


class Signer(NamedTuple):
    """A private key loaded for signing: its public key as [players] writes it, and the key."""

    public: str
    key: ed25519.Ed25519PrivateKey

    def sign(self, digest: str) -> str:
        return KEY_PREFIX + base64.b64encode(self.key.sign(digest.encode("ascii"))).decode("ascii")


def new_key_pair() -> tuple[bytes, str]:
    """A new private key (PEM) and its public key as written in [players]: "ed25519:…"."""
    private = ed25519.Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem, _public_text(private)


def _public_text(private: ed25519.Ed25519PrivateKey) -> str:
    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return KEY_PREFIX + base64.b64encode(raw).decode("ascii")


def load_signer(pem: bytes) -> Signer:
    """The private key in a PEM file made by `referee key new`; raises ValueError."""
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise ValueError("not an Ed25519 key")
    return Signer(_public_text(key), key)


def signature_valid(public: str, digest: str, signature: str) -> bool:
    try:
        if not public.startswith(KEY_PREFIX) or not signature.startswith(KEY_PREFIX):
            return False
        key = ed25519.Ed25519PublicKey.from_public_bytes(base64.b64decode(public[len(KEY_PREFIX):], validate=True))
        key.verify(base64.b64decode(signature[len(KEY_PREFIX):], validate=True), digest.encode("ascii"))
        return True
    except (InvalidSignature, ValueError):
        return False


def signature_problems(record: Record, digests: list[str], movers: list[int]) -> list[RecordError]:
    """Every signed ply whose signature is not that of the seat that made it, given the
    digest of every ply."""
    problems = []
    for ply, (entry, digest, seat) in enumerate(zip(record.moves, digests, movers), 1):
        if entry.signature is None:
            continue
        key = record.players.get(seat, {}).get("key")
        if key is None:
            reason = f"signed, but seat {seat} has no key in [players]"
        elif not signature_valid(key, digest, entry.signature):
            reason = f"the signature is not seat {seat}'s, or the ply was altered"
        else:
            continue
        problems.append(RecordError(reason, file=record.path, line=entry.line, ply=ply, move=entry.move))
    return problems
