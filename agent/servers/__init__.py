"""Servers over the memory API: ``mcp`` (Model Context Protocol) for other agents' models."""
