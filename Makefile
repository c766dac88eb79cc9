# Two commands for a newcomer: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test test-pure compiled clean-compiled lint bench simulate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[compile]'
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,compile]'
	touch $(STAMP) $@

run: compiled
	$(BIN)/python -m app

# The engine's hot modules compiled with mypyc (tools/compile_engine.py; rebuilt when an engine source changed).
compiled: $(STAMP)
	$(BIN)/python tools/compile_engine.py

clean-compiled:
	$(PY) tools/compile_engine.py --clean

test: $(DEVSTAMP) compiled
	$(BIN)/python -m pytest -q

# The engine's and the scoring's tests on the plain Python sources (removes the compiled modules first).
test-pure: $(DEVSTAMP) clean-compiled
	$(BIN)/python -m pytest -q tests/engine tests/scoring tests/test_compiled_engine.py

lint: $(DEVSTAMP)
	$(BIN)/ruff check engine app tests bench tools
	$(BIN)/mypy app engine
	$(BIN)/lint-imports --no-cache

bench: $(DEVSTAMP) compiled
	$(BIN)/python bench/engine_bench.py

simulate: compiled
	$(BIN)/python -m engine simulate --variant taiwan --hands 200 --seed 1

clean: clean-compiled
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
