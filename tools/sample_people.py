"""The invented players and the clock shared by every sample generator in tools/.

Names use example.org/.net/.com addresses, which never reach anyone.
"""

import datetime as dt

UTC = dt.timezone.utc
HOUR = dt.timedelta(hours=1)

ANN = "Ann Example <ann@example.org>"
BO = "Bo Sample <bo@example.net>"
CHIDI = "Chidi Placeholder <chidi@example.com>"
DAGNY = "Dagny Testperson <dagny@example.org>"
EMEKA = "Emeka Demo <emeka@example.net>"
FUMIKO = "Fumiko Fictive <fumiko@example.com>"
