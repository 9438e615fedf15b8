"""The pages' forms, a module per audience: ``entry`` (a sheet's line, a penalty) and ``manage`` (the organiser's:
competitions, registrations, rounds). Capabilities with forms of their own keep them in their packages."""
