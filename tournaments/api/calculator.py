"""The engine as a stateless service: score lines under any rule set, store nothing."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response

import games
from games.errors import GameError, InvalidSheet
from tournaments.api.errors import errors_response
from tournaments.api.serializers import ScoreRequestSerializer


def score_lines(rules_: games.RuleSet, data: Any) -> Response:
    body = ScoreRequestSerializer(data=data)
    body.is_valid(raise_exception=True)
    players = body.validated_data["players"]
    deals = body.validated_data.get("deals", None if rules_.zwicken else 16)
    try:
        sheet = games.sheet_from_lines(rules_, body.validated_data["lines"], players, deals)
    except InvalidSheet as exc:
        return errors_response((f.line_number, e) for f in exc.lines for e in f.errors)
    except GameError as exc:
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    totals = [0] * players
    results = []
    for settled in sheet.results:
        totals = [t + p for t, p in zip(totals, settled.points, strict=True)]
        results.append(
            {
                "deal": settled.deal,
                "contract": settled.contract,
                "points": list(settled.points),
                "multiplier": settled.multiplier,
                "totals": totals,
            }
        )
    return Response({"results": results, "totals": totals})
