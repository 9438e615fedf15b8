"""Pages of API lists: ``limit`` and ``offset`` are numbers with a range (``tournaments.limits``) like any other."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from tournaments import limits


class Pagination(LimitOffsetPagination):
    """DRF's limit and offset, refused with a 400 outside ``limits.PAGE_LIMIT`` and ``limits.PAGE_OFFSET``.

    A limit of 10^20 reached the database as is (SQLite: "datatype mismatch", a 500).
    """

    max_limit = limits.PAGE_LIMIT.high

    def get_limit(self, request: Request) -> int | None:
        _check(request, self.limit_query_param, limits.PAGE_LIMIT)
        return super().get_limit(request)  # type: ignore[no-any-return]

    def get_offset(self, request: Request) -> int:
        _check(request, self.offset_query_param, limits.PAGE_OFFSET)
        return super().get_offset(request)  # type: ignore[no-any-return]


def _check(request: Request, name: str, allowed: limits.Range) -> None:
    text = request.query_params.get(name)
    if text is None or text == "":
        return
    try:
        value = int(text)
    except ValueError:
        raise ValidationError({name: [str(allowed.message)]}) from None
    if value not in allowed:
        raise ValidationError({name: [str(allowed.message)]})
