"""Club play (SPEC §7, §8b): standings over an archive of records, and round-robin pairings.

  ranking.py         the standings computed: points, Sonneborn-Berger, Elo, the crosstable
  standings.py       `referee standings`: the records found, judged once each, ranked
  standings_page.py  the standings drawn: text for a mail, a self-contained HTML page
  berger.py          round-robin pairings by Berger tables (pure)
  pairings.py        `referee pairings`: the rounds, and with --new the records written

May import: referee.render (the page's templates), referee.play, referee.record,
referee.errors, referee.text.
"""
