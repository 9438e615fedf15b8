"""The editor's pages: the list (new from a preset, import a shared file), the editor, its live preview, the export.

Thin views: the forms read, ``services`` save, ``problems`` words what the engine refuses. A user who administers
no club gets a 403 on the list; a rule set they may not edit is a 404 (``selectors.edited_rule_set``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

import games
from games.errors import GameError
from tournaments.forms.manage import show_errors
from tournaments.integrity import rule_set_in_play
from tournaments.models import RuleSet
from tournaments.rule_editor import overrides as shared
from tournaments.rule_editor import problems, selectors, services
from tournaments.rule_editor.form import RulesForm, describe_default
from tournaments.rule_editor.forms import ImportForm, NewRuleSetForm
from tournaments.rule_editor.preview import preview_context
from tournaments.services import edits


def _clubs(request: HttpRequest) -> Any:
    clubs = selectors.clubs_for_rule_sets(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("Rule sets belong to a club: only its administrators edit them."))
    return clubs


@login_required
def rule_sets(request: HttpRequest) -> HttpResponse:
    clubs = _clubs(request)
    return _list(request, NewRuleSetForm(clubs, prefix="new"), ImportForm(clubs, prefix="import"))


def _list(request: HttpRequest, new: NewRuleSetForm, imported: ImportForm, status: int = 200) -> HttpResponse:
    rows = []
    for rule_set in selectors.editable_rule_sets(request.user):
        try:
            contracts = describe_default(rule_set.engine_rules())
        except GameError:
            contracts = ""
        rows.append({"rule_set": rule_set, "contracts": contracts})
    context = {"rows": rows, "new": new, "imported": imported}
    return render(request, "rule_editor/list.html", context, status=status)


@login_required
@require_POST
def rule_set_new(request: HttpRequest) -> HttpResponse:
    clubs = _clubs(request)
    form = NewRuleSetForm(clubs, request.POST, prefix="new")
    if form.is_valid():
        data = form.cleaned_data
        game = games.find(data["preset"]).game.value
        try:
            created = services.create(
                club=data["club"], name=data["name"], game=game, preset=data["preset"], overrides={}
            )
        except ValidationError as exc:
            show_errors(form, exc)
        else:
            return redirect("manage-rule-set", created.pk)
    return _list(request, form, ImportForm(clubs, prefix="import"), status=400)


IMPORT_WORDS = {
    "not_json": gettext_lazy("This file is not JSON."),
    "not_object": gettext_lazy("This file does not hold a rule set (a JSON object)."),
    "no_preset": gettext_lazy('This file names no preset to start from ("preset").'),
    "unstorable": gettext_lazy("This file holds characters no text may hold (U+0000 or a lone surrogate)."),
}


@login_required
@require_POST
def rule_set_import(request: HttpRequest) -> HttpResponse:
    clubs = _clubs(request)
    form = ImportForm(clubs, request.POST, request.FILES, prefix="import")
    if form.is_valid():
        data = form.cleaned_data
        try:
            name, preset, overrides, rules = shared.read_import(data["file"])
        except shared.ImportRefused as exc:
            code = str(exc)
            if code.startswith("rules:"):
                words = [sentence for _fields, sentence in problems.place(code.removeprefix("rules:"))]
                form.add_error("file", " ".join(words))
            else:
                form.add_error("file", str(IMPORT_WORDS[code]))
        else:
            chosen = data["name"] or name
            if not chosen:
                form.add_error("name", _("The file names no rule set: give it a name."))
            else:
                try:
                    created = services.create(
                        club=data["club"], name=chosen, game=rules.game.value, preset=preset, overrides=overrides
                    )
                except ValidationError as exc:
                    # what the rule set itself is refused for (a figure out of range) is the file's to mend
                    for field, messages_ in exc.message_dict.items():
                        for message in messages_:
                            form.add_error(field if field in ("name", "club") else "file", message)
                else:
                    messages.success(request, _("Rule set %(name)s read from the file.") % {"name": created.name})
                    return redirect("manage-rule-set", created.pk)
    return _list(request, NewRuleSetForm(clubs, prefix="new"), form, status=400)


def _built(form: RulesForm) -> games.RuleSet | None:
    """The rule set a bound form makes, or None with every problem put on the form."""
    if not form.is_valid():
        return None
    try:
        return form.rules()
    except GameError as exc:
        for fields, sentence in problems.place(str(exc)):
            known = [f for f in fields if f in form.fields]
            for field in known or [None]:
                form.add_error(field, sentence)
        return None


@login_required
def rule_set_edit(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = selectors.edited_rule_set(request.user, pk)
    start = rule_set.engine_rules()
    played = rule_set_in_play(rule_set.pk)
    if request.method == "POST":
        form = RulesForm(start, request.POST)
        rules = _built(form)
        if rules is not None:
            try:
                saved, copied = services.save(
                    rule_set, name=form.cleaned_data["name"], rules=rules, shown=form.shown_digests()
                )
            except edits.ChangedMeanwhile as exc:
                form.changed_meanwhile(exc)
                for field in {form.field_of(setting) for setting in exc.settings}:
                    form.add_error(field, exc.messages[0])
            except ValidationError as exc:
                show_errors(form, exc)
            else:
                if copied:
                    messages.success(
                        request,
                        _("%(old)s was played under, so it keeps its rules: the changed rules are now %(new)s.")
                        % {"old": rule_set.name, "new": saved.name},
                    )
                else:
                    messages.success(request, _("Rule set %(name)s saved.") % {"name": saved.name})
                return redirect("manage-rule-set", saved.pk)
        shown = rules or start
        status = 400
    else:
        carried = edits.carried(edits.digests_of(services.settings_of(rule_set.name, start)))
        form = RulesForm(start, initial={"name": rule_set.name, "shown": carried})
        shown, status = start, 200
    context = {"rule_set": rule_set, "form": form, "played": played, **preview_context(shown)}
    return render(request, "rule_editor/edit.html", context, status=status)


@login_required
@require_POST
def rule_set_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The tariff card and worked examples of the form as typed, not saved: the editor swaps them in as one types."""
    rule_set = selectors.edited_rule_set(request.user, pk)
    form = RulesForm(rule_set.engine_rules(), request.POST)
    rules = _built(form)
    context: dict[str, Any] = {"form": form, "rule_set": rule_set}
    if rules is not None:
        context |= preview_context(rules)
    return render(request, "rule_editor/_preview.html", context)


@login_required
@require_GET
def rule_set_export(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set: RuleSet = selectors.edited_rule_set(request.user, pk)
    body = shared.export_json(rule_set.name, rule_set.preset, rule_set.overrides)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = slugify(rule_set.name) or f"rule-set-{rule_set.pk}"
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response
