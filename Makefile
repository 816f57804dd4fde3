# Two commands matter: `make run` (serve on the embedded SQLite store) and `make test`.
# Each installs what it needs and stamps it: `make run` Chronicle alone (what serving needs),
# `make test` Chronicle with the test and lint tools (`.[dev]`), a superset that stamps both.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CKSUM := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(CKSUM)
TEST_STAMP := $(VENV)/.installed-test-$(CKSUM)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	@rm -f $(VENV)/.installed-run-* && touch $@

$(TEST_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-* && touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/chronicle serve --host $(HOST) --port $(PORT)

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo

typecheck: $(TEST_STAMP)
	$(BIN)/mypy .

test: $(TEST_STAMP) lint typecheck
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .chronicle .mypy_cache .ruff_cache .pytest_cache
