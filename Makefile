# The README's two commands:  `make start`  and  `make test`.
# Both create .venv with Python 3.12+ and install the pinned requirements when needed.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# axe-core (npm), which the browser tests inject into pages to check accessibility.
AXE := tests/browser/node_modules/axe-core/axe.min.js
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: start test quick setup lint messages bench load serve system-app system-test system-quick

# System packages (Debian's names). The app: WeasyPrint's Pango, and HarfBuzz's font subsetter
# (without it every PDF takes twice as long). The tests: Chromium for the browser tests and npm
# for their axe-core; Caddy and NSS's certutil for the test of the book behind Caddy with its
# own certificate authority (tests/browser/test_https_proxy.py); systemd's systemd-analyze, which
# checks the units deploy_files writes (it is not started: only read); Noto CJK, so that the layout
# tests measure Japanese text as a tablet draws it. `make start` and `make test`
# install what is missing when they run as root with apt-get, and otherwise print the exact command and stop; .ci/run uses the same step.
APP_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0
# A package written NAME:COMMAND counts as there when COMMAND is on the PATH (npm may come
# with Node.js from elsewhere).
TEST_PACKAGES := $(APP_PACKAGES) chromium:chromium npm:npm caddy libnss3-tools \
  systemd:systemd-analyze fonts-noto-cjk
define install_missing
	@missing=$$(for p in $(1); do \
	  case $$p in *:*) command -v $${p#*:} >/dev/null 2>&1 || echo $${p%%:*};; \
	              *) dpkg -s $$p >/dev/null 2>&1 || echo $$p;; esac; done | xargs); \
	if [ -n "$$missing" ]; then \
	  if ! command -v dpkg >/dev/null; then echo "Not a Debian system: install the equivalents of: $$missing" >&2; \
	  elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing $$missing (apt-get)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Missing system packages; install them with:  sudo apt-get install -y $$missing" >&2; exit 1; fi; \
	fi
endef
system-app:
	$(call install_missing,$(APP_PACKAGES))
system-test:
	$(call install_missing,$(TEST_PACKAGES))
system-quick:
	$(call install_missing,nodejs:node)

# The server and the workers run under shirakaba.supervise, `exec`ed so that make is its parent:
# they all end when make ends, however it ends (SIGTERM, Ctrl-C, even SIGKILL).
# An idle report worker looks for tasks this often (seconds; django-tasks-db's default is 1):
# a worker helping with a report's parts joins in at most this late.
WORKER_INTERVAL ?= 0.2
# DEMO=0: no demo club (a book that will hold the club's own data and go online: the demo's
# logins are printed in the README for anyone to read).
DEMO ?= 1
start: $(STAMP) system-app
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input -v0
	$(if $(filter 0,$(DEMO)),@echo "No demo club (DEMO=0).",$(PY) manage.py load_demo --if-empty)
	@echo
	@echo "  白樺会 score book: http://$(HOST):$(PORT)/   (stop with Ctrl-C)"
	@echo "  A report worker (manage.py db_worker) runs beside it."
	@echo
	exec $(PY) -m shirakaba.supervise \
	  "$(PY) manage.py db_worker --reload --interval $(WORKER_INTERVAL)" \
	  "$(PY) manage.py runserver $(HOST):$(PORT)"

# Production: gunicorn, static files by whitenoise, and REPORT_WORKERS report workers
# (manage.py db_worker, each making one report at a time); settings from the environment
# (docs/running.md, which also shows them as systemd units).
WORKERS ?= 3
REPORT_WORKERS ?= 2
serve: $(STAMP) system-app
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input -v0
	$(PY) manage.py check --deploy --fail-level WARNING
	exec $(PY) -m shirakaba.supervise \
	  $(foreach n,$(shell seq $(REPORT_WORKERS)),"$(PY) manage.py db_worker --interval $(WORKER_INTERVAL)") \
	  "$(VENV)/bin/gunicorn shirakaba.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) \
	  --worker-class gthread --threads 4 --keep-alive 10 --access-logfile -"

# The whole suite in two runs: all but the browser tests in two workers (pytest-xdist, one a
# core here), then the browser tests in one (a browser and a live server each, their timings
# held by one). TEST_WORKERS=0 runs the first in one process too; BROWSER_TESTS=no leaves the
# second out (CI runs them once, beside SQLite). A run that ARGS leaves with no test (pytest's
# status 5) is not a failure.
TEST_WORKERS ?= 2
BROWSER_TESTS ?= yes
test: $(STAMP) system-test $(AXE)
	$(VENV)/bin/pytest -n $(TEST_WORKERS) -m 'not browser' $(ARGS) || [ $$? -eq 5 ]
ifneq ($(BROWSER_TESTS),no)
	$(VENV)/bin/pytest -m browser $(ARGS) || [ $$? -eq 5 ]
endif

# The quick loop while working: no browser tests and none marked slow; needs Node.js (the
# game check's table of cases runs against static/js/entry_check.js in it), not Chromium.
# Two workers (pytest-xdist), one a core here; QUICK_WORKERS=0 runs in one.
QUICK_WORKERS ?= 2
quick: $(STAMP) system-quick
	$(VENV)/bin/pytest -n $(QUICK_WORKERS) -m 'not slow and not browser' $(ARGS)

# lint-imports: the import drawing's contracts in pyproject.toml (one way down, no circle).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

setup: $(STAMP) system-test $(AXE)

# Benchmarks (measurements, not tests): the standings at federation size, on a scratch SQLite
# file and a scratch PostgreSQL database (BENCH_PG, created when missing). Built once, reused.
BENCH_SQLITE ?= sqlite:///$(CURDIR)/data/bench.sqlite3
BENCH_PG ?= postgres://postgres@127.0.0.1:5432/shirakaba_bench
# The reports' bench at these club sizes (issue 17 measured 50 300 1000: about an hour here).
REPORT_SIZES ?= 50
bench: $(STAMP)
	DATABASE_URL=$(BENCH_SQLITE) $(PY) manage.py migrate -v0
	DATABASE_URL=$(BENCH_SQLITE) $(PY) manage.py bench_standings $(ARGS)
	psql "$(dir $(BENCH_PG))postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$(notdir $(BENCH_PG))'" | grep -q 1 || \
	  psql "$(dir $(BENCH_PG))postgres" -c "CREATE DATABASE $(notdir $(BENCH_PG))"
	DATABASE_URL=$(BENCH_PG) $(PY) manage.py migrate -v0
	DATABASE_URL=$(BENCH_PG) $(PY) manage.py bench_standings $(ARGS)
	for n in $(REPORT_SIZES); do \
	  rm -f data/bench-reports-$$n.sqlite3*; \
	  DATABASE_URL=sqlite:///$(CURDIR)/data/bench-reports-$$n.sqlite3 $(PY) manage.py migrate -v0 && \
	  DATABASE_URL=sqlite:///$(CURDIR)/data/bench-reports-$$n.sqlite3 $(PY) manage.py bench_reports --members $$n; \
	done

# Load test (a measurement): gunicorn on a scratch SQLite file (LOAD_SQLITE), then on a scratch
# PostgreSQL database (LOAD_PG, created when missing); 50 members browsing and 2 organizers
# entering games for 60 s; prints a table per kind of page (requests, p50/p95/p99, errors) and
# the games saved. Fails when a request fails or a save is refused.
LOAD_SQLITE ?= sqlite:///$(CURDIR)/data/load.sqlite3
LOAD_PG ?= postgres://postgres@127.0.0.1:5432/shirakaba_load
load: $(STAMP)
	DATABASE_URL=$(LOAD_SQLITE) SHIRAKABA_DATA_DIR=$(CURDIR)/data/load $(PY) manage.py migrate -v0
	DATABASE_URL=$(LOAD_SQLITE) SHIRAKABA_DATA_DIR=$(CURDIR)/data/load $(PY) manage.py loadtest $(ARGS)
	psql "$(dir $(LOAD_PG))postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$(notdir $(LOAD_PG))'" | grep -q 1 || \
	  psql "$(dir $(LOAD_PG))postgres" -c "CREATE DATABASE $(notdir $(LOAD_PG))"
	DATABASE_URL=$(LOAD_PG) SHIRAKABA_DATA_DIR=$(CURDIR)/data/load $(PY) manage.py migrate -v0
	DATABASE_URL=$(LOAD_PG) SHIRAKABA_DATA_DIR=$(CURDIR)/data/load $(PY) manage.py loadtest $(ARGS)

# Rebuild the translation catalogues after changing user-facing strings (needs GNU gettext).
messages: $(STAMP)
	$(PY) manage.py makemessages -l ja --ignore=.venv --ignore=tests
	$(PY) manage.py compilemessages -l ja --ignore=.venv

# Find Python 3.12+ (the .python-version file makes pyenv's `python3` 3.13.0), make the venv,
# install. A venv made with an older Python is replaced.
$(STAMP): requirements.txt requirements-dev.txt
	@set -e; \
	if [ -x $(PY) ] && ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then \
	  echo "Replacing $(VENV): its Python is older than 3.12."; rm -rf $(VENV); fi; \
	if [ ! -x $(PY) ]; then \
	  python=""; \
	  for c in python3 python3.13 python3.12 $$HOME/.pyenv/versions/3.13*/bin/python3 \
	           $$HOME/.pyenv/versions/3.12*/bin/python3 /usr/local/bin/python3.13 /usr/local/bin/python3.12; do \
	    if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	      python="$$c"; break; fi; \
	  done; \
	  if [ -z "$$python" ]; then \
	    echo "Python 3.12 or newer is needed (Django 6.1). Install it (e.g. 'pyenv install 3.13.0') and run again." >&2; \
	    exit 1; fi; \
	  echo "Creating $(VENV) with $$("$$python" --version)"; \
	  "$$python" -m venv $(VENV); \
	fi; \
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-dev.txt; \
	touch $(STAMP)

$(AXE): tests/browser/package.json tests/browser/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is needed for the browser tests' axe-core (apt-get install -y npm)." >&2; exit 1; }
	npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	touch $(AXE)
