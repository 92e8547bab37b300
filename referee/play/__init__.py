"""Playing a game: a record replayed under the rules, a turn taken, what a command says of it.

  replay.py     the one replay pass every command shares: each ply checked, the seal, the
                signatures, the plies written for a seat and the engine's seat
  turn.py       a player's turn as one transaction on a fork: the move, the passes it forces,
                conditional replies, the new record built and sealed once
  lines.py      conditional moves and lines (SPEC §12): the tree of --if/--then and --line
                checked on a fork, matched, and what stands in words
  game_file.py  a new game written; `move` under the record's lock, written once
  bots.py       the engine's seats: their replies in the same transaction (SPEC §10, §14)
  partner.py    the engine as a partner in cooperative crab: its part of the solver's winning
                round whenever one is proven
  choices.py    what a player chose by name: the game, its options and data files, a seat
  keys.py       a key pair made, a private key read, a record's signatures and reveals
                checked, sealed notes opened (the `sign` extra, behind one guard)
  words.py      the words a player reads: seats by name, the result, the words around a board
  reports.py    what a record says, as plain values and lines: status, moves, history,
                validate, verify, solve
  analysis.py   `analyse`: every ply judged by the search (the crab solver first), as the
                dicts a page draws and in words
  archive.py    many records judged, one verdict each, on every core

May import: referee.record, referee.games, referee.search (a bot's reply, the crab solver, an analysis),
referee.data, referee.errors, referee.text. Nothing here draws, mails or prints.
"""
