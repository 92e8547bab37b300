"""Correspondence by mail (SPEC §4, §6, §8, §9, §14): a game sent to the next player, a reminder,
and a mailed record received and checked against my own copy.

  mail.py       the message built (headers, body, attachments) and a record taken out of one
  sending.py    `referee mail` and `referee remind`
  receiving.py  `referee receive`: nobody alters the past or moves in my name; never thinks
  notes.py      `referee notes` and `referee reveal`: sealed notes read, a note key revealed
  deadlines.py  the deadline of the seat to move as a calendar event (status/remind --ics, mail)

May import: referee.render (the diagrams a mail carries), referee.play, referee.record,
referee.errors, referee.text.
"""
