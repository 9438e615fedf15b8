"""The standings progression: every player's rank and points after each round of a competition (issue 16).

``services`` computes it from the standings calculator's own records (pure), ``selectors`` reads those records and
keeps the result in the shared cache per standings version, ``views`` shows the page ``/c/<slug>/progression/``
and ``tournaments.templatetags.progression`` the player page's lines.
"""
