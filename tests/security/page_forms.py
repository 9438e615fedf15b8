"""Every form class the site's pages read, found by walking the ``tournaments`` package: a form added in a new
module (a capability's own package) is checked by the security tests without being listed anywhere."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from django import forms

import tournaments

SKIPPED = (".migrations", ".management")  # schema history and commands: no page reads them


def page_form_classes() -> list[type[forms.BaseForm]]:
    found: list[type[forms.BaseForm]] = []
    for module_info in pkgutil.walk_packages(tournaments.__path__, prefix="tournaments."):
        if any(part in module_info.name for part in SKIPPED):
            continue
        module = importlib.import_module(module_info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__:
                found.append(cls)
    return found
