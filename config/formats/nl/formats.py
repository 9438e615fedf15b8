"""Short dates as Belgian readers write them: day/month/year and a 24-hour clock (1/12/2026 13:52).

Only the short formats differ from Django's own for this language; every other format stays Django's.
"""

SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = "j/n/Y H:i"
