"""The Flet table app (decides no rule itself)."""
