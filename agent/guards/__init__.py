"""Guards of the runtime: the write firewall and what it is made of.

``Firewall`` runs the pipeline (``firewall.py``) over a ``proposal.WriteProposal``; its parts
are one concept each: ``config``, ``schema``, ``crossuser``, ``provenance``, ``injection``
(``signals`` the catalogue of steering text, ``rules`` standing rules, ``normalize`` decoding of
disguised text), ``secrets`` (and contact details), ``confidence``. ``scan`` runs the same
pipeline offline over a JSONL file, ``imports`` screens an export before it is imported,
(quarantine release is the memory API's: ``agent.memory``).
"""

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
