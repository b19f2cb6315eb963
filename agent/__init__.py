"""Memvisor's runtime: the guarded agent loop, model clients, guards, config and CLI."""
