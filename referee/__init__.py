"""Bezique Referee: the rules engine (pure Python; no UI, no database)."""
