"""House rules above the adjudicator (pure): defaults, ONP, Sommossa, lateness, game end.

The service layer calls :func:`judge.rules.due.decide`; ``judge adjudicate`` calls
:func:`judge.rules.house_jsonio.adjudicate_json_with_rules`.
"""
