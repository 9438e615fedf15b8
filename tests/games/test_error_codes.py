"""``games.codes`` lists every FieldError code the engine's source can produce, and nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import games
from games.codes import CODES, LINE_CODES, RECORD_CODES

ENGINE = Path(games.__file__).parent
# The calls whose first argument is a code: FieldError itself and the collectors that build one.
BUILDERS = {"FieldError", "add", "fail"}


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def codes_in_source() -> set[str]:
    """Codes given to FieldError and its builders, assigned to ``code``, passed on as a seat check's code, or
    returned first by ``note_problem``."""
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in BUILDERS:
                    found.update(_strings(node.args[0]))
                elif name == "_check_seat":
                    found.update(_strings(node.args[-1]))
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code" for t in node.targets):
                found.update(_strings(node.value))
            elif isinstance(node, ast.FunctionDef) and node.name == "note_problem":
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                        found.update(_strings(ret.value.elts[0]))
    return found


def test_the_registry_holds_every_code_the_engine_source_produces() -> None:
    found = codes_in_source()
    assert len(found) > 80  # the walk does find the codes
    assert found - CODES == set(), "codes missing from games.codes"
    assert CODES - found == set(), "codes in games.codes that nothing produces"


def test_line_and_record_codes_are_told_apart() -> None:
    assert not LINE_CODES & RECORD_CODES
    assert {"missing_partner", "declarer_sits_out", "offender_sits_out", "pot_mismatch"} <= LINE_CODES
