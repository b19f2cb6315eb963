"""What the write firewall allows, and its thresholds: one validated, serialisable config."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memvisor.errors import UserError

from .regex_cache import compile_cached

# Predicates the model commonly uses; any other snake_case predicate is still allowed (with a
# ``schema:predicate_unlisted`` note) because a closed list would refuse ordinary facts.
DEFAULT_PREDICATES = frozenset(
    {
        "name", "full_name", "nickname", "age", "birthday", "lives_in", "moved_to", "from",
        "address", "works_as", "works_at", "job", "occupation", "employer", "studies",
        "has_partner", "has_spouse", "has_husband", "has_wife", "has_child", "has_daughter",
        "has_son", "has_sibling", "has_pet", "has_friend", "mother", "father", "daughter_age",
        "son_age", "likes", "dislikes", "loves", "enjoys", "prefers", "prefers_not", "avoids",
        "hobby", "has_hobby", "interested_in", "speaks", "learning", "diet", "allergic_to",
        "afraid_of", "favorite_color", "favorite_food", "owns", "visited", "planning_trip",
        "order_number", "ordered", "has_order", "appointment", "school", "phone", "email",
        "timezone", "language", "answer_preference", "member_of", "knows", "works_with",
    }
)  # fmt: skip

# Contact details are kept only here: facts with these predicates and the profile blocks.
CONTACT_PREDICATES = frozenset(
    {
        "phone", "phone_number", "mobile", "mobile_number", "cell", "telephone", "email",
        "email_address", "contact_email", "work_email", "work_phone", "home_phone", "contact",
        "电话", "手机", "手机号", "邮箱", "电子邮件", "联系方式",
    }
)  # fmt: skip


class FirewallConfig(BaseModel):
    """Every knob of the write firewall; load a JSON/TOML file with ``FirewallConfig.load``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    labels: frozenset[str] = Field(
        default=frozenset({"persona", "human"}), description="Core block labels writes may name."
    )
    profile_labels: frozenset[str] = Field(
        default=frozenset({"human"}), description="Blocks where phone numbers and emails may stay."
    )
    predicates: frozenset[str] = Field(
        default=DEFAULT_PREDICATES, description="Known predicates (others get a note, not a block)."
    )
    predicate_pattern: str = Field(
        default=r"^[^\W\d_][\w]{0,63}$",
        description="A normalised predicate must match this (snake_case words, any script).",
    )
    contact_predicates: frozenset[str] = CONTACT_PREDICATES
    max_chars: dict[str, int] = Field(
        default_factory=lambda: {
            "core": 8000,
            "archival": 8000,
            "subject": 200,
            "predicate": 64,
            "object": 1000,
        },
        # Blocks are bounded in real tokens by the tool; these only refuse absurd payloads.
        description="Size limits per field kind, in characters.",
    )
    confidence_floor: float = Field(default=0.6, ge=0.0, le=1.0)
    provenance_caps: dict[str, float] = Field(
        default_factory=lambda: {
            "user_explicit": 1.0,
            "user_implied": 0.8,
            "model_inferred": 0.6,
            "tool_derived": 0.4,
        }
    )
    agreement_bonus: float = Field(default=0.1, ge=0.0, le=0.5)
    contradiction_penalty: float = Field(default=0.1, ge=0.0, le=0.5)
    conflict_confidence: float = Field(
        default=0.85, ge=0.0, le=1.0, description="A fact this sure needs a confirmed change."
    )
    support_threshold: float = Field(
        default=0.5, gt=0.0, le=1.0, description="Share of content words a source must contain."
    )
    max_writes_per_minute: int | None = Field(default=30, ge=1)
    semantic: bool = Field(
        default=True,
        description="Also look for steering text by meaning (MiniLM embeddings, semantic.py).",
    )
    semantic_threshold: float = Field(
        default=0.12,
        ge=-1.0,
        le=2.0,
        description="Attack-minus-ordinary similarity at which a sentence counts as steering.",
    )
    semantic_margin_user_words: float = Field(
        default=0.08,
        ge=0.0,
        le=2.0,
        description="Added to the threshold when the user's own words support the write.",
    )
    restated: bool = Field(
        default=True,
        description=(
            "Also ground a sensitive claim the user stated in other words or another language, "
            "by meaning over multilingual embeddings (restated.py)."
        ),
    )
    learned: bool = Field(
        default=True,
        description=(
            "Also score steering text with the learned classifier over multilingual "
            "embeddings (learned.py)."
        ),
    )
    learned_threshold: float | None = Field(
        default=None,
        ge=-50.0,
        le=50.0,
        description="The learned layer's logit at which a write counts as steering; None: "
        "the threshold shipped with its weights.",
    )
    extra_injection_patterns: dict[str, str] = Field(
        default_factory=dict, description="name -> regex, reported as injection:<name>."
    )

    @field_validator("predicate_pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        compile_cached(value)
        return value

    @field_validator("extra_injection_patterns")
    @classmethod
    def _patterns_compile(cls, value: dict[str, str]) -> dict[str, str]:
        for name, pattern in value.items():
            try:
                compile_cached(pattern)
            except re.error as exc:
                raise ValueError(f"pattern {name!r} is not a valid regex: {exc}") from None
        return value

    @classmethod
    def load(cls, path: str | Path) -> FirewallConfig:
        """Read a ``.json`` or ``.toml`` file of overrides; errors say which key is wrong."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot read firewall config {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise UserError(
                f"firewall config {path} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
            ) from None
        try:
            data: Any = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            raise UserError(
                f"firewall config {path} is not valid {path.suffix[1:]}: {exc}"
            ) from None
        try:
            return cls.model_validate(
                data.get("firewall", data) if isinstance(data, dict) else data
            )
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(top level)"
            raise UserError(f"firewall config {path}: {where}: {first['msg']}") from None
