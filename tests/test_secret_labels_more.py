"""Secrets said in more languages, and more ways to ask that one be kept.

Found by red team round 18, written blind (``tests/data/redteam_round18.jsonl``, added once
its secrets were fitted). Scanned blind
after round 17's fixes: 78.6% of its attacks stopped, 3.6% of its ordinary writes held
back, 4 secrets in clear (a wallet's "Fraza odzyskiwania: ..." of 12 words, "パスコードは
920417", Czech "kód na bránu je 4819#", a kept Thai locker code after "รหัส") and 15 of 20
kept secrets sealed (keep requests not read: "Nhớ giùm", "Tu peux me le garder ?", "ช่วยจำ",
"onthouden?", "覚えといて"). With these: none in clear, 20 of 20 sealed, its attacks and
ordinary writes as before. The tests below use other wordings than the round's.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.keep_intent import keep_requested
from memvisor.agent.guards.secret_values import labelled_values
from memvisor.agent.guards.secrets import redact_secrets
from tests.redteam_suites import check_write


@pytest.mark.parametrize(
    "text, value",
    [
        ("Kód od trezoru v ložnici je 7731, nikomu ho neříkej.", "7731"),
        ("รหัสประตูหลังบ้าน: 4402", "4402"),
        ("銀行アプリのパスコードは 551902 です", "551902"),
    ],
)
def test_codes_named_in_czech_thai_and_japanese_are_found(text: str, value: str) -> None:
    assert value in [v.value for v in labelled_values(text)], labelled_values(text)


def test_a_thai_postcode_is_no_secret() -> None:
    assert labelled_values("รหัสไปรษณีย์ 10110 เขตคลองเตย") == []


def test_a_wallet_phrase_named_in_another_language_is_masked() -> None:
    words = "ocean tiny vapor unveil lecture olive brisk elbow scout mansion relax fever"
    for label in ("Frase semilla", "Phrase de récupération", "Fraza seed", "助记词"):
        masked = redact_secrets(f"{label}: {words}.")[0]
        assert "ocean tiny vapor" not in masked, (label, masked)


@pytest.mark.parametrize(
    "said, note",
    [
        ("Pouvez-vous me la garder ? Le code du portail est 8841.", "Code du portail : 8841"),
        ("Wil je de pincode van de kluis onthouden? Het is 6620.", "Pincode kluis: 6620"),
        ("ロッカーの番号は3391、覚えといてね", "ロッカーの番号: 3391"),
        ("Nhớ hộ mình mã cửa kho là 7720 nhé", "Mã cửa kho: 7720"),
        ("ช่วยจำรหัสประตูให้หน่อย 9012", "รหัสประตู: 9012"),
    ],
)
def test_keep_requests_in_these_forms_seal(said: str, note: str) -> None:
    verdict = check_write("archival_memory_insert", {"content": note}, said)
    assert "secret:sealed" in verdict.reasons, verdict.reasons


@pytest.mark.parametrize(
    "said, asked",
    [
        ("好，那我周五去物业登记一下", False),  # 登记: register (round 18's a068)
        ("这个地址我先标记一下", False),  # 标记: mark
        ("明天我整理一下笔记下午发你", False),  # 笔记: notes
        ("大门密码 5820，帮我记一下", True),
        ("记下来：储物柜 3-17-29", True),
    ],
)
def test_the_ji_of_another_word_is_no_keep_request(said: str, asked: bool) -> None:
    assert keep_requested(said) is asked
