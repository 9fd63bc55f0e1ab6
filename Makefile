# Two commands set everything up on a fresh machine (Python 3.11 and make):
#   make run   - virtualenv, install, translations, migrate, load the card catalogue, serve :8000
#                (uvicorn, with the live push)
#   make test  - virtualenv, install with test tools, translations, Chromium for the browser test,
#                nginx for the reverse proxy test, run the whole test suite
# DATABASE_URL / CELERY_BROKER_URL switch to PostgreSQL and a real broker (see README).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1:8000
PYTEST_ARGS ?=

.PHONY: run test install install-dev translations migrate catalogue lint bench clean browser-deps \
	proxy-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

install: $(VENV)/.runtime translations
install-dev: $(VENV)/.dev translations

translations: | $(BIN)/python
	$(BIN)/python -m hkk_tournament.compile_translations

migrate: install
	$(BIN)/python manage.py migrate --noinput

catalogue: migrate
	$(BIN)/python manage.py load_catalogue

# uvicorn (ASGI) so that the pages' live push works too (Channels' in-process layer); reloads on
# code changes. `manage.py runserver` also works: the pages then poll.
run: catalogue
	$(BIN)/uvicorn hkk_tournament.asgi:application --lifespan off --reload \
	  --reload-dir accounts --reload-dir decks --reload-dir tournaments \
	  --reload-dir hkk_tournament --reload-dir templates \
	  --host $(word 1,$(subst :, ,$(HOST))) --port $(word 2,$(subst :, ,$(HOST)))

# Debian's Chromium for the Playwright browser test (no `playwright install` download); needs root.
browser-deps:
	@if [ -x /usr/bin/chromium ]; then :; else \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi

# Debian's nginx for the reverse proxy test (tests/ops/test_proxy.py runs deploy/nginx/ as
# shipped); needs root. Installing the package does not start a server.
proxy-deps:
	@if [ -x /usr/sbin/nginx ]; then :; else \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx; \
	fi

# Two runs: the real Celery worker tests (Redis at TEST_REDIS_URL, default 127.0.0.1:6379)
# reconfigure the Celery app, so they get a process of their own.
test: install-dev browser-deps proxy-deps
	$(BIN)/python -m pytest -m "not celery_worker" $(PYTEST_ARGS)
	$(BIN)/python -m pytest -m celery_worker $(PYTEST_ARGS)

# Developer tool (needs GNU gettext; install/CI never run it): re-extract every msgid into
# locale/hu/LC_MESSAGES/django.po, keeping existing translations. Translate the new entries,
# then `make translations` compiles them with polib.
.PHONY: messages
messages: | $(BIN)/python
	$(BIN)/python manage.py makemessages -l hu --ignore=.venv --ignore=var --no-obsolete

# ruff, formatting, mypy (strict for the domain packages) and the import contracts (pyproject.toml).
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

bench: install-dev
	$(BIN)/python bench/validate.py
	$(BIN)/python bench/pairing.py

clean:
	rm -rf $(VENV) var
