"""The referee as a play-by-mail robot (SPEC §15): `referee serve` reads a mailbox, judges the
commands in each mail by the rules that judge `move`, writes the records into a folder and mails
each player the game with its record, so that anyone can `validate` it offline.

  service.py     `referee serve`: the round (recover, handle, remind), --once and --watch, SIGTERM
  robot.py       one message, acted on exactly once through steps a crash cannot split; the
                 mail never answered (RFC 3834); reading a stranger's message
  commands.py    the commands of a mail's text, as values (pure)
  newgame.py     `new GAME … vs ADDRESS`: the record as `referee new` writes it, the tokens
  turns.py       a game's commands: who may act (token and address, or a signature), the ply
                 through the one turn transaction, the mails after it
  conditions.py  hidden conditional moves and lines, kept by the robot until played
  reminders.py   3 days and 1 day before a deadline
  letters.py     the robot's mails, built as `referee mail` builds one, and queued: at most
                 30 replies an hour to an address (Context: what judging one message has at hand)
  tokens.py      a seat's token: random words, stored only as a salted hash (scrypt)
  state.py       the robot's SQLite database (WAL) beside the records, and the folder's lock
  mailboxes.py   the embedded default, Maildir in and out (the standard library's mailbox);
                 IMAP in (IDLE, or polling), SMTP out; passwords from the environment or ~/.netrc

May import: referee.correspondence (a message built as `mail` builds it), referee.render (the
diagrams), referee.play (the turn, the engine's replies as `move` has them), referee.record,
referee.data, referee.games, referee.text, referee.errors. Not referee.engine, referee.club or
referee.cli: a bot's reply goes through play/bots.py, as `move`'s does.
"""
