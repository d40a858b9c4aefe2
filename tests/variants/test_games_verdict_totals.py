"""QA P20: the verdict of a match over games gives every side's total, not the winner's only
("Boris wins the match with 3320 to 2100"), in both languages."""

from __future__ import annotations

import pytest

from referee.verdict import GAMES, after_games


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_games_verdict_names_the_winners_and_the_others_totals(lang: str) -> None:
    v = after_games(deal=1, totals=(2100, 3320), games=2, ended=True,
                    side_names=("Anna", "Boris"), players=("Anna", "Boris"))
    assert v.finished and v.reason == GAMES and v.winner == 1
    said = v.render(lang)
    assert "Boris" in said and "3320" in said and "2100" in said
    assert said.index("3320") < said.index("2100")


def test_with_three_sides_the_others_come_highest_first() -> None:
    v = after_games(deal=0, totals=(900, 2500, 1700), games=1, ended=True,
                    side_names=("A", "B", "C"), players=("A", "B", "C"))
    said = v.render("en")
    assert "2500 to 1700, 900" in said
