# Two commands for a newcomer: `make run` and `make test`; `make test-fast` while working.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test test-fast lint bench simulate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP) $@

run: $(STAMP)
	$(BIN)/python -m app

test: $(DEVSTAMP)
	$(BIN)/python -m pytest -q

# Everything but the browser (tests/e2e), chaos (tests/chaos), multi-process tests (marked `multiprocess` by
# tests/app/conftest.py) and the few marked `slow`, on SQLite only (each Postgres test rebuilds its schema):
# about 2 minutes on two cores.  `make test` stays the whole suite, as .ci/run runs it.
test-fast: $(DEVSTAMP)
	env -u TEST_DATABASE_URL $(BIN)/python -m pytest -q --ignore=tests/e2e --ignore=tests/chaos -m "not multiprocess and not slow"

lint: $(DEVSTAMP)
	$(BIN)/ruff check engine app tests bench
	$(BIN)/mypy app engine
	$(BIN)/lint-imports --no-cache

bench: $(DEVSTAMP)
	$(BIN)/python bench/engine_bench.py

simulate: $(STAMP)
	$(BIN)/python -m engine simulate --variant taiwan --hands 200 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
