"""The tariff card of a competition: what every contract of its rule set pays, made and failed, and how deals double.

``card.rows`` builds the card from the engine's rule set alone, settling each figure with the engine's own
``games.settlement.settle`` so the card cannot disagree with the scoring; ``views.tariff`` shows it, printable.
"""
