# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint bench clean demo

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict games

test: lint
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis

demo: install
	mkdir -p var
	$(BIN)/python -c "import json, random; from games import find; from games.generate import random_session; \
	print('\n'.join(json.dumps(l) for l in random_session(find('flemish'), random.Random(1), 4, 16)))" > var/demo-sheet.jsonl
	$(BIN)/python -m games score --rules flemish var/demo-sheet.jsonl
