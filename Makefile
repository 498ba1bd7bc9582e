# One command to set up and run the app, one to set up and run the tests (see README).
VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3
VENDOR := static/vendor

.PHONY: setup run test browser bench bench-smoke clean

setup: $(VENV)/.installed $(VENDOR)/.installed

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

run: setup
	$(BIN)/scorekeeper serve

# Debian's chromium drives the browser tests; Playwright never downloads a browser here
browser:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

test: setup browser
	$(BIN)/pytest

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
