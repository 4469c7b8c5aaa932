# pdwiz - SGLang PD deployment wizard and linter.
# make            build ./pdwiz
# make run        build and open the wizard
# make test       the quick suites: units, CLI, deployment, bad inputs
# make check      every suite: the quick ones, fuzz smoke runs, the wizard
#                 in tmux, the ASan+UBSan build's suites, valgrind, scale
#                 (each reader's work grows linearly with its input)
# make check-full the same suites with every count at full size (nightly)
# make deps       install the Debian packages the build and tests need
# make bench      rule engine and whole-process benchmarks
# WERROR=1        warnings are errors (CI: .ci/run); off by default
#
# run, test and check first check the packages (make deps: installed as
# root, else the apt-get command is printed); NO_DEPS=1 skips that step.
# test and check run their suites side by side (SUITE_JOBS at a time), each
# logging to $(BUILD)/log/NAME.log; their last line is
# "suites: N passed, M failed".

PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	 = $(PREFIX)/bin
DATADIR	 = $(PREFIX)/share/pdwiz
# The compiled catalog is specific to the architecture: not under share/.
LIBDIR	 = $(PREFIX)/lib/pdwiz
MANDIR	 = $(PREFIX)/share/man/man1
COMPDIR	 = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

# The one version string: VERSION (the man page and debian/changelog are
# held to it by tests/pkg/run.sh).
VERSION	:= $(shell cat VERSION)

CC	?= cc
PKGS	 = ncursesw yaml-0.1
# Asked of pkg-config when first used, not when the Makefile is read: on a
# fresh machine the packages (and pkg-config) arrive with make run's deps
# step, before the first compile.
PKG_CFLAGS = $(eval PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null))$(PKG_LIBS)
CMOCKA_LIBS = $(eval CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null))$(CMOCKA_LIBS)

WARN	 = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral \
	   -Wwrite-strings -Wvla
# Warnings are errors where the compiler is known (CI: .ci/run gives
# WERROR=1), not in a user's build with a newer compiler.
WERROR	?=
ifneq ($(filter-out 0,$(WERROR)),)
WARN	+= -Werror
endif
CFLAGS	?= -O2 -g
CPPFLAGS ?=
LDFLAGS	?=
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Isrc $(PKG_CFLAGS) \
	   -DPDWIZ_DATADIR_DEFAULT='"$(DATADIR)"' \
	   -DPDWIZ_LIBDIR_DEFAULT='"$(LIBDIR)"' \
	   -DPDWIZ_VERSION='"$(VERSION)"' $(CPPFLAGS)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS)
# Each object's header dependencies, written next to it by the compiler.
DEPFLAGS = -MMD -MP
LDLIBS	 = $(PKG_LIBS) -lm

BUILD	?= build
LIB_SRC	 = $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ	 = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/cli/main.o
TESTS	 = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

.PHONY: all run check check-full deps deps-build test unit tmux-tests sanitize \
	valgrind bench install uninstall clean coverage fuzz asan-build

all: pdwiz rules/catalog.img

# The compiled catalog: the YAML of rules/ as one image that pdwiz maps at
# startup. pdwiz uses it only when it was written by the same build from
# the same YAML; otherwise it reads the YAML.
RULE_YAML = rules/options.yaml rules/models.yaml rules/flag-history.yaml rules/flag-inventory.tsv rules/rule-since.tsv $(wildcard rules/checks/*.yaml rules/deploy/*.yaml)
rules/catalog.img: pdwiz $(RULE_YAML)
	PDWIZ_DATADIR=$(CURDIR) ./pdwiz compile-catalog -o $@

# A build's identity, from its sources: an image records the one that
# wrote it.
ALL_SRC	 = $(sort $(wildcard src/*/*.c src/*/*.h))
SRC_ID	:= $(shell cat $(ALL_SRC) | cksum | cut -d' ' -f1)
$(BUILD)/src/core/catimg.o: $(ALL_SRC)
$(BUILD)/src/core/catimg.o: ALL_CPPFLAGS += -DPDWIZ_SRC_ID='"$(SRC_ID)"'

# ./pdwiz, and $(BUILD)/pdwiz for the other builds (build-asan).
pdwiz $(BUILD)/pdwiz: $(MAIN_OBJ) $(BUILD)/libpdwiz.a
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(BUILD)/libpdwiz.a $(LDLIBS)

$(BUILD)/libpdwiz.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# An object whose .d file is missing (built before -MMD, or the file was
# lost) is rebuilt: its header dependencies are unknown.
# clang writes the .d after the object: the object is touched, so that it
# is not older than its .d (or every make would compile it again).
$(BUILD)/%.o: %.c $(BUILD)/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
	@touch $@

$(LIB_OBJ) $(MAIN_OBJ): VERSION

$(BUILD)/src/%.d: ;
.PRECIOUS: $(BUILD)/src/%.d

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libpdwiz.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Itests/unit $(ALL_CFLAGS) $(DEPFLAGS) \
	    $(LDFLAGS) -o $@ $< $(BUILD)/libpdwiz.a $(LDLIBS) $(CMOCKA_LIBS)

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TESTS:=.d)

# The packages the build (deps-build) or the build and the tests (deps)
# need, installed where missing.
ifeq ($(filter-out 0,$(NO_DEPS)),)
DEPS	 = deps
DEPS_BUILD = deps-build
endif
deps:
	@sh tests/deps.sh all
deps-build:
	@sh tests/deps.sh build

run: $(DEPS_BUILD) pdwiz
	./pdwiz

# With make run, the packages come before the first compile.
ifneq ($(filter run,$(MAKECMDGOALS)),)
$(LIB_OBJ) $(MAIN_OBJ): | $(DEPS_BUILD)
endif

unit: $(TESTS) rules/catalog.img
	@sh tests/unit/run.sh $(TESTS)

tmux-tests: pdwiz
	@sh tests/tmux/run.sh

# ---- test suites ----
# suite-NAME runs one suite through tests/suite.sh: its output goes to
# $(LOGDIR)/NAME.log, one PASS/FAIL line comes out. Suites share no fixed
# path or tmux server, so any of them may run at the same time.
LOGDIR	 = $(BUILD)/log
SUITE	 = sh tests/suite.sh run $(LOGDIR)
# One more than the processors: the tmux suites spend part of their time
# waiting for the screen.
SUITE_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# How long a tmux scenario waits for the screen (the polls return as soon as
# it shows): generous, for a machine busy with the other suites.
TMUX_POLL ?= 30
# The ASan+UBSan build is the fuzzing build (FUZZ_BUILD, clang, the
# flags of fuzz-build below): the sources are compiled once for both, the
# ASan suites' pdwiz and unit programs linked from the same objects (the
# coverage hooks libFuzzer reads are no-ops without it).
ASAN_BUILD = $(FUZZ_BUILD)
ASAN_LDFLAGS = -fsanitize=address,undefined
ASAN_TESTS = $(TESTS:$(BUILD)/%=$(ASAN_BUILD)/%)

# The suites, each in the order it starts: the longest first, so that the
# short ones fill in at the end.
QUICK_SUITES = deploy cli verdict bad unit catimg layers realworld tools own-work \
	   pkg precommit oracle logs fit inventory sgscan groups
ASAN_SUITES = asan-bad asan-deploy asan-unit asan-cli asan-tmux asan-catimg
VG_SUITES = vg-wizard vg-cli vg-unit vg-unit-b
CHECK_SUITES = vg-unit vg-unit-b vg-wizard deb asan-unit asan-bad asan-deploy vg-cli \
	   asan-cli asan-tmux $(QUICK_SUITES) tmux fuzz-smoke asan-catimg scale
# What each suite needs built. The compiled catalog comes with ./pdwiz:
# every build of the same sources (ASan's too) maps it.
NEEDS_unit = $(TESTS) rules/catalog.img
NEEDS_vg-unit = $(TESTS) rules/catalog.img
NEEDS_vg-unit-b = $(TESTS) rules/catalog.img
NEEDS_fuzz-smoke = fuzz-build
NEEDS_layers =
NEEDS_tools =
NEEDS_inventory =
NEEDS_sgscan =
NEEDS_groups =
NEEDS_own-work =
NEEDS_oracle = pdwiz rules/catalog.img
$(foreach n,cli deploy verdict bad tmux vg-cli vg-wizard catimg realworld scale logs fit,$(eval NEEDS_$(n) = pdwiz rules/catalog.img))
$(foreach n,$(ASAN_SUITES),$(eval NEEDS_$(n) = asan-build rules/catalog.img))
# The packaging (tests/pkg), the pre-commit hook, the Debian package (it
# builds its own, and compares its catalog image with the tree's).
$(foreach n,pkg precommit deb,$(eval NEEDS_$(n) = pdwiz rules/catalog.img))

# suite-NAME needs $(NEEDS_NAME), except with SUITES_ONLY=1 (run a suite
# on what is built, nothing rebuilt).
suite_needs = $(if $(SUITES_ONLY),,$(NEEDS_$(1)))

# run_suites NAMES: run the suites NAMES, SUITE_JOBS at a time (or as the
# -j given to this make), each as soon as what it needs is built: the
# suites of the plain build run while the sanitizer build compiles. Then
# the summary line; fails if any suite failed or could not be built.
define run_suites
@rm -f $(LOGDIR)/summary $(foreach n,$(1),$(LOGDIR)/$(n).rc $(LOGDIR)/$(n).time)
+@case " $$MAKEFLAGS" in *jobserver*) j= ;; *) j=-j$(SUITE_JOBS) ;; esac; \
$(MAKE) --no-print-directory -k $$j TIER=$(TIER) $(1:%=suite-%); \
sh tests/suite.sh summary $(LOGDIR) $(1)
endef

.PHONY: needs
needs: $(NEEDS)
	@:

# Test tiers: the same suites, the property tests and memcheck at three
# sizes. The full size finds what the smaller ones find, only later.
#   make test        TIER=quick   (the quick suites, about a minute)
#   make check       TIER=check   (every suite, about 4 minutes on 2 cores)
#   make check-full  TIER=full    (every count at full size, memcheck on
#                                  every wizard scenario: nightly)
TIER	?= check
PROP_quick	 = PDWIZ_PROP_COUNT=1000 PDWIZ_ESC_COUNT=150
PROP_check	 = PDWIZ_PROP_COUNT=2500
PROP_full	 =
ASAN_PROP_quick	 = PDWIZ_PROP_COUNT=300 PDWIZ_ESC_COUNT=100
ASAN_PROP_check	 = PDWIZ_PROP_COUNT=300 PDWIZ_ESC_COUNT=100
ASAN_PROP_full	 =
VG_full		 = VG_ALL=1
# Under memcheck (about 25 times slower than the plain build), make check
# runs fewer generated cases than the programs' own memcheck counts, half
# the wizard's fields in its undo passes and a quarter of the fixed escape
# cases (which quarter drawn from the seed); under ASan a third of the
# native counts. check-full runs every count at full size.
VG_UNIT_quick	 = $(VG_UNIT_check)
VG_UNIT_check	 = PDWIZ_SPLIT_PASSES=4 PDWIZ_PROP_COUNT=50 PDWIZ_ESC_COUNT=20 \
		   PDWIZ_ESC_FIXED_EVERY=4
VG_UNIT_full	 =
ASAN_CATIMG_quick = CATIMG_EVERY=4
ASAN_CATIMG_check = CATIMG_EVERY=4

test: TIER = quick
test: $(DEPS)
	$(call run_suites,$(QUICK_SUITES))

check: $(DEPS)
	$(call run_suites,$(CHECK_SUITES))

check-full: TIER = full
check-full: $(DEPS)
	$(call run_suites,$(CHECK_SUITES))

# Unit tests and every end-to-end suite (CLI, deployment, bad input, the
# wizard in tmux) again under ASan+UBSan.
sanitize:
	$(call run_suites,$(ASAN_SUITES))

# Unit tests, CLI runs and the wizard in tmux under valgrind memcheck.
valgrind:
	$(call run_suites,$(VG_SUITES))

asan-build:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CC=$(FUZZ_CC) \
	    CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="$(ASAN_LDFLAGS)" \
	    $(ASAN_BUILD)/pdwiz $(ASAN_TESTS)

.PHONY: $(CHECK_SUITES:%=suite-%)
suite-unit: $(call suite_needs,unit)
	@$(SUITE) unit env $(PROP_$(TIER)) sh tests/unit/run.sh $(TESTS)
suite-cli: $(call suite_needs,cli)
	@$(SUITE) cli sh tests/cli/run.sh
suite-deploy: $(call suite_needs,deploy)
	@$(SUITE) deploy env PDWIZ=$(CURDIR)/pdwiz sh tests/deploy/run.sh
suite-bad: $(call suite_needs,bad)
	@$(SUITE) bad sh tests/bad/run.sh
suite-tmux: $(call suite_needs,tmux)
	@$(SUITE) tmux env POLL_TIMEOUT=$(TMUX_POLL) sh tests/tmux/run.sh
suite-fuzz-smoke: $(call suite_needs,fuzz-smoke)
	@$(SUITE) fuzz-smoke $(MAKE) --no-print-directory fuzz-smoke-run
suite-asan-unit: $(call suite_needs,asan-unit)
	@$(SUITE) asan-unit env ASAN_OPTIONS=detect_leaks=1 $(ASAN_PROP_$(TIER)) \
	    sh tests/unit/run.sh $(ASAN_TESTS)
suite-asan-cli: $(call suite_needs,asan-cli)
	@$(SUITE) asan-cli env PDWIZ=$(CURDIR)/$(ASAN_BUILD)/pdwiz \
	    sh tests/cli/run.sh
suite-asan-deploy: $(call suite_needs,asan-deploy)
	@$(SUITE) asan-deploy env PDWIZ=$(CURDIR)/$(ASAN_BUILD)/pdwiz \
	    sh tests/deploy/run.sh
suite-asan-bad: $(call suite_needs,asan-bad)
	@$(SUITE) asan-bad env PDWIZ=$(CURDIR)/$(ASAN_BUILD)/pdwiz \
	    sh tests/bad/run.sh
suite-asan-tmux: $(call suite_needs,asan-tmux)
	@$(SUITE) asan-tmux env PDWIZ=$(CURDIR)/$(ASAN_BUILD)/pdwiz \
	    POLL_TIMEOUT=$(TMUX_POLL) sh tests/tmux/run.sh
suite-catimg: $(call suite_needs,catimg)
	@$(SUITE) catimg sh tests/catimg/run.sh
suite-asan-catimg: $(call suite_needs,asan-catimg)
	@$(SUITE) asan-catimg env PDWIZ=$(CURDIR)/$(ASAN_BUILD)/pdwiz \
	    $(ASAN_CATIMG_$(TIER)) sh tests/catimg/run.sh
suite-realworld: $(call suite_needs,realworld)
	@$(SUITE) realworld sh tests/realworld/run.sh
suite-layers: $(call suite_needs,layers)
	@$(SUITE) layers sh tests/layers.sh
suite-tools: $(call suite_needs,tools)
	@$(SUITE) tools sh tests/tools/run.sh
suite-verdict: $(call suite_needs,verdict)
	@$(SUITE) verdict env PDWIZ=$(CURDIR)/pdwiz sh tests/verdict/run.sh
# rules/flag-inventory.tsv regenerated from an SGLang clone (skipped without)
suite-inventory: $(call suite_needs,inventory)
	@$(SUITE) inventory sh tests/tools/inventory.sh
# rules/sglang-checks.tsv regenerated from an SGLang clone (skipped without)
suite-sgscan: $(call suite_needs,sgscan)
	@$(SUITE) sgscan sh tests/tools/sgscan.sh
# the groups of rules/options.yaml regenerated from an SGLang clone (the
# regeneration skipped without)
suite-groups: $(call suite_needs,groups)
	@$(SUITE) groups sh tests/tools/groups.sh
suite-own-work: $(call suite_needs,own-work)
	@$(SUITE) own-work sh tests/own-work.sh
suite-oracle: $(call suite_needs,oracle)
	@$(SUITE) oracle env PDWIZ=$(CURDIR)/pdwiz sh tests/oracle/run.sh
# pdwiz explain: the corpus of failure logs (tests/logs/cases.tsv)
suite-logs: $(call suite_needs,logs)
	@$(SUITE) logs sh tests/logs/run.sh
# the memory estimate against real startup logs (tests/fit/calibration.tsv)
suite-fit: $(call suite_needs,fit)
	@$(SUITE) fit env PDWIZ=$(CURDIR)/pdwiz sh tests/fit/run.sh
suite-scale: $(call suite_needs,scale)
	@$(SUITE) scale sh tests/scale/run.sh
suite-pkg: $(call suite_needs,pkg)
	@$(SUITE) pkg env PDWIZ=$(CURDIR)/pdwiz sh tests/pkg/run.sh
suite-precommit: $(call suite_needs,precommit)
	@$(SUITE) precommit env PDWIZ=$(CURDIR)/pdwiz sh tests/precommit/run.sh
suite-deb: $(call suite_needs,deb)
	@$(SUITE) deb env BUILD=$(BUILD) sh tests/deb/run.sh
suite-vg-unit: $(call suite_needs,vg-unit)
	@$(SUITE) vg-unit env BUILD=$(BUILD) $(VG_UNIT_$(TIER)) \
	    sh tests/valgrind.sh units-a
suite-vg-unit-b: $(call suite_needs,vg-unit-b)
	@$(SUITE) vg-unit-b env BUILD=$(BUILD) $(VG_UNIT_$(TIER)) \
	    sh tests/valgrind.sh units-b
suite-vg-cli: $(call suite_needs,vg-cli)
	@$(SUITE) vg-cli sh tests/valgrind.sh cli
suite-vg-wizard: $(call suite_needs,vg-wizard)
	@$(SUITE) vg-wizard env $(VG_$(TIER)) sh tests/valgrind.sh wizard

bench: pdwiz rules/catalog.img $(BUILD)/bench/bench_engine $(BUILD)/bench/bench_wizard
	@sh tests/bench/run.sh $(BUILD)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libpdwiz.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< \
	    $(BUILD)/libpdwiz.a $(LDLIBS)

-include $(BUILD)/bench/bench_engine.d $(BUILD)/bench/bench_wizard.d

# The coverage list: every option -> rules that read it; every SGLang check
# of the catalog (../shared/sglang/rules.md) -> rules, or why not modelled.
SGLANG_CATALOG ?= ../shared/sglang/rules.md
coverage: pdwiz
	./pdwiz coverage --sglang-catalog $(SGLANG_CATALOG) > rules/COVERAGE.txt
	@echo "wrote rules/COVERAGE.txt"

install: pdwiz rules/catalog.img
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules/checks \
	    $(DESTDIR)$(DATADIR)/rules/deploy $(DESTDIR)$(DATADIR)/forms \
	    $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 pdwiz $(DESTDIR)$(BINDIR)/pdwiz
	install -m 644 rules/*.yaml rules/sglang-state.tsv rules/sglang-checks.tsv rules/flag-inventory.tsv rules/rule-since.tsv $(DESTDIR)$(DATADIR)/rules/
	install -m 644 rules/catalog.img $(DESTDIR)$(LIBDIR)/catalog.img
	install -m 644 rules/checks/*.yaml $(DESTDIR)$(DATADIR)/rules/checks/
	if ls rules/deploy/*.yaml >/dev/null 2>&1; then \
	    install -m 644 rules/deploy/*.yaml $(DESTDIR)$(DATADIR)/rules/deploy/; fi
	if ls forms/*.yaml >/dev/null 2>&1; then \
	    install -m 644 forms/*.yaml $(DESTDIR)$(DATADIR)/forms/; fi
	install -m 644 share/pdwiz.1 $(DESTDIR)$(MANDIR)/pdwiz.1
	install -m 644 share/bash-completion/pdwiz $(DESTDIR)$(COMPDIR)/pdwiz
	install -m 644 share/zsh/_pdwiz $(DESTDIR)$(ZSHCOMPDIR)/_pdwiz
	install -m 644 share/fish/pdwiz.fish $(DESTDIR)$(FISHCOMPDIR)/pdwiz.fish
	install -m 644 share/check.schema.json share/pdwiz-problem-matcher.json \
	    share/pdwiz-rc.md \
	    $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pdwiz $(DESTDIR)$(MANDIR)/pdwiz.1 \
	    $(DESTDIR)$(COMPDIR)/pdwiz $(DESTDIR)$(ZSHCOMPDIR)/_pdwiz \
	    $(DESTDIR)$(FISHCOMPDIR)/pdwiz.fish
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBDIR)

clean:
	rm -rf build build-asan build-fuzz pdwiz rules/catalog.img

# ---- fuzzing (libFuzzer, clang; see tests/fuzz/README.md) ----
# make fuzz [FUZZ_SECONDS=60] [FUZZ_RUNS=n] [FUZZ="name ..."]
#                       each harness for FUZZ_SECONDS (or FUZZ_RUNS inputs)
# make fuzz-smoke       a fixed short run of each
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_RUNS	?= -1
FUZZ_BUILD	 = build-fuzz
FUZZ_SAN	 = -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
FUZZ		?= $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OPTS	 = -rss_limit_mb=2048 -timeout=20
# ASan tuned for speed, not for less checking: shorter allocation stacks in
# reports, a 16 MB quarantine, freed memory kept instead of returned to the
# OS (about 1.6x the inputs per second on the deploy harness).
FUZZ_ENV	 = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:malloc_context_size=5:quarantine_size_mb=16:allocator_release_to_os_interval_ms=-1 \
		   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		   PDWIZ_DATADIR=$(CURDIR)

.PHONY: fuzz-build fuzz-bins fuzz-smoke fuzz-smoke-run

FUZZ_CFLAGS	 = -O2 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		   -fsanitize-coverage-ignorelist=$(CURDIR)/tests/fuzz/coverage-ignore.txt

# After asan-build, whose objects it shares (never both at once in the
# same directory).
fuzz-build: asan-build
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
	    CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="$(ASAN_LDFLAGS)" \
	    fuzz-bins

fuzz-bins: $(FUZZ:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/libpdwiz.a
	$(CC) $(ALL_CPPFLAGS) -DFUZZ_DATADIR='"$(CURDIR)"' $(ALL_CFLAGS) \
	    $(DEPFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< \
	    $(BUILD)/libpdwiz.a $(LDLIBS)

-include $(FUZZ:%=$(BUILD)/fuzz_%.d)

fuzz: fuzz-build
	@set -e; for f in $(FUZZ); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$f; \
	    echo "== fuzz $$f ($(FUZZ_SECONDS) s)"; \
	    $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$$f $(FUZZ_OPTS) \
		-max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) \
		-print_final_stats=1 \
		-artifact_prefix=$(FUZZ_BUILD)/$$f- \
		$(FUZZ_BUILD)/corpus/$$f tests/fuzz/corpus/$$f share/examples; \
	done

fuzz-smoke: fuzz-build
	@$(MAKE) --no-print-directory fuzz-smoke-run

# The smoke runs of the harnesses fuzz-build made.
fuzz-smoke-run:
	@set -e; for f in $(FUZZ); do \
	    rm -rf $(FUZZ_BUILD)/smoke/$$f; mkdir -p $(FUZZ_BUILD)/smoke/$$f; \
	    printf '== fuzz-smoke %s: ' $$f; \
	    $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$$f $(FUZZ_OPTS) -seed=1 \
		-runs=3000 -max_total_time=30 \
		-artifact_prefix=$(FUZZ_BUILD)/$$f- \
		$(FUZZ_BUILD)/smoke/$$f tests/fuzz/corpus/$$f share/examples \
		>$(FUZZ_BUILD)/smoke/$$f.log 2>&1 || { \
		tail -n 40 $(FUZZ_BUILD)/smoke/$$f.log; exit 1; }; \
	    grep -o 'Done [0-9]* runs in [0-9]* second(s)' \
		$(FUZZ_BUILD)/smoke/$$f.log || echo ok; \
	done
