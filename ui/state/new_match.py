"""The "new match" form: variant, players, target, house rules and tracking level.

Validation only checks that the input is well formed (names present and distinct, a target
that is a positive whole number); what a variant or house rule means is the engine's business.
Errors are translation keys per field, so the form can name the field that is wrong.

House rules come as named presets (one source's readings, ``data/presets.toml``) with single
switches behind "customise"; the names and tracking level of the last match are remembered on
the device (``FormMemory``, saved by the shell) and suggested next time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ui import backend

TRACKING_LEVELS: tuple[str, ...] = ("melds", "tricks", "cards")
MAX_NAME = 24
RECENT_NAMES = 12
# H-TARGET is the target field itself: a switch for it only contradicted the number typed.
NOT_SWITCHES = frozenset({"H-TARGET"})


@dataclass(frozen=True)
class FormMemory:
    """What the form remembers on this device: recent player names (most recent first), the
    last match's seating and its tracking level."""

    recent: tuple[str, ...] = ()
    last: tuple[str, ...] = ()
    tracking: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"recent": list(self.recent), "last": list(self.last), "tracking": self.tracking}

    @classmethod
    def from_json(cls, raw: object) -> FormMemory:
        """Read back what ``to_json`` wrote; anything malformed is dropped, never raised."""
        if not isinstance(raw, dict):
            return cls()

        def names(key: str) -> tuple[str, ...]:
            value = raw.get(key)
            if not isinstance(value, list):
                return ()
            return tuple(str(n)[:MAX_NAME] for n in value if isinstance(n, str) and n.strip())

        tracking = raw.get("tracking")
        return cls(
            recent=names("recent")[:RECENT_NAMES],
            last=names("last"),
            tracking=tracking if tracking in TRACKING_LEVELS else None,
        )


@dataclass
class FieldError:
    key: str
    args: dict[str, object] = field(default_factory=dict)


class NewMatchForm:
    """Editable settings for a match; ``submit`` creates it through the storage layer."""

    def __init__(self, memory: FormMemory | None = None) -> None:
        self.memory = memory or FormMemory()
        self.variants: list[str] = backend.variant_ids()
        self.variant = "two-hand" if "two-hand" in self.variants else self.variants[0]
        self.names: list[str] = list(self.memory.last)
        self.player_count = 2
        counts = backend.variant_info(self.variant).player_counts
        if len(self.names) in counts:
            self.player_count = len(self.names)
        self.target_text = ""
        # Where each deal is a game (Rubicon …): a match over a number of games, or a target.
        self.games_text = ""
        self.match_by = "games"
        self.house_rules: set[str] = set()
        self.preset = "defaults"
        self.customising = False
        self.tracking = self.memory.tracking or "melds"
        self.errors: dict[str, FieldError] = {}
        self.set_variant(self.variant)

    # --- what the variant allows ------------------------------------------------------------
    @property
    def info(self) -> backend.VariantInfo:
        return backend.variant_info(self.variant)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.info.player_counts

    @property
    def default_target(self) -> int:
        return self.info.targets[self.player_count]

    @property
    def tracking_levels(self) -> tuple[str, ...]:
        """What may be recorded in this variant (the joker variant has no cards tracking)."""
        return tuple(lv for lv in TRACKING_LEVELS if lv in self.info.tracking_levels)

    @property
    def sevens_score(self) -> bool:
        """Whether the seven of trumps scores in this variant (not in no-trump or the joker
        variant, whose packs have none): the help text must not speak of sevens there."""
        return backend.combination_table(self.variant, frozenset())[1] > 0

    @property
    def in_games(self) -> bool:
        """Whether each deal of this variant is a game (Rubicon, six-pack, eight-pack): the
        match is then agreed as a number of games, or as a points target."""
        return self.info.games is not None

    @property
    def by_games(self) -> bool:
        return self.in_games and self.match_by == "games"

    def set_match_by(self, how: str) -> None:
        """"games" or "target" (only where each deal is a game)."""
        if how in ("games", "target"):
            self.match_by = how
            self.errors.pop("games", None)
            self.errors.pop("target", None)

    def set_games(self, text: str) -> None:
        self.games_text = text
        self.errors.pop("games", None)

    @property
    def partnerships(self) -> bool:
        return self.player_count in self.info.partnerships_at

    def set_variant(self, variant: str) -> None:
        if variant not in self.variants:
            self.errors["variant"] = FieldError("form.error.variant")
            return
        self.variant = variant
        counts = self.info.player_counts
        if self.player_count not in counts:
            self.player_count = counts[0]
        if self.preset in self.presets():  # a source's readings, as this variant has them
            self.house_rules = set(backend.preset_rules(self.preset, self.switches))
        else:
            self.house_rules &= set(self.switches)
            self.preset = backend.preset_matching(self.house_rules, self.switches, self.variant)
        if self.tracking not in self.tracking_levels:
            self.tracking = self.tracking_levels[0]
        self._fit_names()
        self._default_goal()
        self.errors.pop("variant", None)

    def _default_goal(self) -> None:
        """The variant's target, or its number of games (a target for such a variant is the
        table's to type: the sources agree no default)."""
        default = self.default_target
        self.target_text = str(default) if default > 0 else ""
        self.games_text = str(self.info.games) if self.info.games is not None else ""

    def set_player_count(self, n: int) -> None:
        if n not in self.player_counts:
            self.errors["players"] = FieldError("form.error.player_count")
            return
        self.player_count = n
        self._fit_names()
        self._default_goal()
        self.errors.pop("players", None)

    def _fit_names(self) -> None:
        while len(self.names) < self.player_count:
            self.names.append("")
        del self.names[self.player_count :]

    def set_name(self, seat: int, name: str) -> None:
        if 0 <= seat < len(self.names):
            self.names[seat] = name
            self.errors.pop(f"name{seat}", None)

    def set_target(self, text: str) -> None:
        self.target_text = text
        self.errors.pop("target", None)

    # --- house rules: presets, then single switches -------------------------------------------
    @property
    def switches(self) -> tuple[str, ...]:
        """The house rules a table may switch on for this variant (H-TARGET is the target)."""
        return tuple(r for r in self.info.house_rules if r not in NOT_SWITCHES)

    def presets(self) -> list[str]:
        """The presets offered for this variant (ids; the defaults first)."""
        return backend.preset_ids(self.switches, self.variant)

    def set_preset(self, preset_id: str) -> None:
        if preset_id in self.presets():
            self.house_rules = set(backend.preset_rules(preset_id, self.switches))
            self.preset = preset_id

    def toggle_customise(self) -> None:
        self.customising = not self.customising

    def toggle_house_rule(self, rule: str) -> None:
        if rule not in self.switches:
            return
        self.house_rules ^= {rule}
        self.preset = backend.preset_matching(self.house_rules, self.switches, self.variant)

    # --- names: remembered and suggested ------------------------------------------------------
    def suggestions(self) -> list[str]:
        """Recent names not already in the form, most recent first."""
        taken = {n.strip().casefold() for n in self.names if n.strip()}
        return [n for n in self.memory.recent if n.casefold() not in taken][:8]

    def use_suggestion(self, name: str) -> None:
        """Put a suggested name in the first empty seat (nothing if every seat has a name)."""
        for seat, current in enumerate(self.names):
            if not current.strip():
                self.set_name(seat, name)
                return

    def remembered(self) -> FormMemory:
        """The memory to keep after this form started a match."""
        names = [n.strip() for n in self.names]
        unique: list[str] = []
        for n in [*names, *self.memory.recent]:
            if n and n.casefold() not in {u.casefold() for u in unique}:
                unique.append(n)
        return FormMemory(tuple(unique[:RECENT_NAMES]), tuple(names), self.tracking)

    def set_tracking(self, level: str) -> None:
        if level in self.tracking_levels:
            self.tracking = level

    # --- validation and submit --------------------------------------------------------------
    def validate(self) -> dict[str, FieldError]:
        errors: dict[str, FieldError] = {}
        seen: dict[str, int] = {}
        for seat, raw in enumerate(self.names):
            name = raw.strip()
            if not name:
                errors[f"name{seat}"] = FieldError("form.error.name_empty")
            elif len(name) > MAX_NAME:
                errors[f"name{seat}"] = FieldError("form.error.name_long", {"n": MAX_NAME})
            elif name.casefold() in seen:
                errors[f"name{seat}"] = FieldError("form.error.name_duplicate")
            else:
                seen[name.casefold()] = seat
        if self.by_games:
            games = self.games_text.strip()
            if not games.isdigit() or not 0 < int(games) <= 10_000:
                errors["games"] = FieldError("rubicon.form.error_games")
        else:
            text = self.target_text.strip()
            if not text.isdigit() or int(text) <= 0 or int(text) > 1_000_000:
                errors["target"] = FieldError("form.error.target")
        self.errors = errors
        return errors

    def target(self) -> int | None:
        """The points target; None for a match over a number of games."""
        return None if self.by_games else int(self.target_text.strip())

    def games(self) -> int | None:
        """The number of games agreed (variants where each deal is a game), else None."""
        return int(self.games_text.strip()) if self.by_games else None

    def rules_in_force(self) -> list[str]:
        """The house rules switched on (the target is the target field's number)."""
        return sorted(self.house_rules)

    def submit(self, store: backend.StoreLike) -> int | None:
        """Create the match; None (and ``errors`` filled) when the form is not valid."""
        if self.validate():
            return None
        try:
            return backend.create_match(
                store,
                variant=self.variant,
                players=[n.strip() for n in self.names],
                tracking=self.tracking,
                house_rules=self.rules_in_force(),
                target=self.target(),
                games=self.games(),
            )
        except ValueError as exc:  # the engine or storage refused the settings
            self.errors["form"] = FieldError("form.error.refused", {"why": str(exc)})
            return None
