# Two commands on a fresh machine: `make run` and `make test`. Each bootstraps what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The second supported Python (Raspberry Pi OS Trixie): its own virtualenv for `make test313`.
# The first python3.13 that runs (a pyenv shim on PATH may not: it answers "command not found").
PYTHON313 ?= $(shell for p in $$(command -v python3.13) /root/.pyenv/versions/3.13*/bin/python3.13; do "$$p" -V >/dev/null 2>&1 && { echo "$$p"; break; }; done)
VENV313 := .venv313
# The pinned versions (deploy/requirements-pyXY.txt, `make lock`) with the test tools on top;
# the lock is chosen by $(PYTHON)'s version (the venv does not exist yet when make expands it).
pyver = $(shell $(1) -c 'import sys; print("%d%d" % sys.version_info[:2])')
HOST ?= 0.0.0.0
PORT ?= 8000
DATA ?= instance
# Test processes (pytest-xdist, --dist loadgroup, groups made in tests/xdist_groups.py): the browser
# tests one after another in one, every other test file in the other, two browser files last to
# whichever is free first (0: one process).
TEST_WORKERS ?= 2

.PHONY: run test test313 lint lock bench system-packages clean firmware arm64-check

$(STAMP): pyproject.toml deploy/requirements-py311.txt deploy/requirements-py313.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r tests/requirements-py$(call pyver,$(PYTHON)).txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

# The locked packages alone (.locked) write nothing in the checkout: `.ci/run` builds them in
# the background while `make test` runs; the app's editable install (into the checkout's
# *.egg-info) waits for `make test313`.
$(VENV313)/.locked: pyproject.toml deploy/requirements-py313.txt tests/requirements-py313.txt
	@test -n "$(PYTHON313)" || { echo "no python3.13 found (set PYTHON313=...)" >&2; exit 1; }
	test -x $(VENV313)/bin/python || $(PYTHON313) -m venv $(VENV313)
	$(VENV313)/bin/pip install --quiet --upgrade pip
	$(VENV313)/bin/pip install --quiet --require-hashes -r tests/requirements-py313.txt
	touch $@

$(VENV313)/.installed: $(VENV313)/.locked
	$(VENV313)/bin/pip install --quiet --no-deps -e .
	touch $@

# Refresh the locks from pyproject.toml: the appliance's (wheels for the Pi's aarch64, hashes
# of every file) and the tests' (the same pins plus the test tools).
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	for v in 3.11 3.13; do \
	  n=$$(echo $$v | tr -d .); \
	  $(BIN)/uv pip compile pyproject.toml --quiet --upgrade --python-version $$v \
	    --python-platform aarch64-manylinux_2_28 --only-binary :all: --generate-hashes \
	    --output-file deploy/requirements-py$$n.txt || exit 1; \
	  $(BIN)/uv pip compile pyproject.toml --quiet --upgrade --python-version $$v --extra test \
	    --constraint deploy/requirements-py$$n.txt --generate-hashes \
	    --output-file tests/requirements-py$$n.txt || exit 1; \
	done

system-packages:
	bash tests/install-system-packages.sh

run: $(STAMP)
	@$(BIN)/pip uninstall --quiet --yes tc-toygame 2>/dev/null || true  # the tests' toy game
	COMPANION_DICE_EMULATE=auto COMPANION_CAMERA_SIMULATE=auto COMPANION_DICE_DEFAULT_SOURCE=camera $(BIN)/companion serve --demo --host $(HOST) --port $(PORT) --data $(DATA)

test: $(STAMP) system-packages
	$(BIN)/pip install --quiet --no-deps -e tests/plugins/toygame  # a game plug-in from outside
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25

# Python 3.13 (Trixie): its job is to show the code runs there (the interpreter, the locked
# wheels: numpy is the one pin that differs), not to check every rule again: tests/scope313.py
# says what it runs and why (every module imported; engine, companion and hardware but the
# brute-force comparisons and the files of many synthetic frames; one browser test), but the
# tests marked slow or heavy (docs/pi-appliance.md, "Python 3.13").
test313: $(VENV313)/.installed system-packages
	$(VENV313)/bin/pip install --quiet --no-deps -e tests/plugins/toygame
	$(VENV313)/bin/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25 -m "not slow and not heavy" $$($(VENV313)/bin/python -m tests.scope313)

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

# The reference dice-reader firmware for Uno and Leonardo (Debian's arduino-mk), with its
# flash and RAM use; fails when a board stops building or RAM passes 75 %.
firmware: $(STAMP) system-packages
	$(BIN)/python -m hardware.firmware.build --out build/firmware

# The appliance's stack on arm64 under qemu (Bookworm and Trixie roots, cached outside the
# clone), every answer compared with this machine's (tests/arm64/check.py; ARM64_ARGS=--short
# is CI's form). PYTHON313, where found, writes the app's bytecode for Trixie's Python.
ARM64_ARGS ?=
arm64-check: $(STAMP) system-packages
	PYTHON313="$(PYTHON313)" $(BIN)/python tests/arm64/check.py $(ARM64_ARGS)

clean:
	rm -rf $(VENV) $(VENV313) build *.egg-info .pytest_cache .ruff_cache
