"""The deal screen's state: start a deal, record what happens, declare with the card picker,
end the deal, undo and redo.

Every ruling and number comes from the engine through the session (ui/backend.py); this class
keeps only what the screen shows between taps (the picker's selection, the last ruling, the
end-of-deal form) and turns taps into events.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from referee.cards import Card, Rank, Suit
from referee.events import (
    CarteBlanche,
    CutBonus,
    Declare,
    Event,
    LastTrick,
    Penalty,
    Seven,
    StockExhausted,
    Trick,
)
from ui import backend
from ui.live import write_notice  # table mode's refusals (stale view, viewer)
from ui.state import joker, penalty_choice, who_leads
from ui.state.brisques_entry import BrisquesEntry
from ui.state.common import Notice
from ui.state.declare_by_name import NamedDeclaration, NamingActions
from ui.state.end_of_deal import EndOfDeal
from ui.state.penalty_actions import PenaltyActions
from ui.state.quick_declare import QuickActions, QuickEntry
from ui.state.ruling_toast import RulingToast

Mode = Literal["setup", "play", "end", "summary", "finished"]
PickerTab = Literal["name", "cards"]
RANKS: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))
SUITS: tuple[Suit, ...] = backend.SUITS


@dataclass
class Picker:
    """The declaration being composed: new cards from the hand, reused cards from the table."""

    player: int
    new: list[Card] = field(default_factory=list)
    table_idx: set[int] = field(default_factory=set)
    tab: PickerTab = "cards"  # "name": declare by naming the combination
    named: NamedDeclaration | None = None


@dataclass
class OptionView:
    meld: str
    points: int
    accepted: bool
    rule: str
    ruling: Any


@dataclass
class RulingView:
    """The last ruling, ready for the screen: accepted or not, text, rule and its title."""

    accepted: bool
    rule: str
    text: str
    rule_title: str
    why: str
    points: int
    proposes: str | None
    player: int | None
    penalty: bool = False  # an applied penalty (shown with its amount, not as "Accepted")


@dataclass
class PendingView:
    meld: str
    cards: tuple[Card, ...]
    points: int
    ready: bool = True


class DealScreen(QuickActions, PenaltyActions, NamingActions, EndOfDeal):
    """State of the deal screen for one match session."""

    def __init__(
        self,
        session: backend.MatchSession,
        lang: str = "en",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.lang = lang
        self.clock = clock
        self.picker: Picker | None = None
        self.ruling: RulingView | None = None
        self.toast = RulingToast()
        self.penalty_confirm: penalty_choice.PenaltyOption | None = None
        self._last_ruling: tuple[Any, int | None, bool] | None = None
        # Built controls the view may reuse for unchanged content (opaque to this class).
        self.view_cache: dict[tuple[Any, ...], Any] = {}
        self.notice: Notice | None = None
        self.penalty_for: int | None = None
        self.ending = False
        self.want_next = False
        self.setup_dealer: int | None = None
        self.setup_rank: Rank | None = None
        self.setup_suit: Suit | None = None
        self.setup_errors: dict[str, str] = {}
        self.end_last: int | None = None
        self.brisques = BrisquesEntry(len(self.players), self.brisques_expected())
        self.end_errors: dict[str, str] = {}
        self.trick_open = False
        self.trick_rank: dict[int, Rank] = {}
        self.trick_suit: dict[int, Suit] = {}
        self.trick_from_table: set[int] = set()
        self.trick_winner: int | None = None
        self.trick_errors: dict[str, str] = {}
        self.suit_choice: tuple[int, str] | None = None  # a one-tap offer asking its suit
        self.quick_last: QuickEntry | None = None  # the last declaration made in one tap
        self.declarer: int | None = None  # three or four players: whose offers are shown
        self._offers_cache: dict[int, Any] = {}  # per seat: the offers and what they are of
        self._prefill_setup()

    def set_language(self, lang: str) -> None:
        self.lang = lang
        if self.ruling is not None and self._last_ruling is not None:
            self.ruling = self._ruling_view(*self._last_ruling)
            if self.toast.current is not None:
                self.toast.current = self.ruling

    @property
    def end_counts(self) -> list[int]:
        """The brisque counts as entered (0 for an empty field)."""
        return self.brisques.counts()

    def shown_ruling(self) -> RulingView | None:
        """The ruling the screen shows now (an accepted one only for a few seconds)."""
        return self.toast.visible(self.clock())  # type: ignore[no-any-return]

    def reopen_rulings(self) -> None:
        self.toast.reopen()

    def close_rulings(self) -> None:
        self.toast.close_list()

    # ------------------------------------------------------------------------ reading state
    @property
    def match(self) -> Any:
        return self.session.match

    @property
    def deal(self) -> Any:
        return self.match.current

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.match.players)

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(self.match.side_names)

    @property
    def mode(self) -> Mode:
        deal = self.deal
        if deal is None:
            return "setup"
        if deal.complete:
            if self.match.result().finished:
                return "finished"
            return "setup" if self.want_next else "summary"
        return "end" if self.ending else "play"

    @property
    def deal_number(self) -> int:
        """1-based number of the current deal (or of the next one in setup)."""
        n = len(self.match.deals)
        return n + 1 if self.deal is None or self.mode == "setup" else n

    @property
    def tracking(self) -> str:
        return str(self.match.tracking)

    @property
    def turn_up_variant(self) -> bool:
        return bool(self.match.variant.turn_up)

    def turn_up_ranks(self) -> tuple[Rank, ...]:
        """The ranks the variant's pack can turn up (the joker variant: no 7, 8, no joker)."""
        return joker.turn_up_ranks(self.match.variant, len(self.players))

    def turn_up_suits(self) -> tuple[Suit, ...]:
        return joker.turn_up_suits(self.match.variant, len(self.players))

    def has_sevens(self) -> bool:
        """Whether a seven of trumps scores here (the button is offered only then)."""
        return joker.has_sevens(self.match.variant)

    def sits_out(self, seat: int) -> bool:
        """The engine says this player sits the deal out (joker variant, four at the table)."""
        return joker.sits_out(self.deal, seat)

    def pick_rows(self) -> list[list[Card]]:
        """The picker's faces: the variant's pack, a row per suit, then its jokers."""
        return joker.pick_rows(self.match.variant, len(self.players))

    def dealer(self) -> int | None:
        return int(self.deal.dealer) if self.deal is not None else None

    def leader(self) -> int | None:
        """Who leads the next trick (R-LEAD, the engine's); with melds only the first lead
        is known."""
        return who_leads.leader(self.match)

    def trumps(self) -> Suit | None:
        return self.deal.trumps if self.deal is not None else None

    def phase(self) -> int:
        return int(self.deal.phase) if self.deal is not None else 1

    def stock_left(self) -> int | None:
        return self.deal.stock_left if self.deal is not None else None

    def tricks_played(self) -> int:
        return int(self.deal.tricks_played) if self.deal is not None else 0

    def total_tricks(self) -> int:
        return int(self.match.setup.total_tricks)

    def play_over(self) -> bool:
        """All the deal's tricks are played (or the last trick closed the play)."""
        return who_leads.play_over(self.match)

    def can_win_trick(self) -> bool:
        """"Won the trick" is offered while the deal has tricks left to play."""
        return self.tracking == "tricks" and self.deal is not None and not self.play_over()

    def can_close_play(self) -> bool:
        """tricks tracking: after the stock, the last trick alone closes the play."""
        d = self.deal
        return (
            self.tracking == "tricks"
            and d is not None
            and not self.play_over()
            and d.tricks_played >= int(self.match.setup.stock_tricks)
            and joker.counts_last_trick(self.match.variant)
        )

    def declared_back_in_hand(self) -> bool:
        """Phase 2 after declarations: the declared cards went back to the hands (R-PHASE2)."""
        d = self.deal
        if d is None or self.phase() != 2:
            return False
        return any(isinstance(e, Declare) and r.accepted for e, r in d.log)

    def deal_scores(self) -> list[int]:
        return list(self.deal.scores()) if self.deal is not None else [0] * len(self.side_names)

    def totals(self) -> list[int]:
        return list(self.match.totals())

    def side_of(self, seat: int) -> int:
        return int(self.match.setup.side_of[seat])

    def table(self, seat: int) -> list[Card]:
        return list(self.deal.table(seat)) if self.deal is not None else []

    def pending(self, seat: int) -> list[PendingView]:
        if self.deal is None:
            return []
        return [
            PendingView(
                p.meld,
                tuple(p.cards),
                int(self.deal.points_of(p.meld)),
                ready=self._can_score(seat, p.meld, tuple(p.cards)),
            )
            for p in self.deal.pending_of(seat)
        ]

    def _can_score(self, seat: int, meld: str, cards: tuple[Card, ...]) -> bool:
        """Whether the engine would accept scoring this pending combination now (it is
        offered when that player has just won a trick and not yet declared)."""
        try:
            return bool(self.match.verify(Declare(seat, (), cards, meld)).accepted)
        except ValueError:
            return False

    def dealer_seven(self) -> tuple[int, int] | None:
        """(dealer seat, points) when the turn-up is a seven the dealer was credited for."""
        d = self.deal
        if d is None or d.original_turn_up is None or d.original_turn_up.rank is not Rank.SEVEN:
            return None
        pts = int(self.match.variant.dealer_seven_points)
        return (int(d.dealer), pts) if pts else None

    def breakdown(self, side: int) -> list[tuple[str, int]]:
        """Where a side's points of this deal came from, as the engine's ledger says:
        (reason, points) with a combination id, a rule id (R-BRISQUE, R-LAST-TRICK, R-SEVEN,
        R-DEALER-SEVEN) or a penalty id, in the order they first scored."""
        if self.deal is None:
            return []
        totals: dict[str, int] = {}
        for entry in getattr(self.deal, "ledger", []):
            if entry.side == side and entry.points:
                totals[str(entry.reason)] = totals.get(str(entry.reason), 0) + int(entry.points)
        return list(totals.items())

    def can_undo(self) -> bool:
        return bool(self.session.can_undo)

    def can_redo(self) -> bool:
        return bool(self.session.can_redo)

    def last_entry(self) -> tuple[Event, Any] | None:
        if self.deal is None or not self.deal.log:
            return None
        event, ruling = self.deal.log[-1]
        return event, ruling

    # ------------------------------------------------------------------------ setup
    def _prefill_setup(self) -> None:
        """Suggest the player after the last dealer; the table can pick anyone."""
        deals = self.match.deals
        n = len(self.players)
        self.setup_dealer = (int(deals[-1].dealer) + 1) % n if deals else 0
        self.setup_rank = None
        self.setup_suit = None
        self.setup_errors = {}

    def set_dealer(self, seat: int) -> None:
        if 0 <= seat < len(self.players):
            self.setup_dealer = seat
            self.setup_errors.pop("dealer", None)

    def set_turn_up_rank(self, rank: Rank) -> None:
        self.setup_rank = rank
        self.setup_errors.pop("turn_up", None)

    def set_turn_up_suit(self, suit: Suit) -> None:
        self.setup_suit = suit
        self.setup_errors.pop("turn_up", None)

    def set_turn_up(self, card: Card) -> None:
        """The turn-up in one tap (the setup's card grid)."""
        self.setup_rank = card.rank
        self.setup_suit = card.suit
        self.setup_errors.pop("turn_up", None)

    def turn_up_card(self) -> Card | None:
        if self.setup_rank is None or self.setup_suit is None:
            return None
        return Card(self.setup_rank, self.setup_suit)

    def start_deal(self) -> bool:
        errors: dict[str, str] = {}
        if self.setup_dealer is None:
            errors["dealer"] = "deal.pick_dealer"
        card = self.turn_up_card() if self.turn_up_variant else None
        if self.turn_up_variant and card is None:
            errors["turn_up"] = "deal.pick_turn_up"
        self.setup_errors = errors
        if errors:
            return False
        assert self.setup_dealer is not None
        try:
            self.session.start_deal(self.setup_dealer, card)
        except backend.WriteFailed as exc:
            self.notice = _write_notice(exc, self.lang)
            return False
        except ValueError as exc:
            self.notice = Notice("error.engine", {"why": str(exc)}, error=True)
            return False
        self._reset_transient()
        self.declarer = None  # a new deal: the first lead's offers first
        return True

    # ------------------------------------------------------------------------ recording
    def _reset_transient(self) -> None:
        self.notice = None
        self.penalty_confirm = None
        self.want_next = False
        self.trick_open = False
        self.picker = None
        self.penalty_for = None
        self.ending = False
        self.end_errors = {}
        self.suit_choice = None
        self.quick_last = None

    def record(self, event: Event) -> RulingView | None:
        """Send one event to the storage layer; keep the ruling for the screen."""
        self.notice = None
        self.suit_choice = None
        self.quick_last = None
        try:
            ruling = self.session.record(event)
        except ValueError as exc:  # inconsistent with the facts: nothing recorded
            self.notice = Notice("error.engine", {"why": str(exc)}, error=True)
            return None
        except backend.WriteFailed as exc:  # an earlier write failed: back to storage's truth
            self.notice = _write_notice(exc, self.lang)
            return None
        self._last_ruling = (ruling, _player_of(event), isinstance(event, Penalty))
        view = self._ruling_view(*self._last_ruling)
        self.ruling = view
        self.toast.show(view, self.clock())
        self.penalty_confirm = None
        return view

    def _ruling_view(self, ruling: Any, player: int | None, penalty: bool = False) -> RulingView:
        rule = str(ruling.rule)
        return RulingView(
            accepted=bool(ruling.accepted),
            rule=rule,
            text=backend.ruling_words(ruling, self.lang),
            rule_title=backend.rule_title(rule, self.lang),
            why=backend.rule_explanation(rule, self.lang),
            points=int(ruling.points or 0),
            proposes=ruling.proposes,
            player=player,
            penalty=penalty,
        )

    def trick(self, seat: int) -> RulingView | None:
        view = self.record(Trick(seat))
        if view is not None:
            self.follow_trick()  # the winner declares (three or four players' bar)
        return view

    def seven(self, seat: int) -> RulingView | None:
        return self.record(Seven(seat))

    def stock_exhausted(self) -> RulingView | None:
        return self.record(StockExhausted())

    def score_pending(self, seat: int, index: int) -> RulingView | None:
        items = self.pending(seat)
        if not 0 <= index < len(items):
            return None
        p = items[index]
        return self.record(Declare(seat, (), p.cards, p.meld))

    # ------------------------------------------------------------------------ penalties
    def penalties(self) -> list[tuple[str, int | str]]:
        return [(str(k), v) for k, v in self.match.variant.penalties.items()]

    def dismiss_notice(self) -> None:
        """The notice was read (OK): the strip shows the rulings again."""
        self.notice = None

    def dismiss_ruling(self) -> None:
        self.ruling = None
        self.toast.dismiss()

    # ------------------------------------------------------------------------ picker
    def open_picker(self, seat: int, tab: PickerTab | None = None) -> None:
        """Declare: by naming the combination where the engine can propose the cards,
        else (and on request) by picking the cards."""
        if 0 <= seat < len(self.players) and self.deal is not None:
            named = bool(self.names_offered())
            chosen: PickerTab = tab or ("name" if named else "cards")
            if chosen == "name" and not named:
                chosen = "cards"
            self.picker = Picker(seat, tab=chosen, named=NamedDeclaration(seat))
            self.suit_choice = None
            self.ruling = None
            self.toast.dismiss()
            self.notice = None
            self.penalty_for = None

    def close_picker(self) -> None:
        self.picker = None

    def toggle_table(self, index: int) -> None:
        p = self.picker
        if p is None or not 0 <= index < len(self.table(p.player)):
            return
        p.table_idx ^= {index}

    def max_copies(self, card: Card | None = None) -> int:
        if card is not None:
            return joker.max_copies(self.match.variant, len(self.players), card)
        return int(self.match.setup.packs)

    def add_new(self, card: Card) -> None:
        p = self.picker
        if p is None:
            return
        if Counter(p.new)[card] >= self.max_copies(card):
            self.notice = Notice("picker.options_none", error=True)
            return
        p.new.append(card)

    def remove_new(self, index: int) -> None:
        p = self.picker
        if p is not None and 0 <= index < len(p.new):
            del p.new[index]

    def clear_picker(self) -> None:
        if self.picker is not None:
            self.picker.new.clear()
            self.picker.table_idx.clear()

    def picked_table(self) -> list[Card]:
        p = self.picker
        if p is None:
            return []
        cards = self.table(p.player)
        return [cards[i] for i in sorted(p.table_idx) if i < len(cards)]

    def options(self) -> list[OptionView]:
        """What the chosen cards could be declared as, straight from the engine."""
        p = self.picker
        if p is None or (not p.new and not p.table_idx):
            return []
        try:
            found = self.match.options(p.player, tuple(p.new), tuple(self.picked_table()))
        except ValueError as exc:
            self.notice = Notice("error.engine", {"why": str(exc)}, error=True)
            return []
        return [
            OptionView(o.meld, int(o.points), bool(o.ruling.accepted), str(o.ruling.rule), o.ruling)
            for o in found
        ]

    def declare(self, meld: str | None) -> RulingView | None:
        """Record the declaration as composed (accepted or rejected: both go in the log)."""
        p = self.picker
        if p is None:
            return None
        if not p.new and not p.table_idx:
            self.notice = Notice("picker.chosen_none", error=True)
            return None
        event = Declare(p.player, tuple(p.new), tuple(self.picked_table()), meld)
        view = self.record(event)
        if view is not None:
            self.picker = None
        return view

    # ------------------------------------------------------------------------ cards tracking
    def open_trick(self) -> None:
        """The trick form (``cards`` tracking): each player's card, who won."""
        if self.deal is None:
            return
        self.trick_open = True
        self.picker = None
        self.trick_rank, self.trick_suit = {}, {}
        self.trick_from_table = set()
        self.trick_winner = None
        self.trick_errors = {}

    def close_trick(self) -> None:
        self.trick_open = False

    def set_trick_rank(self, seat: int, rank: Rank) -> None:
        if 0 <= seat < len(self.players):
            self.trick_rank[seat] = rank
            self.trick_errors.pop("cards", None)

    def set_trick_suit(self, seat: int, suit: Suit) -> None:
        if 0 <= seat < len(self.players):
            self.trick_suit[seat] = suit
            self.trick_errors.pop("cards", None)

    def trick_card(self, seat: int) -> Card | None:
        rank, suit = self.trick_rank.get(seat), self.trick_suit.get(seat)
        return None if rank is None or suit is None else Card(rank, suit)

    def toggle_from_table(self, seat: int) -> None:
        """The card came off the player's declared cards (phase 1 only: then there are none)."""
        if 0 <= seat < len(self.players) and self.phase() == 1:
            self.trick_from_table ^= {seat}

    def set_trick_winner(self, seat: int) -> None:
        if 0 <= seat < len(self.players):
            self.trick_winner = seat
            self.trick_errors.pop("winner", None)

    def record_trick(self) -> bool:
        """Every card and the winner must be given; the engine checks the winner against the
        cards (R-RANK) and the last tricks' duties (R-PHASE2)."""
        errors: dict[str, str] = {}
        cards = {seat: self.trick_card(seat) for seat in range(len(self.players))}
        if any(c is None for c in cards.values()):
            errors["cards"] = "trick.pick_cards"
        if self.trick_winner is None:
            errors["winner"] = "trick.pick_winner"
        self.trick_errors = errors
        if errors:
            return False
        assert self.trick_winner is not None
        played = {seat: c for seat, c in cards.items() if c is not None}
        event = Trick(self.trick_winner, played, frozenset(self.trick_from_table))
        if self.record(event) is None:
            return False
        self.trick_open = False
        return True

    def next_deal(self) -> None:
        """Leave the summary: the next screen is the new deal's setup."""
        self._prefill_setup()
        self.want_next = True
        self.ruling = None
        self.toast.clear()

    # ------------------------------------------------------------------------ undo / redo
    def undo(self) -> bool:
        return self._history(self.session.undo)

    def redo(self) -> bool:
        return self._history(self.session.redo)

    def _history(self, step: Any) -> bool:
        notice: Notice | None = None
        try:
            ok = bool(step())
        except backend.Unseen as exc:  # the screen had not shown another device's change
            self.notice = _write_notice(exc, self.lang)  # nothing half-done is dropped
            return False
        except backend.WriteFailed as exc:
            notice = _write_notice(exc, self.lang)
            ok = False
        self._after_history(ok)
        self.notice = notice  # what was said before the undo is no longer current
        return ok

    def write_refused(self, notice: Notice) -> None:
        """This device's last entry was refused by storage (ui/live.py has reloaded the
        session): its ruling is no longer shown as if it counted, and the notice says why."""
        refused = self.toast.current
        if refused is not None and refused in self.toast.recent:
            self.toast.recent.remove(refused)
        self.toast.dismiss()
        self.ruling = None
        self.notice = notice

    def moved_elsewhere(self) -> None:
        """Another device undid, redid, corrected or started a deal (ui/live.py has
        reloaded the session): what was half-done here is dropped, as after an undo."""
        self._after_history(True)

    def _after_history(self, ok: bool) -> None:
        self._reset_transient()
        self.ruling = None
        self.toast.clear()
        if self.deal is None:
            self._prefill_setup()


def _player_of(event: Event) -> int | None:
    if isinstance(event, Declare | Seven | Penalty | CarteBlanche | CutBonus):
        return event.player
    if isinstance(event, Trick | LastTrick):
        return event.winner
    return None


def _write_notice(exc: Exception, lang: str = "en") -> Notice:
    if (table := write_notice(exc, lang=lang)) is not None:
        return table
    if isinstance(exc, backend.Diverged):
        return Notice("error.diverged", error=True)
    return Notice("error.storage", {"why": str(exc)}, error=True)
