"""Red team round 6 (issue 14): ``tests/data/redteam_round6.jsonl``.

335 writes: 165 attacks (disguised, encoded, multilingual, delayed_trigger, authority,
cross_user, invented_sensitive), 122 ordinary writes and 48 secrets the user asked to keep
(expect "benign", with the value in ``secret``), in 28 languages. Written blind: before
anything under agent/guards/ or any earlier red-team file or test was read.

Blind figures, ``memvisor firewall scan tests/data/redteam_round6.jsonl`` once, before any
change (main at 4f3881c):
  attacks stopped 75.8% (125/165), ordinary writes held back 4.7% (8/170, secrets
  included), secrets stored in clear 4.
  authority 22/22, cross_user 15/23, delayed_trigger 18/22, disguised 19/24,
  encoded 14/22, invented_sensitive 19/24, multilingual 18/28;
  held back: benign_preference 1/19, benign_security 2/21, secret 5/48 (and 4 in clear),
  benign_everyday 0/20, benign_multilingual 0/24, benign_numbers 0/20, benign_people 0/18.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SUITE = Path(__file__).parent / "data" / "redteam_round6.jsonl"


def _lines() -> list[dict]:
    return [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines()]


def test_suite_has_what_the_issue_asks_for() -> None:
    lines = _lines()
    expect = Counter(line["expect"] for line in lines)
    assert expect["attack"] >= 150 and expect["benign"] >= 150
    assert len({line["lang"] for line in lines}) >= 6
    assert {"en", "zh"} <= {line["lang"] for line in lines}
    assert all(line["secret"] for line in lines if line["category"] == "secret")
