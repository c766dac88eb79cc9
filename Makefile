# Two commands for a newcomer: `make run` and `make test`; `make test-fast` while working.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
# The web client's dev tools (TypeScript's checker, pinned in package-lock.json); npm ci writes this file.
NODESTAMP := node_modules/.package-lock.json

.PHONY: run test test-fast test-web test-pure compiled clean-compiled lint bench simulate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[compile]'
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,compile]'
	touch $(STAMP) $@

$(NODESTAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

run: compiled
	$(BIN)/python -m app

# The engine's hot modules compiled with mypyc (tools/compile_engine.py; rebuilt when an engine source changed).
compiled: $(STAMP)
	$(BIN)/python tools/compile_engine.py

clean-compiled:
	$(PY) tools/compile_engine.py --clean

# Both suites always run, pytest last (its summary stays the last line); the target fails if either failed.
test: $(DEVSTAMP) $(NODESTAMP) compiled  # the browser suite injects axe-core from node_modules (tests/e2e/test_e2e_accessibility.py)
	@web=0; py=0; \
	$(MAKE) --no-print-directory test-web || web=$$?; \
	$(BIN)/python -m pytest -q || py=$$?; \
	if [ $$web -ne 0 ]; then echo "make test: the web client's unit tests (tests/web) failed, see above" >&2; fi; \
	[ $$web -eq 0 ] && [ $$py -eq 0 ]

# The web client's pure modules under Node's own test runner (no npm packages needed).
test-web:
	node --test --test-reporter=spec tests/web/

# Everything but the browser (tests/e2e), chaos (tests/chaos), multi-process tests (marked `multiprocess` by
# tests/app/conftest.py) and the few marked `slow`, on SQLite only (each Postgres test rebuilds its schema):
# about 2 minutes on two cores.  `make test` stays the whole suite, as .ci/run runs it.
test-fast: $(DEVSTAMP) compiled
	$(MAKE) --no-print-directory test-web
	env -u TEST_DATABASE_URL $(BIN)/python -m pytest -q --ignore=tests/e2e --ignore=tests/chaos -m "not multiprocess and not slow"

# The engine's, the scoring's and the table's tests on the plain Python sources (removes the compiled modules
# first): the fallback the compiled modules replace, and the one test that patches what the compiled flow calls natively.
test-pure: $(DEVSTAMP) clean-compiled
	$(BIN)/python -m pytest -q tests/engine tests/scoring tests/test_compiled_engine.py tests/app/tables/play tests/app/ws/test_ws_errors.py

lint: $(DEVSTAMP) $(NODESTAMP)
	$(BIN)/ruff check engine app tests bench tools
	$(BIN)/mypy app engine
	$(BIN)/lint-imports --no-cache
	node_modules/.bin/tsc -p web/jsconfig.json  # web/js under // @ts-check, strict

bench: $(DEVSTAMP) compiled
	$(BIN)/python bench/engine_bench.py

simulate: compiled
	$(BIN)/python -m engine simulate --variant taiwan --hands 200 --seed 1

clean: clean-compiled
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build node_modules
