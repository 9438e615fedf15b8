"""The site's pages, a module per audience.

- ``public``: what anyone may read (standings, rounds, sheets, players, clubs), as the competition's visibility
  allows; ``round_print`` prints a round's table cards and blank sheets;
- ``entry``: the table's entry page (those who run the competition, or whoever holds the table code);
- ``manage``: the organiser's pages under /manage/ (competitions, players, rounds).

Capabilities with pages of their own live in their packages (``tournaments.display``, ``checkin``, ``tariff``,
``progression``, ``ratings``, ``rule_editor``, ``offline``).
"""
