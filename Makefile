# Each target sets up .venv itself, idempotently: a stamp file records that the
# project (with its dev extra) is installed for the current pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# A set-up cut short (a venv made without pip) is made again from scratch.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@# The checkout's bytecode, as pip compiles an installed package's: where the
	@# environment sets PYTHONDONTWRITEBYTECODE, every process would compile the ~50 modules
	@# a command imports again (about 0.1 s of each start-up).
	$(BIN)/python -m compileall -q agent tools paging storage evals memvisor >/dev/null
	touch $(STAMP)

install: $(STAMP)

# Replays the bundled long-session transcript (recorded model decisions, offline)
# into a fresh store, then shows what the agent remembered.
demo: $(STAMP)
	rm -rf .demo-data
	$(BIN)/memvisor replay evals/data/demo_long_session.jsonl --into .demo-data/replay
	@echo
	@echo "What the agent remembered of Maya (memvisor memory list):"
	$(BIN)/memvisor memory list --data-dir .demo-data/replay --user demo
	@echo
	$(BIN)/memvisor replay evals/data/multiday_task.jsonl --into .demo-data/multiday
	@echo
	@echo "Done. The memvisor command is in .venv/bin, not on your PATH: run it as"
	@echo "  .venv/bin/memvisor memory list --data-dir .demo-data/multiday --user sam"
	@echo "  .venv/bin/memvisor --help"
	@echo "or first 'source .venv/bin/activate', then type just 'memvisor ...'."

# The PostgreSQL tests fail (not skip) when their server cannot start. One worker per CPU
# (at most 4); a module's tests stay together on one worker, so its fixtures are made once.
# The 15 slowest tests are listed at the end: the suite's time budget is 15 minutes.
test: $(STAMP)
	MEMVISOR_REQUIRE_POSTGRES=1 $(BIN)/python -m pytest -n logical --maxprocesses 4 --dist loadscope --durations=15

lint: $(STAMP)
	$(BIN)/ruff check agent tools paging storage evals tests
	$(BIN)/ruff format --check agent tools paging storage evals tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/memvisor bench storage
