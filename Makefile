# Two commands on a fresh machine: `make run` and `make test`. Each bootstraps what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 0.0.0.0
PORT ?= 8000
DATA ?= instance

.PHONY: run test lint bench system-packages clean firmware

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

system-packages:
	bash tests/install-system-packages.sh

run: $(STAMP)
	@$(BIN)/pip uninstall --quiet --yes tc-toygame 2>/dev/null || true  # the tests' toy game
	COMPANION_DICE_EMULATE=auto COMPANION_CAMERA_SIMULATE=auto $(BIN)/companion serve --demo --host $(HOST) --port $(PORT) --data $(DATA)

test: $(STAMP) system-packages
	$(BIN)/pip install --quiet --no-deps -e tests/plugins/toygame  # a game plug-in from outside
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

# The reference dice-reader firmware for Uno and Leonardo (Debian's arduino-mk), with its
# flash and RAM use; fails when a board stops building or RAM passes 75 %.
firmware: $(STAMP) system-packages
	$(BIN)/python -m hardware.firmware.build --out build/firmware

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
