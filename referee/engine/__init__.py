"""The engine as a player meets it (SPEC §10, §11, §13, §14): hints, UGI for other programs, and
matches between programs under the referee's judgement.

  hint.py          `referee hint`: the move the search finds, in words and JSON
  ugi.py           `referee engine`: the engine over UGI on standard input and output
  thinking.py      one `go`: the search on a thread, answered by its deadline whatever fails
  wire.py          a move on UGI's wire, and words kept to one line
  process.py       an engine program run as a process: bounded reads and writes, its
                   processes ended with it, every line each way offered to a log
  match.py         `referee match`: the match planned, its engines started and named, its
                   pairs handed to workers here, the results counted as they come (SPRT)
  arbiter.py       one game and one pair played and judged, each a sealed record; clocks
  tournament.py    who plays whom: pairs, rounds, round robins and gauntlets; names, file names
  match_files.py   the openings (a file, or random), match.toml for --resume, the records'
                   folder and what --force may replace, the logs
  stats.py         the pentanomial counts, Elo with its interval, the SPRT, each engine's Elo
  match_report.py  what a match comes to: tallies, pairings, the standings; the progress line
  cluster.py       the pairs as tasks of a Dask cluster (the extra referee[cluster])

May import: referee.search, referee.play, referee.club (a match's standings), referee.record,
referee.games, referee.errors, referee.text; and Dask's `distributed`, in cluster.py alone
(the extra referee[cluster]), loaded only by `match --scheduler`.
"""
