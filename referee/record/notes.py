"""Sealed notes (SPEC §12): a note kept in the ply it was written with, readable by its writer
alone until the writer reveals the key.

Like record/signing.py this is the `sign` extra (the cryptography package), imported only through
play/keys.py's guard, and nothing is hand-made here: the note key is HKDF-SHA256 of the seat's
Ed25519 private key (its 32 raw bytes), salted with the game's `id` (its 32 hex digits as
ASCII); a note is ChaCha20-Poly1305 under that key with a random 12-byte nonce, its associated
data binding the game `id` and the ply number, so that a note moved to another ply or game does
not open. The ply stores `note = "sealed:<base64 of nonce | ciphertext>"`; its digest and
signature cover it.
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from referee.record.values import NOTE_PREFIX

INFO = b"referee sealed notes 1"  # HKDF's context: this key is for nothing but notes
NONCE_BYTES = 12


def note_key(signer, game_id: str) -> bytes:
    """The 32-byte note key of the seat whose private key `signer` holds, for game `game_id`."""
    raw = signer.key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                   serialization.NoEncryption())
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=game_id.encode("ascii"), info=INFO).derive(raw)


def key_text(key: bytes) -> str:
    """A note key as [[reveal]] writes it: base64."""
    return base64.b64encode(key).decode("ascii")


def key_bytes(text: str) -> bytes:
    return base64.b64decode(text, validate=True)


def _associated(game_id: str, ply: int) -> bytes:
    return f"referee note\n{game_id}\nply {ply}".encode("ascii")


def seal_note(key: bytes, game_id: str, ply: int, text: str) -> str:
    """`text` sealed for ply `ply` of game `game_id`, as the ply stores it."""
    nonce = os.urandom(NONCE_BYTES)
    sealed = ChaCha20Poly1305(key).encrypt(nonce, text.encode("utf-8"), _associated(game_id, ply))
    return NOTE_PREFIX + base64.b64encode(nonce + sealed).decode("ascii")


def open_note(key: bytes, game_id: str, ply: int, note: str) -> str | None:
    """The text of a ply's note, or None when it does not open under `key` for that ply of that
    game (another key, another ply or game, or a changed ciphertext)."""
    try:
        data = base64.b64decode(note[len(NOTE_PREFIX):], validate=True)
        plain = ChaCha20Poly1305(key).decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], _associated(game_id, ply))
        return plain.decode("utf-8")
    except (InvalidTag, ValueError):
        return None
