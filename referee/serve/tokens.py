"""A seat's token (SPEC §15): random words a player copies into every command, stored by the
robot only as a salted hash, so that its database, stolen, lets nobody act for a player.

The words are the EFF's long list (shipped by xkcdpass): 7,772 plain lower-case words, 12.9
bits each; a token has as many as make at least 64 random bits (five: 64.6 bits). They are
chosen with `secrets`; the hash is scrypt (the standard library's hashlib) with a random salt.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
from functools import lru_cache

MIN_BITS = 64
# scrypt's cost: 16 MB and some 50 ms a check on an ordinary machine. A token has 64 bits or
# more, so the cost is there against a stolen database's hashes being tried offline.
_N, _R, _P = 2**14, 8, 1
_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=1)
def _words() -> tuple[str, ...]:
    from xkcdpass import xkcd_password  # the word list: only where a token is made

    found = xkcd_password.generate_wordlist(wordfile=xkcd_password.locate_wordfile(),
                                            min_length=1, max_length=20)
    return tuple(sorted({w for w in found if _WORD.fullmatch(w)}))


def word_count() -> int:
    """The words a token needs for MIN_BITS bits."""
    return math.ceil(MIN_BITS / math.log2(len(_words())))


def bits() -> float:
    return word_count() * math.log2(len(_words()))


def new_token() -> str:
    """A new token: lower-case words joined by '-'."""
    words = _words()
    return "-".join(secrets.choice(words) for _ in range(word_count()))


def token_hash(token: str) -> str:
    """The salted hash stored for `token`: "scrypt$N$R$P$SALT$HASH" (hex)."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(_normal(token), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def token_matches(token: str, stored: str) -> bool:
    """Whether `token` is the one whose hash is `stored` (in constant time)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt" or len(token) > 400:
            return False
        found = hashlib.scrypt(_normal(token), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                               dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(found.hex(), digest)


def _normal(token: str) -> bytes:
    """A token as typed, compared as written: lower case, no spaces around it."""
    return token.strip().lower().encode("utf-8")
