"""The venue's projector display (issue 16): a full-screen, read-only page with the standings, the next round's
seating, the round clock and the organiser's announcements; and the organiser's controls for the clock and the
announcements on the round page.

- ``services``: the clock's state machine (start, pause, resume, adjust, stop) and announcements, audited;
- ``selectors``: what a display, an entry page or a round page shows of them;
- ``views`` (public, no login, ``tournaments.visibility``) and ``views_manage`` (organisers, POST only).
"""
