"""What the pages read, a module per audience: ``public`` (competitions, rounds, sheets with running totals,
standings), ``entry`` (what only the entry page needs) and ``manage`` (the organiser's: competitions run,
registrations, player search, a round's progress). Capabilities keep their own selectors in their packages."""
