"""Self check-in for league evenings: the poster's QR code, the phone page, and seating who checked in.

A registered player says "I'm here" on ``/c/<competition>/check-in/``: signed in with their own account, or with
their public name and the venue code printed on the poster (``services``). Check-ins are the attendance of the
round about to be seated: the organiser seats exactly who checked in in a draft, or adds who arrives late to a
published round, which re-seats it keeping every table it can (``services.rounds.reseat_round``).
"""
