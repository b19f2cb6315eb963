# Each target sets up .venv itself, idempotently: a stamp file records that the
# project (with its dev extra) is installed for the current pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m evals.demo --data-dir .demo-data

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check agent tools paging storage evals tests
	$(BIN)/ruff format --check agent tools paging storage evals tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/engram bench storage
