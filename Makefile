# Two commands for a newcomer: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
# The web client's dev tools (TypeScript's checker, pinned in package-lock.json); npm ci writes this file.
NODESTAMP := node_modules/.package-lock.json

.PHONY: run test test-web lint bench simulate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP) $@

$(NODESTAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

run: $(STAMP)
	$(BIN)/python -m app

# Both suites always run, pytest last (its summary stays the last line); the target fails if either failed.
test: $(DEVSTAMP) $(NODESTAMP)  # the browser suite injects axe-core from node_modules (tests/e2e/test_e2e_accessibility.py)
	@web=0; py=0; \
	$(MAKE) --no-print-directory test-web || web=$$?; \
	$(BIN)/python -m pytest -q || py=$$?; \
	if [ $$web -ne 0 ]; then echo "make test: the web client's unit tests (tests/web) failed, see above" >&2; fi; \
	[ $$web -eq 0 ] && [ $$py -eq 0 ]

# The web client's pure modules under Node's own test runner (no npm packages needed).
test-web:
	node --test --test-reporter=spec tests/web/

lint: $(DEVSTAMP) $(NODESTAMP)
	$(BIN)/ruff check engine app tests bench
	$(BIN)/mypy app engine
	$(BIN)/lint-imports --no-cache
	node_modules/.bin/tsc -p web/jsconfig.json  # web/js under // @ts-check, strict

bench: $(DEVSTAMP)
	$(BIN)/python bench/engine_bench.py

simulate: $(STAMP)
	$(BIN)/python -m engine simulate --variant taiwan --hands 200 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache node_modules
