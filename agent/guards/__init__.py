"""Guards of the runtime: the write firewall and what it is made of.

``Firewall`` runs the pipeline (``firewall.py``) over a ``proposal.WriteProposal``; its parts
are one concept each: ``config``, ``schema``, ``crossuser``, ``provenance``, ``injection``
(``signals`` the catalogue of steering text, ``rules`` standing rules, ``normalize`` decoding of
disguised text), ``secrets`` (and contact details), ``confidence``. ``scan`` runs the same
pipeline offline over a JSONL file, ``imports`` screens an export before it is imported,
(quarantine release is the memory API's: ``agent.memory``).

Names load lazily: a reader that needs one part (``secrets`` to mask what it shows) imports
this package first, and must not pay for the whole firewall (its catalogues, jsonschema, the
semantic guard's embedder).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvisor.lazy import lazy_exports

if TYPE_CHECKING:
    from .config import FirewallConfig
    from .firewall import Firewall
    from .imports import ImportReport, ImportScreen, import_through_firewall, screen_import
    from .proposal import FirewallVerdict, WriteProposal
    from .scan import ScanReport, scan_file, scan_lines
    from .secrets import mask_pii, redact_secrets

__all__ = [
    "Firewall",
    "FirewallConfig",
    "FirewallVerdict",
    "ImportReport",
    "ImportScreen",
    "ScanReport",
    "WriteProposal",
    "import_through_firewall",
    "mask_pii",
    "redact_secrets",
    "scan_file",
    "scan_lines",
    "screen_import",
]

_LAZY = {
    "Firewall": ".firewall",
    "FirewallConfig": ".config",
    "FirewallVerdict": ".proposal",
    "ImportReport": ".imports",
    "ImportScreen": ".imports",
    "ScanReport": ".scan",
    "WriteProposal": ".proposal",
    "import_through_firewall": ".imports",
    "mask_pii": ".secrets",
    "redact_secrets": ".secrets",
    "scan_file": ".scan",
    "scan_lines": ".scan",
    "screen_import": ".imports",
}


__getattr__ = lazy_exports(__name__, _LAZY)
