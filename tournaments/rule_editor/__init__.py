"""The rule set editor under /manage/rules/: an organiser builds a club's house rules without writing JSON.

``form`` turns a rule set into fields in the players' words and back (``RulesForm.rules``); ``overrides`` keeps
only what differs from the preset, which is what the model stores, and reads and writes the JSON clubs share;
``problems`` puts the engine's complaints beside the fields they are about; ``preview`` settles the worked
examples and builds the tariff card beside the form, with the engine itself, so what the organiser checks is what
the evening will score. Who may edit what is in ``selectors``; a rule set played under is never changed in place
(``tournaments.integrity``): the editor saves the change as a new rule set.
"""
