"""The API as its OpenAPI schema describes it: operations, their request bodies' integer fields, their CSV
responses. Tests enumerate these, so a new endpoint is covered without anyone adding a row."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from drf_spectacular.generators import SchemaGenerator


@functools.cache
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # as in the schema: /api/v1/rounds/{id}/swap/
    spec: Any

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def resource(self) -> str:
        """The router's name of what the path is about: rounds, sheets, competitions..."""
        return self.path.removeprefix("/api/v1/").split("/")[0]

    def url(self, **values: Any) -> str:
        """The path with its parameters filled: ``{id}`` from ``id``, ``{deal}`` from ``deal``..."""
        return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), self.path)


def operations() -> list[Operation]:
    return [
        Operation(method, path, spec)
        for path, methods in schema()["paths"].items()
        for method, spec in methods.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def csv_exports() -> list[Operation]:
    """Operations that answer ``text/csv``."""
    return [
        op
        for op in operations()
        if any("text/csv" in (response.get("content") or {}) for response in op.spec.get("responses", {}).values())
    ]


def resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema()["components"]["schemas"][name]
    return node


def request_body(op: Operation) -> dict[str, Any] | None:
    content = (op.spec.get("requestBody") or {}).get("content") or {}
    body = content.get("application/json")
    return resolve(body["schema"]) if body else None


def integer_places(node: Any, place: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every place in a body schema where a whole number goes, with its schema: ``("players", 0)`` is the first
    item of the list ``players``; ``("seating", 0, 0)`` the first player of the first table."""
    node = resolve(node)
    if not isinstance(node, dict):
        return []
    for key in ("allOf", "oneOf", "anyOf"):
        if key in node:
            return [found for part in node[key] for found in integer_places(part, place)]
    if node.get("readOnly"):
        return []
    kind = node.get("type")
    if kind == "integer":
        return [(place, node)]
    if kind == "array":
        return integer_places(node.get("items", {}), (*place, 0))
    if kind == "object" or "properties" in node:
        return [
            found
            for name, child in (node.get("properties") or {}).items()
            for found in integer_places(child, (*place, name))
        ]
    return []


def body_with(place: tuple[Any, ...], value: Any) -> Any:
    """A body holding ``value`` at ``place`` and nothing else (lists get a second, valid-looking item)."""
    if not place:
        return value
    head, *rest = place
    inner = body_with(tuple(rest), value)
    if isinstance(head, int):
        return [inner, body_with(tuple(rest), 1)]
    return {head: inner}
