"""The rule set editor, under /manage/rules/."""

from django.urls import path

from tournaments.rule_editor import views

urlpatterns = [
    path("", views.rule_sets, name="manage-rule-sets"),
    path("new/", views.rule_set_new, name="manage-rule-set-new"),
    path("import/", views.rule_set_import, name="manage-rule-set-import"),
    path("<int:pk>/", views.rule_set_edit, name="manage-rule-set"),
    path("<int:pk>/preview/", views.rule_set_preview, name="manage-rule-set-preview"),
    path("<int:pk>/export/", views.rule_set_export, name="manage-rule-set-export"),
]
