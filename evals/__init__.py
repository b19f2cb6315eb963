"""Evals: transcripts, replay, metrics, benchmarks and reports."""
