"""What judging one message needs at hand: the robot, its database, the sender, and the decision
being gathered (state.py) — the new records, the replies queued, the state changed. The reply
guards of RFC 3834 that concern a single reply live here: at most RATE replies an hour to one
address, every reply an answer to the message (In-Reply-To).
"""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

from referee.record.clock import now
from referee.serve.letters import Reply, Robot, deterministic_id, plain_mail
from referee.serve.state import Decision, Store

RATE = 30  # SPEC §15: replies an hour to one address, at most
HOUR = dt.timedelta(hours=1)


class Context:
    def __init__(self, store: Store, robot: Robot, decision: Decision, sender: str, sender_name: str,
                 reply: Reply | None, log: Callable[[str], None]):
        self.store = store
        self.robot = robot
        self.decision = decision
        self.sender = sender  # the bare address of From:, lower case
        self.sender_name = sender_name  # "Ann <ann@example.org>", fit for [players]
        self.reply = reply
        self.log = log
        self.now = now()

    @property
    def folder(self) -> Path:
        return self.store.folder

    def send(self, address: str, message: EmailMessage) -> bool:
        """Queue `message` for `address` (its one recipient), unless RATE replies went to that
        address within the hour: then it is dropped, and the log says so."""
        address = address.lower()
        queued = sum(1 for letter in self.decision.letters if letter.address == address)
        if self.store.replies_since(address, self.now - HOUR) + queued >= RATE:
            self.log(f"not sent to {address}: {RATE} replies within the hour already ({message['Subject']})")
            return False
        deterministic_id(message, f"{self.decision.message}#{len(self.decision.letters) + 1}", self.robot)
        self.decision.letter(address, bytes(message))
        return True

    def tell_sender(self, subject: str, body: str) -> None:
        """A mail of words to the sender: an error, help."""
        self.send(self.sender, plain_mail(self.robot, self.sender, subject, body, self.reply))
