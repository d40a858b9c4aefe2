"""The "new match" form: variant, players, target, house rules and tracking level.

Validation only checks that the input is well formed (names present and distinct, a target
that is a positive whole number); what a variant or house rule means is the engine's business.
Errors are translation keys per field, so the form can name the field that is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ui import backend

TRACKING_LEVELS: tuple[str, ...] = ("melds", "tricks", "cards")
MAX_NAME = 24


@dataclass
class FieldError:
    key: str
    args: dict[str, object] = field(default_factory=dict)


class NewMatchForm:
    """Editable settings for a match; ``submit`` creates it through the storage layer."""

    def __init__(self) -> None:
        self.variants: list[str] = backend.variant_ids()
        self.variant = "two-hand" if "two-hand" in self.variants else self.variants[0]
        self.names: list[str] = []
        self.player_count = 2
        self.target_text = ""
        self.house_rules: set[str] = set()
        self.tracking = "melds"
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
        self.house_rules &= set(self.info.house_rules)
        if self.tracking not in self.tracking_levels:
            self.tracking = self.tracking_levels[0]
        self._fit_names()
        self.target_text = str(self.default_target)
        self.errors.pop("variant", None)

    def set_player_count(self, n: int) -> None:
        if n not in self.player_counts:
            self.errors["players"] = FieldError("form.error.player_count")
            return
        self.player_count = n
        self._fit_names()
        self.target_text = str(self.default_target)
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

    def toggle_house_rule(self, rule: str) -> None:
        if rule not in self.info.house_rules:
            return
        self.house_rules ^= {rule}

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
        text = self.target_text.strip()
        if not text.isdigit() or int(text) <= 0 or int(text) > 1_000_000:
            errors["target"] = FieldError("form.error.target")
        self.errors = errors
        return errors

    def target(self) -> int:
        return int(self.target_text.strip())

    def rules_in_force(self) -> list[str]:
        """House rules chosen, plus H-TARGET when the target differs from the variant's."""
        rules = set(self.house_rules)
        if (
            "H-TARGET" in self.info.house_rules
            and self.target_text.strip().isdigit()
            and self.target() != self.default_target
        ):
            rules.add("H-TARGET")
        return sorted(rules)

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
            )
        except ValueError as exc:  # the engine or storage refused the settings
            self.errors["form"] = FieldError("form.error.refused", {"why": str(exc)})
            return None
