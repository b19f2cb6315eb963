"""Secrets in three more forms, found by red team round 27 (written blind, not yet a suite).

Scanned blind on main at 8590b4b: 3 secrets in clear, each a form the secret finder did not
read: a pass phrase in French guillemets, which set a space inside them ("« le chat dort »");
a security question's answer with words between the answer and its link word ("the answer I
used is ..."); the number of a key box, in English and Japanese ("キーボックスの番号"). With
these: none in clear on that round, 18 of its 20 kept secrets sealed (16 before), its
attacks and ordinary writes as before; all 28 suites and the LoCoMo notes unchanged. The
tests use other wordings than the round's.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.secret_values import labelled_values


@pytest.mark.parametrize(
    "text, value",
    [
        ("Mot de passe du coffre : « tortue bleue 42 »", "tortue bleue 42"),
        (
            "Wi-Fi du chalet, mot de passe « soleil sur la dune 7 »",
            "soleil sur la dune 7",
        ),
        (
            "Passphrase : « grand vent du nord »\u00a0; ne pas la noter ailleurs.",
            "grand vent du nord",
        ),
        ("For the bank's security question the answer we chose was Marigold2001.", "Marigold2001"),
        ("security question (first school): the answer I gave them is Oakridge_77", "Oakridge_77"),
        ("The key box number is 5512.", "5512"),
        ("Key box: 0917", "0917"),
        ("祖母の家のキーボックスの番号は3381です", "3381"),
    ],
)
def test_these_forms_give_their_value(text: str, value: str) -> None:
    assert value in [found.value for found in labelled_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        "the answer I gave is wrong, sadly",
        "The key box is by the back door.",
        "« Le petit prince » est mon livre préféré.",
        "The box number is 7294.",
    ],
)
def test_their_ordinary_neighbours_give_none(text: str) -> None:
    assert labelled_values(text) == []
