# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The browser tests (tests/browser) drive Debian's Chromium; Playwright never downloads one.
CHROMIUM := /usr/bin/chromium

.PHONY: install test lint bench clean demo chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

# Pyodide (npm) runs the rules engine in the browser for offline entry (tournaments/offline): node_modules/,
# served as /static/pyodide/. npm comes with Node.js (Debian: apt-get install npm).
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "make: npm is needed for Pyodide (Debian: apt-get install npm)" >&2; exit 1; }
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# The double-dummy solver of duplicate Wiezen (games/solver): plain C loaded with ctypes, built with the system's
# C compiler (Debian: apt-get install gcc); no Python headers, nothing downloaded.
CC ?= cc
SOLVER := games/solver/_wiezendd.so

$(SOLVER): games/solver/wiezendd.c
	@command -v $(CC) >/dev/null || { echo "make: a C compiler is needed for the solver (Debian: apt-get install gcc)" >&2; exit 1; }
	$(CC) -O3 -march=native -Wall -Wextra -Werror -shared -fPIC -o $@ $< 2>/dev/null \
	  || $(CC) -O2 -Wall -Wextra -Werror -shared -fPIC -o $@ $<

install: $(STAMP) $(NODE_STAMP) $(SOLVER)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict games

# Installs Debian's Chromium when it is missing (apt-get, through sudo -n when not root), as .ci/run does;
# fails saying how to install it only where it cannot.
chromium:
	@CHROMIUM=$(CHROMIUM) .ci/ensure-chromium

test: chromium lint
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/engine.py

# Issue 9: 100 tables enter their sheets at once through the API (needs PostgreSQL and Redis; about 2 minutes).
.PHONY: bench-load
bench-load: install
	$(BIN)/python bench/load.py

# Issue 16: the standings fragment of a 400-player season, unconditional and revalidated, against a static file
# through the same gunicorn (needs PostgreSQL and Redis; under a minute).
.PHONY: bench-read
bench-read: install
	$(BIN)/python bench/read.py

# Issue 16: a mixed evening: 100 tables entering a line every 30 s while 1,000 phones poll the standings every 5 s
# and 3 displays refresh, on gunicorn, Celery, PostgreSQL and Redis (needs both; about 5 minutes).
.PHONY: bench-evening
bench-evening: install
	$(BIN)/python bench/evening.py

# Issue 16: one new 24-deal session of 100 tables rated incrementally on 240,000 and 960,000 deals of history,
# checked against a full recomputation (needs PostgreSQL; about 10 minutes, most of it the full recomputations).
.PHONY: bench-ratings
bench-ratings: install
	$(BIN)/python bench/ratings.py

# Issue 19: a finalised duplicate round of the championship's size (236 players, 24 boards): its list of boards and
# a board's page beside the round page (needs PostgreSQL; under a minute, most of it the solver).
.PHONY: bench-boards
bench-boards: install
	$(BIN)/python bench/board_pages.py

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis

# The demo's duplicate boards are analysed with a worker's node budget (20,000,000 a question; about half a minute):
# the embedded default (500,000, as it runs in a request) leaves most of their vraag and alleen counts as ranges.
demo: install
	$(BIN)/python manage.py migrate --noinput
	WIEZEN_SOLVER_BUDGET=20000000 $(BIN)/python manage.py load_demo
	@echo ""
	@echo "Wiezen demo on http://127.0.0.1:8000/"
	@echo "  standings:  http://127.0.0.1:8000/c/demo-tournament/"
	@echo "  entry:      http://127.0.0.1:8000/c/demo-tournament/r3/t3/entry/  (round 3 is in play)"
	@echo "  duplicate:  http://127.0.0.1:8000/c/demo-duplicate/r1/boards/  (16 boards at three tables, analysed)"
	@echo "  admin:      http://127.0.0.1:8000/admin/"
	@echo "  API docs:   http://127.0.0.1:8000/api/docs/  (schema: /api/schema/)"
	@echo "  demo login: organiser / wiezen-demo"
	@echo ""
	$(BIN)/python manage.py runserver 127.0.0.1:8000
