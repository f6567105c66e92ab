# devths-ai: every target sets up what it needs. `make run` and `make test` are the two
# commands a fresh machine needs (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
REDIS_PORT ?= 6399
# uvicorn worker processes for `make run` (uvicorn's own variable); above 1 the server needs
# a Chroma server (CHROMA_HOST/CHROMA_PORT, e.g. `make chroma`) and /metrics is merged across
# the processes (prometheus-client multiprocess mode, files under METRICS_DIR).
WEB_CONCURRENCY ?= 1
METRICS_DIR ?= .data/prometheus
# SIGTERM: stop accepting, let streams finish for this long, then end them with an error event.
SHUTDOWN_GRACE_S ?= 20
CHROMA_SERVER_PORT ?= 8001

# llama.cpp is compiled from source once (about 8 minutes on 2 cores); pip caches the wheel.
# A portable x86-64-v3 build: -march=native produced illegal instructions on this platform.
ifeq ($(shell uname -m),x86_64)
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
endif
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGSMITH_TEST_TRACKING := false
export HF_HUB_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

# Debian packages the project needs at run time or in tests.
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-kor fonts-nanum chromium
# Tests only: promtool (checks and unit-tests docs/prometheus/alerts.yml), from Debian's
# prometheus package, installed without its recommends (node-exporter).
TEST_SYSTEM_PACKAGES := prometheus

.PHONY: help install install-dev system-deps test-system-deps redis redis-stop run worker chroma test test-unit lint studio eval eval-pytest bench load clean

help:
	@echo "make run     set up and serve on $(HOST):$(PORT) with the embedded defaults"
	@echo "make test    set up and run the whole test suite (unit + integration)"
	@echo "make worker  a document-job worker (same REDIS_URL; with JOB_WORKER_IN_PROCESS=false on the API)"
	@echo "make chroma  a Chroma server on port $(CHROMA_SERVER_PORT) (needed when WEB_CONCURRENCY > 1)"
	@echo "make lint | studio | eval | bench | load | redis | redis-stop | clean"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip==25.3

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[local]"
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[local,dev]"
	@touch $@ $(VENV)/.installed

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[local,dev,bench]"
	@touch $@ $(VENV)/.installed $(VENV)/.installed-dev

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

system-deps:
	@if [ -n "$(strip $(SYSTEM_PACKAGES))" ]; then \
	  missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	  if [ -n "$$missing" ]; then \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	  fi; \
	fi

redis: install
	@$(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)

redis-stop:
	@$(BIN)/python scripts/local_redis.py stop --port $(REDIS_PORT) || true

run: install system-deps
	@if [ -z "$$REDIS_URL" ]; then export REDIS_URL=$$($(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)); fi; \
	if [ "$(WEB_CONCURRENCY)" -gt 1 ]; then \
	  rm -rf $(METRICS_DIR) && mkdir -p $(METRICS_DIR) && export PROMETHEUS_MULTIPROC_DIR=$(abspath $(METRICS_DIR)); \
	fi; \
	echo "serving on http://$(HOST):$(PORT) with $(WEB_CONCURRENCY) process(es) (REDIS_URL=$${REDIS_URL})"; \
	HOST=$(HOST) PORT=$(PORT) WEB_CONCURRENCY=$(WEB_CONCURRENCY) exec $(BIN)/uvicorn server:app \
	  --host $(HOST) --port $(PORT) --workers $(WEB_CONCURRENCY) \
	  --timeout-graceful-shutdown $(SHUTDOWN_GRACE_S) --no-access-log

# One document-job worker process; start as many as needed, on any machine reaching REDIS_URL.
worker: install system-deps
	@if [ -z "$$REDIS_URL" ]; then export REDIS_URL=$$($(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)); fi; \
	exec $(BIN)/python worker.py

# A Chroma server (the chromadb package's own CLI), for several API processes or machines.
chroma: install
	exec $(BIN)/chroma run --path .data/chroma-server --host $(HOST) --port $(CHROMA_SERVER_PORT)

test-system-deps: system-deps
	@missing=$$(for p in $(TEST_SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Unit tests and the schema fuzz in parallel (pytest-xdist, one worker per core, at most
# 4: each worker loads the embedding model); then the integration tests, one at a time (they
# share one Redis and start real servers on loopback). PYTEST_ARGS goes to both runs; a run
# it leaves with no test (exit 5, e.g. `-k` naming integration tests only) is not a failure;
# both runs always run, so one failing still reports the other.
PARALLEL := -n auto --maxprocesses=4

test: install-dev test-system-deps
	$(BIN)/mypy
	@if [ -z "$$REDIS_URL" ]; then export REDIS_URL=$$($(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)); fi; \
	export TEST_REDIS_URL=$${REDIS_URL}; \
	$(BIN)/pytest -q -p no:cacheprovider $(PARALLEL) tests/unit tests/fuzz $(PYTEST_ARGS); \
	unit=$$?; [ $$unit -eq 5 ] && unit=0; \
	$(BIN)/pytest -q -p no:cacheprovider tests/integration $(PYTEST_ARGS); \
	integration=$$?; [ $$integration -eq 5 ] && integration=0; \
	exit $$(( unit || integration ))

# The loop while editing: unit tests only, in parallel (no Redis, no fuzz).
test-unit: install-dev
	$(BIN)/pytest -q -p no:cacheprovider $(PARALLEL) tests/unit $(PYTEST_ARGS)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

studio: install-dev
	$(BIN)/langgraph dev --no-browser --config langgraph.json --port 2024

# Every eval, then dev and frozen test side by side against the targets (evals/summary.py).
# The bench extra brings matplotlib, whose sample photo is the documents splits' face: without
# it the face pages carry no photo and are not the frozen pages.
# MODEL=provider:model runs every feature on that model (one experiment per model);
# JUDGE_MODEL=provider:model scores the judged metrics (else they read "not judged").
ifdef MODEL
eval eval-pytest: export CHAT_MODEL := $(MODEL)
eval eval-pytest: export ANALYSIS_MODEL := $(MODEL)
eval eval-pytest: export INTERVIEW_MODEL := $(MODEL)
endif
ifdef JUDGE_MODEL
eval eval-pytest: export JUDGE_MODEL := $(JUDGE_MODEL)
endif

# The frozen test splits as @pytest.mark.langsmith tests (tracked with LANGSMITH_API_KEY).
eval-pytest: $(VENV)/.installed-bench system-deps
	$(BIN)/pytest -p no:cacheprovider -q evals/test_frozen_splits.py

eval: $(VENV)/.installed-bench system-deps
	$(BIN)/python -m evals.run_chat
	for s in dev dev2 dev3 dev4 dev5 dev6 dev7 dev8 dev9 dev10 dev11 test test2; do $(BIN)/python -m evals.run_chat --cross-author $$s || exit 1; done
	$(BIN)/python -m evals.run_interview
	$(BIN)/python -m evals.run_interview --cross-author dev
	$(BIN)/python -m evals.run_interview --cross-author dev2
	$(BIN)/python -m evals.run_interview --cross-author dev3
	$(BIN)/python -m evals.run_interview --cross-author dev4
	$(BIN)/python -m evals.run_interview --cross-author dev5
	$(BIN)/python -m evals.run_interview --cross-author dev6
	$(BIN)/python -m evals.run_interview --cross-author test
	$(BIN)/python -m evals.run_interview --cross-author test2
	$(BIN)/python -m evals.run_calendar --dataset tuning holdout holdout2 holdout3 dev test xa_dev xa_dev2 xa_dev3 xa_dev4 xa_dev5 xa_dev6 xa_dev7 xa_dev8 xa_test xa_test2
	$(BIN)/python -m evals.run_documents
	$(BIN)/python -m evals.run_documents --split dev
	$(BIN)/python -m evals.run_documents --split test
	$(BIN)/python -m evals.run $(EVAL_ARGS)
	$(BIN)/python -m evals.run --dataset holdout --spread-examples 1 $(EVAL_ARGS)
	$(BIN)/python -m evals.run --skills-only --dataset dev test
	$(BIN)/python -m evals.run_requirements --split dev
	$(BIN)/python -m evals.run_requirements --split dev2
	$(BIN)/python -m evals.run_requirements --split dev3
	$(BIN)/python -m evals.run_requirements --split dev4
	$(BIN)/python -m evals.run_requirements --split dev5
	$(BIN)/python -m evals.run_requirements --split dev6
	$(BIN)/python -m evals.run_requirements --split dev7
	$(BIN)/python -m evals.run_requirements --split test
	$(BIN)/python -m evals.run_requirements --split test2
	$(BIN)/python -m evals.run_degenerate
	$(BIN)/python -m evals.summary

bench: $(VENV)/.installed-bench
	@if [ -z "$$REDIS_URL" ]; then export REDIS_URL=$$($(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)); fi; \
	$(BIN)/python -m bench.run $(BENCH_ARGS)

load: $(VENV)/.installed-bench
	@if [ -z "$$REDIS_URL" ]; then export REDIS_URL=$$($(BIN)/python scripts/local_redis.py start --port $(REDIS_PORT)); fi; \
	$(BIN)/python -m bench.load $(LOAD_ARGS)

clean: redis-stop
	rm -rf $(VENV) .data .langgraph_api .pytest_cache .ruff_cache .mypy_cache
