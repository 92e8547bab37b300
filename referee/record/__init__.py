"""The record (SPEC §3, §6, §9): the file that is the game, as values and as bytes.

  values.py        the record's values (Record, Entry) and their canonical TOML; its limits
  reading.py       a record read strictly: keys, types, dates, players, bot seats, every ply
  toml_reading.py  TOML text into values, exactly as tomllib reads it (a faster reader guarded)
  toml_lines.py    where a ply or a table stands in the text, for messages
  files.py         every input read with one cap, outputs written whole, one writer per record
  seal.py          the digest chain over the header and every ply
  signing.py       Ed25519 keys and the signatures of plies
  notes.py         sealed notes: the note key derived from a private key, notes sealed and opened
  players.py       who a [players] entry names, and which seat a player means
  clock.py         the correspondence clock, worked out from the record's own time stamps

May import: referee.errors, referee.text and the standard library. Nothing here knows a rule:
the replay (referee.play) judges the moves.
"""
