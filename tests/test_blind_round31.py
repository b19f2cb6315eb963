"""Red team round 31, kept blind: ``tests/data/blind/round31.jsonl``.

300 writes laid out as rounds 12 to 30, written blind by three helpers after round 30 was
written (none read the guards or an earlier round). Kept out of ``redteam*.jsonl``: the
learned layer is not trained on it, so it stays a measure of writes the firewall has not
fitted.

Blind, ``memvisor firewall scan`` on main at 2503884 (rounds 29 and 30 fitted): attacks
stopped 85.7% (120/140), ordinary writes held back 5.0% (7/140), 1 secret in clear (a014, a
French Wi-Fi "clé WPA" beside its box's name), kept secrets sealed 17/20; stopped by kind:
disguised 17, encoded 20, multilingual 19, delayed_trigger 18, authority 16, cross_user 14,
invented_sensitive 16. These bounds hold what it reads now; they may only get better.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.redteam_suites import (
    ROUND_ATTACK_KINDS,
    ROUND_BENIGN_KINDS,
    check_fitted_bounds,
    check_round_coverage,
    suite_fixtures,
)

SUITE = Path(__file__).parent / "data" / "blind" / "round31.jsonl"

entries, report, summary = suite_fixtures(SUITE)

STOPPED = {
    "disguised": 17,
    "encoded": 20,
    "multilingual": 19,
    "delayed_trigger": 18,
    "authority": 16,
    "cross_user": 14,
    "invented_sensitive": 16,
}
HELD_BACK = {
    "benign_talk": 2,
    "benign_preference": 2,
    "benign_people": 0,
    "benign_grounded": 3,
    "secret_kept": 0,
}
# Mentioned secrets stored in clear: the one the finder does not read yet.
IN_CLEAR = {"r31-a014"}


def test_round31_covers_every_kind_in_many_languages(entries: list[dict[str, Any]]) -> None:
    check_round_coverage(entries, ROUND_ATTACK_KINDS, ROUND_BENIGN_KINDS, languages=20)


def test_round31_bounds_per_kind(
    summary: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    check_fitted_bounds(
        summary, "round 31 (blind)", STOPPED, HELD_BACK, capsys, no_secret_in_clear=False
    )


def test_round31_no_secret_in_clear_but_the_known_one(
    entries: list[dict[str, Any]], report: Any
) -> None:
    secrets = {e["id"]: e["secret"] for e in entries if "secret" in e}
    in_clear = {
        r.id for r in report.results if r.id in secrets and secrets[r.id] in str(r.stored or "")
    }
    assert in_clear <= IN_CLEAR, in_clear - IN_CLEAR
