# pdwiz - SGLang PD deployment wizard and linter.
# make            build ./pdwiz
# make run        build and open the wizard
# make check      build and run every test (installs missing packages)
# make bench      rule engine and whole-process benchmarks

PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	 = $(PREFIX)/bin
DATADIR	 = $(PREFIX)/share/pdwiz
MANDIR	 = $(PREFIX)/share/man/man1
COMPDIR	 = $(PREFIX)/share/bash-completion/completions

CC	?= cc
PKGS	 = ncursesw yaml-0.1
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

WARN	 = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral \
	   -Wwrite-strings -Wvla -Werror
CFLAGS	?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) \
	   -Isrc $(PKG_CFLAGS) -DPDWIZ_DATADIR_DEFAULT='"$(DATADIR)"'
LDLIBS	 = $(PKG_LIBS) -lm

BUILD	?= build
LIB_SRC	 = $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ	 = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/cli/main.o
TESTS	 = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

.PHONY: all run check deps test unit tmux-tests sanitize valgrind bench \
	install uninstall clean coverage fuzz

all: pdwiz rules/catalog.img

# The compiled catalog: the YAML of rules/ as one image that pdwiz maps at
# startup. pdwiz uses it only when it was written by the same build from
# the same YAML; otherwise it reads the YAML.
RULE_YAML = rules/options.yaml rules/models.yaml $(wildcard rules/checks/*.yaml rules/deploy/*.yaml)
rules/catalog.img: pdwiz $(RULE_YAML)
	PDWIZ_DATADIR=$(CURDIR) ./pdwiz compile-catalog -o $@

# A build's identity, from its sources: an image records the one that
# wrote it.
ALL_SRC	 = $(sort $(wildcard src/*/*.c src/*/*.h))
SRC_ID	:= $(shell cat $(ALL_SRC) | cksum | cut -d' ' -f1)
$(BUILD)/src/core/catimg.o: $(ALL_SRC)
$(BUILD)/src/core/catimg.o: ALL_CFLAGS += -DPDWIZ_SRC_ID='"$(SRC_ID)"'

pdwiz: $(MAIN_OBJ) $(BUILD)/libpdwiz.a
	$(CC) $(ALL_CFLAGS) -o $@ $(MAIN_OBJ) $(BUILD)/libpdwiz.a $(LDLIBS)

$(BUILD)/libpdwiz.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libpdwiz.a tests/unit/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libpdwiz.a \
	    $(LDLIBS) $(CMOCKA_LIBS)

# Install what the build and the tests need, where it is missing.
deps:
	@sh tests/deps.sh

run: deps pdwiz
	./pdwiz

unit: $(TESTS) rules/catalog.img
	@set -e; for t in $(TESTS); do echo "== $$t"; \
	    PDWIZ_DATADIR=$(CURDIR) $$t; done

tmux-tests: pdwiz
	@sh tests/tmux/run.sh

# Unit tests and every end-to-end suite (CLI, deployment, bad input, the
# wizard in tmux) again under ASan+UBSan.
sanitize:
	$(MAKE) BUILD=build-asan \
	    CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" pdwiz-asan unit-asan

pdwiz-asan: $(MAIN_OBJ) $(BUILD)/libpdwiz.a
	$(CC) $(ALL_CFLAGS) -o $(BUILD)/pdwiz $(MAIN_OBJ) $(BUILD)/libpdwiz.a $(LDLIBS)

unit-asan: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== (asan) $$t"; \
	    ASAN_OPTIONS=detect_leaks=1 PDWIZ_DATADIR=$(CURDIR) $$t; done
	@PDWIZ=$(CURDIR)/$(BUILD)/pdwiz sh tests/cli/run.sh
	@PDWIZ=$(CURDIR)/$(BUILD)/pdwiz sh tests/deploy/run.sh
	@PDWIZ=$(CURDIR)/$(BUILD)/pdwiz sh tests/bad/run.sh
	@PDWIZ=$(CURDIR)/$(BUILD)/pdwiz sh tests/tmux/run.sh

valgrind: pdwiz $(TESTS)
	@sh tests/valgrind.sh

test: unit
	@sh tests/cli/run.sh

check: deps all
	@$(MAKE) --no-print-directory unit
	@sh tests/cli/run.sh
	@PDWIZ=$(CURDIR)/pdwiz sh tests/deploy/run.sh
	@sh tests/bad/run.sh
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory tmux-tests
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory valgrind
	@echo "make check: all suites passed"

bench: pdwiz rules/catalog.img $(BUILD)/bench/bench_engine $(BUILD)/bench/bench_wizard
	@sh tests/bench/run.sh $(BUILD)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libpdwiz.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libpdwiz.a $(LDLIBS)

# The coverage list: every option -> rules that read it; every SGLang check
# of the catalog (../shared/sglang/rules.md) -> rules, or why not modelled.
SGLANG_CATALOG ?= ../shared/sglang/rules.md
coverage: pdwiz
	./pdwiz coverage --sglang-catalog $(SGLANG_CATALOG) > rules/COVERAGE.txt
	@echo "wrote rules/COVERAGE.txt"

install: pdwiz rules/catalog.img
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules/checks \
	    $(DESTDIR)$(DATADIR)/rules/deploy $(DESTDIR)$(DATADIR)/forms \
	    $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 pdwiz $(DESTDIR)$(BINDIR)/pdwiz
	install -m 644 rules/*.yaml rules/catalog.img $(DESTDIR)$(DATADIR)/rules/
	install -m 644 rules/checks/*.yaml $(DESTDIR)$(DATADIR)/rules/checks/
	if ls rules/deploy/*.yaml >/dev/null 2>&1; then \
	    install -m 644 rules/deploy/*.yaml $(DESTDIR)$(DATADIR)/rules/deploy/; fi
	if ls forms/*.yaml >/dev/null 2>&1; then \
	    install -m 644 forms/*.yaml $(DESTDIR)$(DATADIR)/forms/; fi
	install -m 644 share/pdwiz.1 $(DESTDIR)$(MANDIR)/pdwiz.1
	install -m 644 share/bash-completion/pdwiz $(DESTDIR)$(COMPDIR)/pdwiz

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pdwiz $(DESTDIR)$(MANDIR)/pdwiz.1 \
	    $(DESTDIR)$(COMPDIR)/pdwiz
	rm -rf $(DESTDIR)$(DATADIR)

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

.PHONY: fuzz-build fuzz-bins fuzz-smoke

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
	    CFLAGS="-O2 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	    -fsanitize-coverage-ignorelist=$(CURDIR)/tests/fuzz/coverage-ignore.txt" \
	    fuzz-bins

fuzz-bins: $(FUZZ:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/libpdwiz.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -DFUZZ_DATADIR='"$(CURDIR)"' \
	    -o $@ $< $(BUILD)/libpdwiz.a $(LDLIBS)

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
