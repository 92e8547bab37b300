"""The engine as a player meets it (SPEC §10, §11, §14): hints, UGI for other programs, and
matches between programs under the referee's judgement.

  hint.py          `referee hint`: the move the search finds, in words and JSON
  ugi.py           `referee engine`: the engine over UGI on standard input and output
  thinking.py      one `go`: the search on a thread, answered by its deadline whatever fails
  wire.py          a move on UGI's wire, and words kept to one line
  process.py       an engine program run as a process: bounded reads and writes, its
                   processes ended with it
  match.py         `referee match`: the games played and judged, each a sealed record
  match_files.py   the openings file, the records' folder and what --force may replace
  match_report.py  what a match comes to: tallies, Elo with its interval, the standings

May import: referee.search, referee.play, referee.club (a match's standings), referee.record,
referee.games, referee.errors, referee.text.
"""
