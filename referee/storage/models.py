"""The tables (head schema). The log is the truth; everything else is either identity (players,
matches, deals) or a cache derived from replaying the log, rebuilt whenever it may be stale.

Keep this module in step with ``migrations/versions``: a test compares the migrated schema
with these models, so a change here without a migration fails the suite.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, ForeignKey, Index, Integer, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from referee.storage.schema import utcnow
from referee.storage.utc_datetime import UTCDateTime


class Player(SQLModel, table=True):
    """A person at the table, shared across matches so statistics follow them."""

    __tablename__ = "player"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class MatchRow(SQLModel, table=True):
    """A partie: its settings, and a cached verdict (finished/winner) kept equal to the replay."""

    __tablename__ = "match"

    id: int | None = Field(default=None, primary_key=True)
    format: str = Field(default="bezique-match/1")
    variant: str
    tracking: str = Field(default="melds")
    house_rules: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    target: int | None = Field(default=None)
    # Games agreed where each deal is a game (Rubicon …); NULL: the variant's (see r0006).
    games: int | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    winner: str | None = Field(default=None)
    # Set when the table abandons the match (kept in history, recoverable; see r0005).
    abandoned_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    cache_version: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, server_default="0")
    )
    # Bumped past every other match's on each change: the order matches were last played in,
    # which the wall clock cannot be trusted for (see migration 0004).
    activity: int = Field(
        default=0,
        sa_column=Column(Integer, nullable=False, server_default="0", index=True),
    )


class MatchPlayer(SQLModel, table=True):
    """Who sat where; ``won`` is a cache of the replay's winner for the statistics."""

    __tablename__ = "match_player"

    match_id: int = Field(
        sa_column=Column(Integer, ForeignKey("match.id", ondelete="CASCADE"), primary_key=True)
    )
    seat: int = Field(primary_key=True)
    player_id: int = Field(
        sa_column=Column(Integer, ForeignKey("player.id"), nullable=False, index=True)
    )
    won: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    # The name this seat was played under, once it is no longer the player's own (a rename or
    # a merge, see players.py and r0007); NULL: the player's current name. The log's events
    # name the players as they were seated, so replay and export read this, never the new name.
    name: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class DealRow(SQLModel, table=True):
    """A deal as it was started (dealer seat, turn-up); whether it counts is up to the log."""

    __tablename__ = "deal"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("match.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    dealer: int
    turn_up: str | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class LogEntry(SQLModel, table=True):
    """One append-only entry of a match's log, in ``seq`` order (1, 2, 3 … per match).

    ``payload`` is the event exactly as the match record spells it (JSON text), so the log
    never depends on the engine's internals and exports verbatim.
    """

    __tablename__ = "log_entry"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_log_entry_match_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(
        sa_column=Column(Integer, ForeignKey("match.id", ondelete="CASCADE"), nullable=False)
    )
    seq: int
    kind: str
    deal_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("deal.id", ondelete="CASCADE"), nullable=True),
    )
    target_seq: int | None = Field(default=None)
    payload: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class DealScore(SQLModel, table=True):
    """Cache: a deal's points for each seat (its side's score), derived by replay."""

    __tablename__ = "deal_score"
    __table_args__ = (
        Index("ix_deal_score_player_points", "player_id", "points"),
        Index("ix_deal_score_points", "points", "deal_id"),
    )

    deal_id: int = Field(
        sa_column=Column(Integer, ForeignKey("deal.id", ondelete="CASCADE"), primary_key=True)
    )
    seat: int = Field(primary_key=True)
    match_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("match.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("player.id"), nullable=False))
    points: int


class MeldScore(SQLModel, table=True):
    """Cache: each accepted declaration (and seven) with the points it scored, by replay."""

    __tablename__ = "meld_score"
    __table_args__ = (Index("ix_meld_score_player_meld", "player_id", "meld", "points"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("match.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    deal_id: int = Field(
        sa_column=Column(Integer, ForeignKey("deal.id", ondelete="CASCADE"), nullable=False)
    )
    seq: int
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("player.id"), nullable=False))
    meld: str
    points: int


# The Core tables, for the repository's SQL (faster than ORM objects on the hot path); the
# storage code takes them from tables.py, which the phone build gives a frozen copy of them.
METADATA = SQLModel.metadata
TABLES = METADATA.tables

