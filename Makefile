# The companion's commands. Each one sets up .venv from requirements.txt first if needed.
#   make lab      open the notebooks in JupyterLab
#   make test     run every test: unit tests, nbval over the notebooks, browser tests
#   make figures  regenerate figures/
#   make bench    speed against the references, printed as ratios (BENCH="svm ...": only those)
#   make french   update the French catalogs (locale/fr/) and build notebooks/fr/ from them
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test figures bench french browser-deps hub-deps search-deps axe-deps

$(STAMP): requirements.txt requirements-hub.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=23"
	$(BIN)/python -m pip install --quiet -r requirements.txt -r requirements-hub.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --editable .
	touch $(STAMP)

# Jupyter refuses root unless told; root is the usual user in containers and CI machines.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# The project's Jupyter settings and templates, in the layout of an installation prefix:
# etc/jupyter/labconfig/default_setting_overrides.json (JupyterLab: no news, no update check),
# etc/jupyter/voila.json (the class mode shuts down the kernel of a page that was left),
# share/jupyter/voila/templates/course/ (the class mode), share/jupyter/labextensions/course-companion/
# (in JupyterLab: sliders named for screen readers, links in the text underlined). Added to
# Jupyter's search paths, so a user's own settings still apply; an image (repo2docker) can copy
# both folders into its prefix.
JUPYTER_ENV := JUPYTER_CONFIG_PATH="$(CURDIR)/etc/jupyter" JUPYTER_PATH="$(CURDIR)/share/jupyter"

lab: $(STAMP)
	$(JUPYTER_ENV) $(BIN)/jupyter lab notebooks/ $(ROOT_FLAG)

browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: 'sudo apt-get install chromium' enables the browser tests."; fi; }

# $(call npm_ci,FOLDER,what npm enables,exit status without npm): npm (apt-get as root), then the
# packages pinned in FOLDER/package-lock.json; the target's time stamp says they are installed.
define npm_ci
@command -v npm >/dev/null 2>&1 || { \
  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; \
  else echo "npm is missing: 'sudo apt-get install npm' $(2)."; exit $(3); fi; }
cd $(1) && npm ci --no-audit --no-fund --loglevel=error
touch $@
endef

# The proxy of the hub test (tests/browser/test_hub.py), pinned in tests/hub/package-lock.json.
HUB_PROXY := tests/hub/node_modules/.bin/configurable-http-proxy

hub-deps: $(HUB_PROXY)

$(HUB_PROXY): tests/hub/package.json tests/hub/package-lock.json
	$(call npm_ci,tests/hub,enables the hub test,0)

# Pagefind, which indexes the site for its full-text search, pinned in tools/search/package-lock.json.
PAGEFIND := tools/search/node_modules/.bin/pagefind

search-deps: $(PAGEFIND)

$(PAGEFIND): tools/search/package.json tools/search/package-lock.json
	$(call npm_ci,tools/search,is needed for the site's search,2)

# axe-core, the accessibility checker of the browser tests, pinned in tests/browser/axe/package-lock.json.
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js

axe-deps: $(AXE)

$(AXE): tests/browser/axe/package.json tests/browser/axe/package-lock.json
	$(call npm_ci,tests/browser/axe,enables the accessibility checks,0)

# Two test processes (pytest-xdist), one per core of a small machine; each notebook's cells stay in
# one process (--dist loadscope keeps a notebook, a test module or a class together).
TEST_WORKERS ?= 2

test: $(STAMP) browser-deps hub-deps search-deps axe-deps
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope

figures: $(STAMP)
	$(BIN)/python -m course_lib.figures

# make bench [BENCH="svm viterbi"]: every benchmark, or those named (benchmarks/bench_NAME.py)
BENCH ?=

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH)

# The French edition (tools/french.py): catalogs updated from the English notebooks (changed
# English marked fuzzy), course_lib.mo compiled, notebooks/fr/ built; then store their outputs.
french: $(STAMP)
	$(BIN)/python tools/french.py
	$(BIN)/python tools/refresh_notebooks.py notebooks/fr/*.ipynb notebooks/fr/solutions/*.ipynb

# make site                 every notebook executed, as static HTML with its figures, into site/,
#                           with a full-text search (Pagefind) that works offline once served;
#                           the French edition (notebooks/fr/, its manifest's chapters) in site/fr/;
#                           each page links to its notebook on Binder, for the GitHub repository of
#                           the clone's origin remote (REPO=owner/name names it otherwise)
# make class [NB=notebooks/03_soft_margins.ipynb]   one notebook as a dashboard (Voila) for a
#                           projector (NB=notebooks/fr/03_soft_margins.ipynb: in French, a
#                           chapter of notebooks/fr/): large text and controls, no code, exercises hidden,
#                           nothing loaded from another host; default chapter 01. Voila serves
#                           the whole notebooks/ folder, so the chapter's links (glossary,
#                           solutions) open as dashboards too; each page runs its notebook when
#                           opened (Voila 0.5 preheats a kernel only when it serves one notebook).
#                           The folder is given as an absolute path: Voila 0.5.8 passes it on as
#                           the contents' root, which jupyter_server requires absolute.
NB ?= $(firstword $(wildcard notebooks/01_*.ipynb))
CLASS_PORT ?= 8866
CLASS_PAGE = $(patsubst notebooks/%,%,$(NB))
CLASS_URL = http://127.0.0.1:$(CLASS_PORT)/voila/render/$(CLASS_PAGE)

.PHONY: site class

site: $(STAMP) search-deps
	$(BIN)/python tools/build_site.py --out site $(if $(REPO),--repo $(REPO))

class: $(STAMP)
	@test -n "$(NB)" && test -f "$(NB)" && test "$(CLASS_PAGE)" != "$(NB)" || { \
	  echo "no notebook '$(NB)' in notebooks/: make class NB=notebooks/NN_name.ipynb" \
	    "(in French NB=notebooks/fr/NN_name.ipynb, a chapter of notebooks/fr/)"; exit 2; }
	@echo "class mode: $(CLASS_URL)"
	@(sleep 4; $(BIN)/python -m webbrowser -t "$(CLASS_URL)" >/dev/null 2>&1) &
	$(JUPYTER_ENV) $(BIN)/voila "$(CURDIR)/notebooks" --template=course --Voila.ip=127.0.0.1 --port=$(CLASS_PORT) \
	  --no-browser --show_tracebacks=True
