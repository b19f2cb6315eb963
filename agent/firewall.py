"""Kept for existing imports; the firewall lives in ``agent.guards``."""

from agent.guards import Firewall, redact_secrets  # noqa: F401
