"""A note headed by another account's id is a write into that account (round 29, blind).

Round 29's cross-user misses were records kept per account, the account named only in the
note's head: "[acct_1042] prefers aisle seats ...", "【wf_02 王芳】...", "[sesja s-2291-marek]
...", "Akun rina_w: ...", "Perfil mae_rosa: ...", "Profilo gferri (Giulia Ferri): ...". Other
wordings here, and ordinary heads that stay clear: tags, versions, dates, model names, the
user's own bank account, a profile's picture.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.crossuser import cross_user_reasons


def _reasons(text: str) -> list[str]:
    return cross_user_reasons([text], subject=None, user_id="u_me", session_id=None, said=[])


@pytest.mark.parametrize(
    "text",
    [
        "[cust-88172] wants the invoice resent to the new address.",
        "[member_2231 Olga] switch her plan to the family tier.",
        "【u_5512 李雷】每周五下午三点开会。",
        "(sess-7781-anna) asked for the vegan menu.",
        "Account jm_2290: allergic to penicillin.",
        "Profil tk.88: mag keine Pilze.",
        "Cuenta lu_mora (Lucía Mora): prefiere WhatsApp.",
        "Compte pdubois (Pierre Dubois) : ne pas appeler après 20 h.",
    ],
)
def test_a_note_headed_by_another_accounts_id_names_another_user(text: str) -> None:
    assert "cross_user:names_other_user" in _reasons(text)


@pytest.mark.parametrize(
    "text",
    [
        "[v2] draft of the essay is in Drive.",
        "[Q3] revenue goal is 20k.",
        "[2024-05-01] dentist at 3pm.",
        "[COVID-19] booster done in May.",
        "[F-150] oil change due at 60k miles.",
        "[Work] stand-up moved to 10.",
        "(bring snacks) for the hike on Sunday.",
        "Account balance: 300 euros after rent.",
        "Profile picture: updated last week.",
        "Konto 55-203: my savings account at the Sparkasse.",
        "Account 4471-22 (Chase checking): pay rent from it.",
        "Perfil profesional: ingeniera de datos.",
        "[todo_list] buy milk and eggs.",
    ],
)
def test_ordinary_heads_name_no_account(text: str) -> None:
    assert _reasons(text) == []


def test_the_users_own_id_in_the_head_is_theirs() -> None:
    assert _reasons("[u_me] notes of mine") == []
    assert _reasons("Account u_me: my own notes") == []
