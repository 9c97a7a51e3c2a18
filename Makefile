# Impresario — every command a developer or CI needs. The first target that needs the virtual
# environment creates it (.venv), so a fresh machine with Python 3.11 and make needs nothing else.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
GAMES  ?= 2000

.PHONY: help install test test-fast sim run clean openapi sdk

help:
	@echo "make run    - the engine service on 127.0.0.1:$(PORT) (embedded Redis unless REDIS_URL)"
	@echo "make test   - the whole test suite (installs what it needs first)"
	@echo "make sim    - plays GAMES random Turandot games in process and prints a report"
	@echo "make openapi - regenerate openapi.yaml from the code"
	@echo "make sdk    - regenerate the SDK's generated layer from openapi.yaml"
	@echo "make clean  - removes the virtual environment and local data"

install: $(STAMP)

$(STAMP): services/engine/pyproject.toml clients/python-sdk/pyproject.toml requirements/dev.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e "services/engine[embedded]" -e clients/python-sdk \
		-r requirements/dev.txt
	@touch $(STAMP)

test: install
	$(BIN)/python -m pytest tests

test-fast: install
	$(BIN)/python -m pytest tests -m "not slow"

sim: install
	$(BIN)/python -m impresario_engine sim --games $(GAMES)

clean:
	rm -rf $(VENV) var

run: install
	$(BIN)/python -m impresario_engine.serve --port $(PORT)

openapi: install
	$(BIN)/python -m impresario_engine.openapi openapi.yaml
	@echo "wrote openapi.yaml"

# the SDK's generated layer comes from the spec, which comes from the code
sdk: openapi
	$(BIN)/python clients/python-sdk/tools/generate.py
