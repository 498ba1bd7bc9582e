# One command to set up and run the app, one to set up and run the tests (see README).
VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3
VENDOR := static/vendor
# Translations: messages.po per language is kept in git, the compiled .mo is made at setup
TRANSLATIONS := scorekeeper/translations
CATALOGS := $(patsubst %.po,%.mo,$(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po))
# what marks a message: gettext's own names, Text and the errors that carry one (engines and
# tables service)
KEYWORDS := -k Text -k Plural:1,2 -k TextError -k RuleError -k SeatingError -k LogError -k Refused -k require:2 -k require_seating:2 -k field:4

.PHONY: setup run test browser proxy bench bench-smoke clean messages

setup: $(VENV)/.installed $(VENDOR)/.installed $(CATALOGS)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# htmx comes from the npm package at setup; static/vendor is never committed
$(VENDOR)/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(VENDOR)
	cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx.org/dist/ext/hx-sse.min.js $(VENDOR)/
	touch $@

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

# after changing what players read: collect the messages and add the new ones to every catalog
messages: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) -c TRANSLATORS: --sort-by-file \
	  --project Scorekeeper --msgid-bugs-address "" -o $(TRANSLATIONS)/messages.pot .
	for lang in de pl es; do test -f $(TRANSLATIONS)/$$lang/LC_MESSAGES/messages.po || \
	  $(BIN)/pybabel init -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $$lang; done
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) \
	  --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date

run: setup
	$(BIN)/scorekeeper serve

# Debian's chromium drives the browser tests; Playwright never downloads a browser here
browser:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# Debian's nginx runs the proxy tests (tests/reliability/test_proxy.py, test_nodes.py: docs/nginx.conf
# and docs/nginx-nodes.conf); moto's S3 server, a test extra, the replication drill's S3 replica
proxy:
	@test -x /usr/sbin/nginx || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx; }

# the suite, then the browser tests, then the tests marked `alone`, which time themselves, with
# the machine to themselves. The first two run in one process more than the machine has cores:
# with one per core a core stood idle a fifth of the time (a process waiting on a server it
# started, on chromium, on a kill -9), and on two cores the run was 47 s shorter so (part one
# 3:09 -> 2:51, each test sent to the first free process; browser 6:10 -> 5:41, a file's tests
# in one process, as they share its server and chromium, the longest files first:
# tests/browser/conftest.py). Every part of one run adds to the
# same reliability figures. Bytecode is written even where the environment says not to: each
# pytest process then finds the test modules' assertions rewritten already (collecting took
# 7 s a process, 2 s so)
WORKERS := $(shell echo $$(( $$(nproc) + 1 )))
test: setup browser proxy
	export SCOREKEEPER_RUN=$$(date +%s%N) PYTHONDONTWRITEBYTECODE=; status=0; \
	$(BIN)/pytest -n $(WORKERS) --dist worksteal -m "not alone and not browser" || status=$$?; \
	$(BIN)/pytest -n $(WORKERS) --dist loadfile -m browser || status=$$?; \
	$(BIN)/pytest -m alone || status=$$?; \
	exit $$status

# Benchmarks (bench/, docs/performance.md): not timed tests. `bench` is the full run, about
# ten minutes; `bench-smoke` runs every part at tiny sizes in under a minute (CI)
$(VENV)/.bench: $(VENV)/.installed pyproject.toml
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

bench: setup browser $(VENV)/.bench
	$(BIN)/python -m bench

bench-smoke: setup browser $(VENV)/.bench
	$(BIN)/python -m bench --smoke

clean:
	rm -rf $(VENV) node_modules $(VENDOR)
