"""The write firewall: every proposed memory write gets a verdict before it is stored.

Checks, in order: schema/whitelist, cross-user, injection (English and Chinese,
also inside base64), secrets (redacted; rejected when nothing else is left).
Verdicts are ``allow | redact | quarantine | reject`` with machine-readable
reasons like ``injection:ignore_instructions``.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

from tools.builtin import WRITE_TOOLS
from tools.guard import FirewallVerdict, WriteProposal

INJECTION_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.IGNORECASE)
    for name, pattern in {
        "ignore_instructions": r"\b(ignore|disregard|forget|override)\b.{0,30}\b(previous|prior|"
        r"above|earlier|all|your|system)\b.{0,20}\b(instructions?|rules|"
        r"prompts?|guidelines)",
        "role_override": r"\byou are now\b|\bact as (an?|the) (unrestricted|jailbroken|dan)\b|"
        r"\bnew (system )?instructions?\s*:",
        "role_marker": r"<\|im_start\|>|<\|system\|>|\[/?(system|inst)\]|^\s*(system|assistant)"
        r"\s*:|<<\s*sys\s*>>|###\s*(system|instruction)",
        "standing_promotion": r"\b(always|must|should)\s+(recommend|promote|suggest|tell "
        r"(everyone|all users|users))\b|\bto (everyone|every user|all users)\b",
        "exfiltration": r"\b(send|forward|leak|post)\b.{0,40}\b(password|api key|credentials|"
        r"all (the )?(memories|data))\b",
        "zh_ignore": r"(忽略|无视|忘记|忘掉).{0,10}(之前|以上|先前|所有|系统)"
        r".{0,6}(指令|指示|规则|提示)",
        "zh_role": r"你现在是|从现在(开始|起).{0,12}(总是|一直|必须).{0,10}(推荐|推销|告诉所有)",
        "zh_promotion": r"(总是|一直|必须)(推荐|推销)|向所有(人|用户)",
    }.items()
}

SECRET_PATTERNS: dict[str, re.Pattern[str]] = {
    "private_key": re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*"
        r"PRIVATE KEY-----|$)"
    ),
    "api_key": re.compile(
        r"\b(sk-[A-Za-z0-9_-]{16,}|sk_(live|test)_[A-Za-z0-9]{16,}|"
        r"AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|"
        r"AIza[0-9A-Za-z_-]{35})\b"
    ),
    "bearer_token": re.compile(
        r"\b(bearer|token)\s*[:=]?\s*[A-Za-z0-9._~+/-]{20,}=*", re.IGNORECASE
    ),
    "password": re.compile(
        r"\b(password|passwd|pwd|passcode|密码)\s*(is|:|=|：|是)\s*\S+", re.IGNORECASE
    ),
}
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")
_USER_REF = re.compile(r"\buser[_ ]?id\s*[:=]\s*['\"]?([A-Za-z0-9_.@-]+)", re.IGNORECASE)
_TEXT_FIELDS = ("content", "new_content", "subject", "predicate", "object")


@dataclass
class Firewall:
    labels: frozenset[str] = frozenset({"persona", "human"})
    max_chars: int = 4000
    extra_patterns: dict[str, re.Pattern[str]] = field(default_factory=dict)

    def __call__(self, proposal: WriteProposal) -> FirewallVerdict:
        return self.check(proposal)

    def check(self, proposal: WriteProposal) -> FirewallVerdict:
        args = proposal.arguments
        if proposal.tool not in WRITE_TOOLS:
            return FirewallVerdict(
                verdict="reject", reasons=[f"schema:unknown_tool:{proposal.tool}"]
            )
        if "label" in args and args["label"] not in self.labels:
            return FirewallVerdict(
                verdict="reject", reasons=[f"schema:unknown_label:{args['label']}"]
            )
        texts = {k: v for k, v in args.items() if k in _TEXT_FIELDS and isinstance(v, str)}
        joined = "\n".join(texts.values())
        if len(joined) > self.max_chars:
            return FirewallVerdict(verdict="reject", reasons=["schema:too_long"])
        other = [u for u in _USER_REF.findall(joined) if u != proposal.user_id]
        if other:
            return FirewallVerdict(verdict="reject", reasons=["cross_user:names_other_user"])
        injections = self.injections(joined)
        if injections:
            return FirewallVerdict(
                verdict="quarantine", reasons=[f"injection:{n}" for n in injections], confidence=0.0
            )
        redacted, secrets = _redact_fields(args)
        if secrets:
            left = " ".join(str(redacted.get(k, "")) for k in texts)
            if not re.sub(r"\[REDACTED:\w+\]|\W", "", left):
                return FirewallVerdict(verdict="reject", reasons=[f"secret:{s}" for s in secrets])
            return FirewallVerdict(
                verdict="redact", reasons=[f"secret:{s}" for s in secrets], stored=redacted
            )
        return FirewallVerdict(verdict="allow")

    def injections(self, text: str) -> list[str]:
        found = [
            n for n, p in {**INJECTION_PATTERNS, **self.extra_patterns}.items() if p.search(text)
        ]
        for blob in _BASE64.findall(text):
            decoded = _b64(blob)
            if decoded:
                found += [f"encoded_{n}" for n in self.injections(decoded) if n not in found]
        return list(dict.fromkeys(found))


def _b64(blob: str) -> str | None:
    try:
        text = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return text if text.isprintable() else None


def _luhn(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def redact_secrets(text: str) -> tuple[str, list[str]]:
    """Mask secrets in text; return the masked text and the kinds found."""
    found: list[str] = []
    for name, pattern in SECRET_PATTERNS.items():
        if pattern.search(text):
            found.append(name)
            text = pattern.sub(f"[REDACTED:{name}]", text)

    def card(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn(digits):
            found.append("card_number")
            return "[REDACTED:card_number]"
        return match.group(0)

    return _CARD.sub(card, text), list(dict.fromkeys(found))


def _redact_fields(args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    out, kinds = dict(args), []
    for key in _TEXT_FIELDS:
        if isinstance(out.get(key), str):
            out[key], found = redact_secrets(out[key])
            kinds += found
    return out, list(dict.fromkeys(kinds))
