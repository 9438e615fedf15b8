"""Duplicate competitions: every table of a round plays the same deals (boards), dealt in advance.

This first slice runs the movement where all tables play the same boards at once from duplicated sets: a round
of a duplicate competition gets as many boards as its sessions have deals, and board *k* is deal *k* of every
table's sheet. The boards are dealt from a secret random seed when the round is made (``services``), or read
from a dealing machine's PBN file before any line of the round is stored; the organiser lists them, downloads
them as PBN and prints the hand records (``views``). Boards are hand records: only those who run the competition
see them (``views.manage.competitions.managed_round``), before, during and after the round; the printed table
card says only which board numbers a table plays, in which order.

The pure parts (dealing, PBN, comparison) are the engine's, ``games.duplicate``; the rows are
``tournaments.models.boards.Board``. The setting itself is a competition's (``Competition.duplicate``), for
Wiezen only and chosen before the first round is seated (``rules``).
"""
