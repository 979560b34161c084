# astray - build, test, run, install.
#   make            build build/astray
#   make test       every cmocka suite under ASan+UBSan, the level checks,
#                   the sim seed catalogue (UPDATE=1 rewrites the goldens)
#                   and make lint, built and run in parallel; T=test_ai
#                   runs one suite
#   make test-quick the unit suites alone (no terminal, no long sweeps)
#   make lint       what the layers must not do (tools/lint)
#   make clang-check  every source through clang, the fuzzers' compiler, with the
#                   build's warnings (make test runs it where clang is installed)
#   make run        play the campaign in levels/
#   make gen-sweep  the level generator's properties over 20000 seeds a topology
#   make bench      the A* core on the Moving AI maps (and libtcod, if installed)
#   make bench-resume  resuming 10,000-action saves (OLD=astray to compare with)
#   make bench-crowd  the crowd rules detour and pass side by side, and 100 chasers
#                   on every campaign level (docs/ai.md); CONGESTION="50 100" also
#                   compares goblin.congestion=0 with each value on every suite
#   make bench-keys-big  key presses and resume on a 4096x4096 level, saving on
#   make bench-fallback  clicks on walls and sealed pockets of 4096x4096 levels, with and
#                   without the region labels (ROUNDS=3, TOPOS, STYLES, SIZE; OLD=astray
#                   also times the game's previews against that program)
#   make bench-marathon  a 2,000,000-action game in segments: save, resume, replay
#   make bench-turned  jump point search on hex and diamond against plain A* (docs/core.md)
#   make bench-region  a whole relabelling of the region labels on 4096x4096 levels
#   make fuzz       libFuzzer on every parser and decoder (clang; FUZZ_SECONDS=60 each,
#                   the terminal input 20 times that: FUZZ_INPUT_FACTOR)
#   make soak       random play of every level and generated ones, journals
#                   replayed, in the sanitizer build (SOAK_SECONDS=60)
#   make install    PREFIX=/usr/local DESTDIR=
# CFLAGS, LDFLAGS, CC, PREFIX and DESTDIR may be overridden.

SHELL := /bin/bash
CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
PKGDATADIR ?= $(DATADIR)/astray
MANDIR ?= $(DATADIR)/man
MAPS ?= ../shared/maps/movingai
FUZZ_SECONDS ?= 60
# make test UPDATE=1 rewrites the golden files (review them with git diff).
UPDATE ?= 0

CFLAGS ?= -O2 -g
LDFLAGS ?=
# The sanitizer (test) build: invariant CHECKs on, and two hooks of
# ui_screen.c for the e2e tests: the crash key (Ctrl-] with
# $ASTRAY_TEST_CRASH) and the idle marker written at each wait for a key.
# The program's sources at -O1 (the suites' CPU time is mostly in them);
# the tests' own files at -O0, which compiles them in a third of the time
# and runs the suites as fast (measured: docs/perf-log.md, 2026-11-28).
SAN_CFLAGS = -DASTRAY_CHECKS -DASTRAY_TEST_CRASH -DASTRAY_TEST_IDLE -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# Without var-tracking-assignments (still -g: lines and variables, their
# locations less exact at -O1): a fifth less CPU to compile the sources,
# a quarter for path.c.
SAN_FLAGS = $(SAN_CFLAGS) -O1 -fno-var-tracking-assignments
SAN_TEST_FLAGS = $(SAN_CFLAGS) -O0
# GCC links the sanitizer runtimes statically when told: a sanitized
# program then starts in two thirds of the time (make test starts
# hundreds).  Clang links them statically anyway.  Not position
# independent: a start of the sanitized program then touches a quarter
# fewer pages (3,100 -> 2,300 page faults, 0.07 -> 0.055 s of CPU).
# Linked by gold where the compiler has it: half the CPU time of a link.
SAN_LDFLAGS := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-static-libasan -static-libubsan) \
	       -no-pie $(if $(findstring GNU gold,$(shell $(CC) -fuse-ld=gold -Wl,--version 2>/dev/null)),-fuse-ld=gold)

# Warnings are errors in development (a git checkout) and in CI; a release
# built from the tarball with a newer compiler still builds.  WERROR= or
# WERROR=-Werror overrides.
WERROR ?= $(if $(or $(wildcard .git),$(CI)),-Werror,)
WARN = -Wall -Wextra $(WERROR) -Wpedantic -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wwrite-strings
BASE_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -MMD -MP \
              -DASTRAY_DATADIR='"$(PKGDATADIR)"'

CURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
VTERM_CFLAGS := $(shell $(PKG_CONFIG) --cflags vterm 2>/dev/null)
VTERM_LIBS := $(shell $(PKG_CONFIG) --libs vterm 2>/dev/null || echo -lvterm)
TCOD_LIBS := $(shell $(PKG_CONFIG) --libs libtcod 2>/dev/null)
TCOD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtcod 2>/dev/null)
LIBS = $(CURSES_LIBS) -lm -pthread

# One folder per layer (DESIGN section 1; docs/HACKING.md).  Each layer
# compiles with only the include paths it may use, so an include of a
# higher layer's header is a compile error: core sees core; the world's
# three sub-layers see what is below them (model: the rules; store: what
# is kept on disk; tools: the designers' and tuners' tools); ui sees those
# and ui; cli sees all.  Tests compile with their layer's paths (a test
# under tests/world sees the whole world).
LAYERS := core model store tools ui cli
INC_core := -Isrc/core
INC_model := $(INC_core) -Isrc/world/model
INC_store := $(INC_model) -Isrc/world/store
INC_tools := $(INC_store) -Isrc/world/tools
INC_world := $(INC_tools)
INC_ui := $(INC_world) -Isrc/ui
INC_cli := $(INC_ui) -Isrc/cli
INC_e2e := -Itests/lib
# The innermost layer folder of a path: build/san/world/model/game.o is
# model, build/san/tests/world/test_ai.o is world.
layer_of = $(lastword $(filter $(LAYERS) world e2e,$(subst /, ,$(1))))

CORE_SRC := $(sort $(wildcard src/core/*.c))
WORLD_SRC := $(sort $(wildcard src/world/*/*.c))
UI_SRC := $(sort $(wildcard src/ui/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
SRC := $(CORE_SRC) $(WORLD_SRC) $(UI_SRC) $(CLI_SRC)
OBJ := $(SRC:src/%.c=build/obj/%.o)
SAN_OBJ := $(SRC:src/%.c=build/san/%.o)
# The sanitized layers as libraries, for the tests: a core test links
# libcore.a alone (no curses, nothing of the game).
SAN_LIB_core := build/san/libcore.a
SAN_LIB_world := build/san/libworld.a $(SAN_LIB_core)
SAN_LIB_ui := build/san/libui.a $(SAN_LIB_world)
SAN_LIB_cli := build/san/libcli.a $(SAN_LIB_ui)
SAN_LIB_e2e :=
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))
TESTLIB_OBJ := $(TESTLIB_SRC:tests/%.c=build/san/tests/%.o)
TEST_SRC := $(sort $(wildcard tests/*/test_*.c))
TESTS := $(TEST_SRC:tests/%.c=build/san/tests/%)

.PHONY: all test test-quick test-build test-suites test-one test-quick-suites lint run bench \
	bench-resume bench-resume-big bench-crowd bench-keys-big bench-fallback bench-marathon bench-turned bench-region fuzz clang-check soak install uninstall clean check-levels depcheck dist gen-sweep
all: build/astray

# The objects that embed DATADIR are rebuilt when it changes, so
# `make install PREFIX=/usr` after a plain `make` finds its levels.
build/obj/datadir.stamp build/san/datadir.stamp build/fuzz/datadir.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(PKGDATADIR)' | cmp -s - $@ || echo '$(PKGDATADIR)' > $@
build/obj/cli/cmd_play.o build/obj/world/model/bestiary.o: build/obj/datadir.stamp
build/san/cli/cmd_play.o build/san/world/model/bestiary.o: build/san/datadir.stamp
build/fuzz/cli/cmd_play.o build/fuzz/world/model/bestiary.o: build/fuzz/datadir.stamp
.PHONY: FORCE
FORCE:

# Only the ui layer sees the curses headers.
build/obj/ui/%.o build/san/ui/%.o: EXTRA_CFLAGS = $(CURSES_CFLAGS)

build/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(INC_$(call layer_of,$@)) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

build/san/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(INC_$(call layer_of,$@)) $(EXTRA_CFLAGS) $(SAN_FLAGS) -c $< -o $@

build/astray: $(OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) $(OBJ) $(LIBS) -o $@

# The core as a library of its own, without curses or anything of the game.
build/obj/libcore.a: $(CORE_SRC:src/%.c=build/obj/%.o)
	rm -f $@ && ar rcs $@ $^

# The program built with the sanitizers, for the end-to-end tests.
build/san/astray: $(SAN_OBJ)
	$(CC) $(SAN_FLAGS) $(SAN_LDFLAGS) $(LDFLAGS) $(SAN_OBJ) $(LIBS) -o $@

build/san/libcore.a: $(CORE_SRC:src/%.c=build/san/%.o)
	rm -f $@ && ar rcs $@ $^
build/san/libworld.a: $(WORLD_SRC:src/%.c=build/san/%.o)
	rm -f $@ && ar rcs $@ $^
build/san/libui.a: $(UI_SRC:src/%.c=build/san/%.o)
	rm -f $@ && ar rcs $@ $^
build/san/libcli.a: $(filter-out build/san/cli/main.o,$(CLI_SRC:src/%.c=build/san/%.o))
	rm -f $@ && ar rcs $@ $^
build/san/libtest.a: $(TESTLIB_OBJ)
	rm -f $@ && ar rcs $@ $^

# The crash tests' LD_PRELOAD shim (tests/shim/failio.c): fails or kills
# the real program at its k-th write, fsync, rename or link.
build/shim/failio.so: tests/shim/failio.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -O1 -g -fPIC -shared $< -o $@ -ldl

# Kept (not deleted as intermediates), so make test's summary is its last line.
.SECONDARY: $(TEST_SRC:tests/%.c=build/san/tests/%.o)

# A test compiles with its layer's include paths (tests/core/x.c sees only
# the core) plus tests/lib, and links its layer's libraries and below.
build/san/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(if $(findstring /lib/,$@),$(INC_cli),$(INC_$(call layer_of,$@))) -Itests/lib $(SAN_TEST_FLAGS) $(CMOCKA_CFLAGS) $(VTERM_CFLAGS) -c $< -o $@

# The suite whose threads share the game's memory (a far click's side
# search beside the key's searches, the trees' and labels' threads) again
# under ThreadSanitizer, as a check of make test: a data race is a
# failure (its exit status, 66).  The core and the model at -O1.
TSAN_FLAGS = -g -O1 -fsanitize=thread
TSAN_SRC := $(CORE_SRC) $(filter src/world/model/%,$(WORLD_SRC))
TSAN_OBJ := $(TSAN_SRC:src/%.c=build/tsan/%.o) \
	    $(addprefix build/tsan/tests/lib/,fixture.o grid_text.o testmaze.o testrand.o)
build/tsan/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(INC_$(call layer_of,$@)) $(TSAN_FLAGS) -c $< -o $@
build/tsan/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(INC_world) -Itests/lib $(TSAN_FLAGS) $(CMOCKA_CFLAGS) -c $< -o $@
build/tsan/tests/world/test_side: build/tsan/tests/world/test_side.o $(TSAN_OBJ)
	$(CC) $(TSAN_FLAGS) $^ $(CMOCKA_LIBS) -lm -pthread -o $@

# Every suite's cmocka_run_group_tests goes through tests/lib/suite_filter.c
# (ASTRAY_TEST_ONLY and ASTRAY_TEST_SKIP pick its tests; make test runs a
# long suite in parts with them, SUITE_PARTS below).
SUITE_FILTER := build/san/tests/lib/suite_filter.o -Wl,--wrap=_cmocka_run_group_tests
.SECONDEXPANSION:
build/san/tests/%: build/san/tests/%.o build/san/libtest.a build/san/tests/lib/suite_filter.o $$(SAN_LIB_$$(call layer_of,$$@))
	$(CC) $(SAN_FLAGS) $(SAN_LDFLAGS) $(LDFLAGS) $< $(SUITE_FILTER) build/san/libtest.a $(SAN_LIB_$(call layer_of,$@)) $(CMOCKA_LIBS) \
		$(if $(filter core,$(call layer_of,$@)),-lm,$(VTERM_LIBS) -lutil $(LIBS)) -o $@

# make test: tools/deps installs what this machine lacks (apt-get,
# printing what it runs; ASTRAY_NO_DEPS=1 skips it), then a make of its
# own with TEST_JOBS jobs builds everything and runs
# every suite and check side by side, each into a log of its own under
# build/test-logs (tools/run-suite: one line each as it ends).  The end
# (tools/test-summary) prints every failing log whole, then the summary
# line; build/test.log holds all the logs.  The suites run from the top
# folder.  T=NAME (test_ai or world/test_ai) runs that one suite alone.
# One job more than the processors: the pty suites, and the programs the
# suites run, spend part of their time waiting.
TEST_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
TEST_LOGS := build/test-logs
# clear_shadow_mmap_threshold: ASan zeroes the shadow of a large block
# (a flood context is half a MiB) with memset rather than a fresh mmap,
# whose TLB shootdowns cost this VM more than the memset: test_flood's
# system time 15 -> 9 s.  It changes nothing of what ASan detects.
SAN_OPTIONS := detect_leaks=1:clear_shadow_mmap_threshold=1073741824
# quarantine_size_mb=64 (ASan's default 256): freed memory waits in
# quarantine for 64 MiB of later frees, not 256, before it is reused, so a
# use after free is caught within that window (a deliberate one, a
# journal's buffer read at the next journal_data_fini, still is); long
# suites touch a quarter of the fresh pages, the page faults this VM pays
# dearly for: test_journal 19.2 -> 14.9 s of CPU.  make soak keeps 256.
SAN_ENV := ASAN_OPTIONS=$(SAN_OPTIONS):quarantine_size_mb=64
# The programs the suites start keep the leak check at their exit: a
# leak on an error path of a command is reached only there.
SUITE_ENV = ASTRAY_BIN=build/san/astray ASTRAY_MAPS=$(MAPS) $(SAN_ENV)
# The suites that run the program need build/san/astray, those of the
# crash tests build/astray and the fault shim too.
BIN_SUITES := $(filter build/san/tests/e2e/% build/san/tests/cli/% build/san/tests/world/test_sim%,$(TESTS))
PLAIN_SUITES := $(filter $(addprefix build/san/tests/e2e/,test_crash test_save_strays test_edit_recover),$(TESTS))
# The longest suites run in two parts side by side, so that neither is
# the last one running alone: NAME=GLOB,GLOB... runs the tests the globs
# name in the log NAME.1 (ASTRAY_TEST_ONLY, tests/lib/suite_filter.c) and
# the others in NAME.2 (ASTRAY_TEST_SKIP).  The split is by CPU time
# (tools/run-suite prints it); a test added later lands in part 2.
SUITE_PARTS := world/test_sim_cli=test_shards_merge,test_ranges_merge \
	       core/test_flood=test_equals_path_flood,test_early_stop,test_route_* \
	       world/test_sim=test_cli_no_livelock,test_cli_record,test_cli_generate,test_cli_errors_and_help
comma := ,
PART_NAMES := $(foreach p,$(SUITE_PARTS),$(firstword $(subst =, ,$(p))))
part_globs = $(subst $(comma), ,$(word 2,$(subst =, ,$(filter $(1)=%,$(SUITE_PARTS)))))
# NAME (world/test_ai) -> its logs under TEST_LOGS, the parts' if split.
suite_logs = $(foreach n,$(1),$(if $(filter $(n),$(PART_NAMES)),$(TEST_LOGS)/$(n).1.log \
	     $(TEST_LOGS)/$(n).2.log,$(TEST_LOGS)/$(n).log))
SUITE_NAMES := $(TESTS:build/san/tests/%=%)
WHOLE_LOGS := $(SUITE_NAMES:%=$(TEST_LOGS)/%.log)
SUITE_LOGS := $(call suite_logs,$(SUITE_NAMES))
CHECKS := lint depcheck check-levels golden-sim golden-gen golden-journal check-man check-install clang tsan
CHECK_LOGS := $(CHECKS:%=$(TEST_LOGS)/checks/%.log)
# make starts the suites in the order of this list: the longest first
# (from 19 s down to 3 s of CPU each), so that no long one starts last;
# test_flood first, as it needs only the core and so starts while the
# rest compiles.
LONG_LOGS := $(filter $(SUITE_LOGS) $(CHECK_LOGS),$(call suite_logs,core/test_flood checks/tsan \
	     world/test_journal world/test_sim_cli world/test_sim world/test_sim_bot \
	     world/test_journal_segments checks/golden-sim \
	     checks/golden-gen world/test_gen world/test_ai e2e/test_e2e cli/test_hardening e2e/test_save \
	     e2e/test_crash cli/test_opt e2e/test_edit_recover checks/check-man cli/test_pathcmd \
	     e2e/test_title core/test_path core/test_prune cli/test_gen_cmd))
ALL_LOGS := $(LONG_LOGS) $(filter-out $(LONG_LOGS),$(CHECK_LOGS) $(SUITE_LOGS))

# make test-quick: the unit suites of the core, the world and the ui, in
# process (no terminal, no program run), the generator's sweep at
# QUICK_GEN_SEEDS seeds, without the long property sweeps and the suites
# that run the program at scale: well under 30 s once built.
QUICK_GEN_SEEDS ?= 200
QUICK_SKIP := core/test_flood world/test_sim_cli
# ... and, within the suites it runs, the exhaustive and random sweeps
# (ASTRAY_TEST_SKIP): a kill at every write of a game (282 forked games,
# 22 s of CPU), a journal cut at every byte and every write failing in
# turn, random maps against the reference searches.  make test runs them.
QUICK_SKIP_TESTS := test_kill_at_every_call test_kill_while_the_writer_runs test_cut_at_every_byte \
		    test_every_write_failing test_random_maps_match_path_find test_fallback_one_far \
		    test_fallback_same_answer
QUICK_LONG := $(filter $(TESTS),$(addprefix build/san/tests/,world/test_journal world/test_ai world/test_sim))
QUICK_TESTS := $(QUICK_LONG) $(filter-out $(QUICK_SKIP:%=build/san/tests/%) $(BIN_SUITES) $(QUICK_LONG),\
		$(filter build/san/tests/core/% build/san/tests/world/% build/san/tests/ui/%,$(TESTS)))
QUICK_LOGS := $(QUICK_TESTS:build/san/tests/%=$(TEST_LOGS)/quick/%.log)

# T=test_ai or T=world/test_ai: that suite's log.
T_SUITE := $(if $(T),$(or $(filter build/san/tests/$(T),$(TESTS)),$(filter %/$(T),$(TESTS))))
T_LOGS := $(T_SUITE:build/san/tests/%=$(TEST_LOGS)/%.log)

test:
	@tools/deps test
ifeq ($(T),)
	@rm -rf $(TEST_LOGS)
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-suites
else
	@[ $(words $(T_SUITE)) -eq 1 ] || { echo "make test: T=$(T) names $(if $(T_SUITE),more than one suite: $(T_SUITE),no suite (tests/LAYER/NAME.c))"; exit 2; }
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-one T=$(T)
endif

test-quick:
	@tools/deps test
	@rm -rf $(TEST_LOGS)/quick
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-quick-suites

# One make builds and runs: a suite starts as soon as what it runs is
# built, in the order of the list (the longest first), so the two
# processors stay busy from the first compile to the last suite instead
# of waiting for the build's last links.  make test-build only builds.
test-build: build/astray build/san/astray build/shim/failio.so $(TESTS)

test-suites: $(ALL_LOGS)
	@tools/test-summary $(CHECK_LOGS) $(SUITE_LOGS)

test-one: $(T_LOGS)
	@tools/test-summary --all $(T_LOGS)

test-quick-suites: $(QUICK_LOGS)
	@tools/test-summary --name 'make test-quick' $(QUICK_LOGS)

# Each log is made again on every run (FORCE), after the suite's binary.
$(WHOLE_LOGS): $(TEST_LOGS)/%.log: build/san/tests/% FORCE
	@tools/run-suite $@ env $(SUITE_ENV) $<
$(PART_NAMES:%=$(TEST_LOGS)/%.1.log): $(TEST_LOGS)/%.1.log: build/san/tests/% FORCE
	@tools/run-suite $@ env $(SUITE_ENV) ASTRAY_TEST_ONLY='$(call part_globs,$*)' $<
$(PART_NAMES:%=$(TEST_LOGS)/%.2.log): $(TEST_LOGS)/%.2.log: build/san/tests/% FORCE
	@tools/run-suite $@ env $(SUITE_ENV) ASTRAY_TEST_SKIP='$(call part_globs,$*)' $<
$(call suite_logs,$(BIN_SUITES:build/san/tests/%=%)) $(BIN_SUITES:build/san/tests/%=$(TEST_LOGS)/%.log): build/san/astray
$(call suite_logs,$(PLAIN_SUITES:build/san/tests/%=%)) $(PLAIN_SUITES:build/san/tests/%=$(TEST_LOGS)/%.log): \
	build/astray build/shim/failio.so
$(TEST_LOGS)/quick/%.log: build/san/tests/% FORCE
	@tools/run-suite $@ env ASTRAY_MAPS=$(MAPS) $(SAN_ENV) GEN_SEEDS=$(QUICK_GEN_SEEDS) \
		ASTRAY_TEST_SKIP='$(strip $(QUICK_SKIP_TESTS))' $<

$(TEST_LOGS)/checks/lint.log: FORCE
	@tools/run-suite $@ tools/lint
$(TEST_LOGS)/checks/depcheck.log: FORCE
	@tools/run-suite $@ tools/depcheck
# Skipped where the compiler or the machine has no working ThreadSanitizer
# (a probe is built and run first; some kernels' memory layouts stop it).
$(TEST_LOGS)/checks/tsan.log: FORCE
	@mkdir -p build/tsan
	@if printf 'int main(void) { return 0; }\n' | $(CC) -fsanitize=thread -x c - -o build/tsan/probe \
		2>/dev/null && build/tsan/probe >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory build/tsan/tests/world/test_side && \
		tools/run-suite $@ build/tsan/tests/world/test_side; \
	else \
		tools/run-suite $@ sh -c 'echo "checks/tsan: $(CC) or this machine has no working ThreadSanitizer"; \
			echo "[  SKIPPED ] 1 test(s)."'; \
	fi
$(TEST_LOGS)/checks/clang.log: FORCE
	@tools/run-suite $@ $(MAKE) --no-print-directory clang-check
$(TEST_LOGS)/checks/check-levels.log: build/san/astray FORCE
	@tools/run-suite $@ env $(SAN_ENV) build/san/astray check $(wildcard levels/*.lvl)
$(TEST_LOGS)/checks/golden-%.log: build/san/astray FORCE
	@tools/run-suite $@ env ASTRAY_BIN=build/san/astray ASTRAY_MAPS=$(MAPS) $(SAN_ENV) UPDATE=$(UPDATE) tools/golden-$*
# The sim and generator catalogues run every case with the -O2 build and
# a sample with the sanitized one (both must print the golden bytes): a
# sanitized run costs four times the CPU (tools/golden-sim, golden-gen).
GOLDEN_SAN_SIM := generate-mixed crowd-random512-jobs dungeon-bot
$(TEST_LOGS)/checks/golden-sim.log: build/san/astray build/astray FORCE
	@tools/run-suite $@ env ASTRAY_BIN=build/astray ASTRAY_SAN_BIN=build/san/astray \
		ASTRAY_SAN_CASES='$(GOLDEN_SAN_SIM)' ASTRAY_MAPS=$(MAPS) $(SAN_ENV) UPDATE=$(UPDATE) tools/golden-sim
$(TEST_LOGS)/checks/golden-gen.log: build/san/astray build/astray FORCE
	@tools/run-suite $@ env ASTRAY_BIN=build/san/astray ASTRAY_BIN_O2=build/astray ASTRAY_SAN_EVERY=4 \
		ASTRAY_MAPS=$(MAPS) $(SAN_ENV) UPDATE=$(UPDATE) tools/golden-gen
$(TEST_LOGS)/checks/check-man.log: build/san/astray FORCE
	@tools/run-suite $@ env ASTRAY_BIN=build/san/astray $(SAN_ENV) tools/check-man
$(TEST_LOGS)/checks/check-install.log: build/astray FORCE
	@tools/run-suite $@ tools/check-install

# Fails on what the layers must not do (tools/lint): curses outside
# src/ui, output or exit from the core or the world, stale claims.
lint:
	@tools/lint

# The generator's property tests over 20000 seeds per topology (make test
# runs 2000), and the shape figures of 1000 default-size levels each.
GEN_SEEDS ?= 20000
gen-sweep: build/astray build/san/tests/world/test_gen
	GEN_SEEDS=$(GEN_SEEDS) build/san/tests/world/test_gen
	for t in square4 square8 hex diamond4 diamond8; do ./build/astray gen --topology $$t --seed 1 --count 1000 || exit 1; done

# Fails when two modules depend on each other in a circle (tools/depcheck).
depcheck:
	@tools/depcheck

run:
	@tools/deps run
	@$(MAKE) --no-print-directory build/astray
	./build/astray

# The core on the Moving AI scenarios; with libtcod installed, the same
# scenarios through TCOD_path in the same run, and the ratio.
# Resuming long saved games: CPU time (and instructions with CALLGRIND=1)
# of the new program against OLD's full replay (tools/bench-resume).
bench-resume: build/astray build/san/tests/world/test_journal
	tools/bench-resume $(OLD)

# Resuming a game on the 4096x4096 level, after a quit and after a kill
# (15 and 31 actions replayed): CPU time of the new program's resume and,
# with OLD, OLD's, interleaved (tools/bench-resume-big).
bench-resume-big: build/astray
	tools/bench-resume-big $(OLD)

# The crowd rules side by side (docs/ai.md, "Crowds: priority passing"):
# rules.crowd=detour against pass on the same seeds, paired intervals of
# every behaviour metric and the AI's CPU time, on the corridor, doorway
# and room suites (tests/bench/crowd) and the Moving AI 512x512 maps.
bench-crowd: build/astray
	ASTRAY_MAPS=$(MAPS) tests/bench/crowd-rules.sh build/astray $(CROWD_GAMES) $(CROWD_TURNS) $(CROWD_N)
	tests/bench/crowd-campaign.sh build/astray "" 100
	@for c in $(CONGESTION); do \
		ASTRAY_MAPS=$(MAPS) tests/bench/crowd-rules.sh build/astray $(CROWD_GAMES) $(CROWD_TURNS) $(CROWD_N) \
			goblin.congestion=0 goblin.congestion=$$c || exit 1; done
CROWD_GAMES ?= 6
CROWD_TURNS ?= 80
CROWD_N ?= 1000
# Key presses on a 4096x4096 level with saving on, and the resume of that
# game (tools/bench-keys-big; OLD=path/to/astray compares, KEYS, ROUNDS).
bench-keys-big: build/astray
	tools/bench-keys-big $(OLD)

# Fallback clicks on 4096x4096 levels, with the region labels and without
# (tests/bench/fallback.sh; ROUNDS, and TOPOS, STYLES, SIZE as it says).
bench-fallback: build/astray
	tests/bench/fallback.sh $(or $(ROUNDS),3)

# A 2,000,000-action game (ACTIONS=N) written as play's slot keeps it, in
# segments; its resume and its full replay timed (tools/bench-marathon).
bench-marathon: build/astray build/san/tests/world/test_journal_segments
	tools/bench-marathon

bench: build/astray
	./build/astray bench $(MAPS)/*.scen
	./build/astray bench --topology square4 $(MAPS)/maze512-1-0.map.scen
	./build/astray bench --mode astar --every 4 $(MAPS)/*.scen
	./build/astray bench --mode fallback --every 20 $(MAPS)/*.scen
	for m in square8:1024 square8:4096 hex:4096 diamond8:4096; do ./build/astray gen --topology $${m%:*} --seed 7 --size $${m#*:}x$${m#*:} -o build/bench-$${m%:*}-$${m#*:}.lvl && ./build/astray play build/bench-$${m%:*}-$${m#*:}.lvl --seed 1 --bench-preview 2000 || exit 1; done
	@if [ -n "$(TCOD_LIBS)" ]; then \
		$(MAKE) --no-print-directory build/bench_tcod && \
		./build/bench_tcod $(MAPS)/*.scen; \
	else echo "libtcod-dev not installed: skipping the libtcod comparison"; fi

build/bench_tcod: tests/bench_tcod.c build/obj/libcore.a
	$(CC) $(BASE_CFLAGS) $(INC_core) $(CFLAGS) $(TCOD_CFLAGS) $(LDFLAGS) $^ $(TCOD_LIBS) -lm -o $@

# Jump point search on hex and diamond maps (jps_turned.c) against plain
# A*, interleaved, CPU time (docs/core.md); TURNED_EVERY, TURNED_ROUNDS.
TURNED_EVERY ?= 8
TURNED_ROUNDS ?= 3
bench-turned: build/bench_turned
	for t in hex diamond8 diamond4; do ./build/bench_turned --topology $$t --every $(TURNED_EVERY) --rounds $(TURNED_ROUNDS) $(MAPS)/*.scen || exit 1; done

build/bench_turned: tests/bench_turned.c build/obj/libcore.a
	$(CC) $(BASE_CFLAGS) $(INC_core) $(CFLAGS) $(LDFLAGS) $(filter %.c %.a,$^) -lm -o $@

# A whole relabelling of region.c's labels (tests/bench_region.c), CPU
# time, on generated 4096x4096 levels of each grid (REGION_ROUNDS).
REGION_ROUNDS ?= 9
bench-region: build/bench_region build/astray
	for t in square8 square4 hex diamond8; do f=build/bench-region-$$t.lvl; \
		[ -f $$f ] || ./build/astray gen --topology $$t --seed 7 --size 4096x4096 --style caves -o $$f || exit 1; \
		./build/bench_region --rounds $(REGION_ROUNDS) $$f || exit 1; done

build/bench_region: tests/bench_region.c $(filter build/obj/core/% build/obj/world/model/%,$(OBJ))
	$(CC) $(BASE_CFLAGS) $(INC_model) $(CFLAGS) $(LDFLAGS) $(filter %.c %.o,$^) -lm -pthread -o $@

# One libFuzzer target per parser and decoder, each FUZZ_SECONDS long, in
# turn (the machine is shared).  tests/fuzz-corpus* are their seeds (and
# make test replays them through tests/LAYER/test_fuzz_*.c); new finds go
# to build/fuzz-work/NAME.
FUZZ_CC ?= clang
FUZZERS := level bestiary items map scen set input journal snapshot scores heat settings csv sweep opt
FUZZ_CORPUS_level := tests/fuzz-corpus
FUZZ_MAXLEN_level := 65536
FUZZ_MAXLEN_input := 4096
# The input target's coverage was still rising after 1,200 s, and in 60 s
# libFuzzer's slow growth of lengths kept it under 92 bytes: it gets
# FUZZ_INPUT_FACTOR times FUZZ_SECONDS, and its whole length at once.
FUZZ_INPUT_FACTOR ?= 20
FUZZ_ARGS_input := -len_control=0
FUZZ_SRC_level := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_bestiary := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_items := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_set := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_map := $(CORE_SRC)
FUZZ_SRC_scen := $(CORE_SRC)
# The input target runs the real screens on a curses screen fed by a pipe.
FUZZ_SRC_input := $(CORE_SRC) $(WORLD_SRC) $(UI_SRC)
FUZZ_FLAGS_input := $(CURSES_CFLAGS)
FUZZ_LIBS_input := $(CURSES_LIBS)
FUZZ_SRC_journal := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_snapshot := $(CORE_SRC) $(WORLD_SRC)
FUZZ_SRC_scores := $(CORE_SRC) $(WORLD_SRC)
# The heat target also draws what it parsed, with the command layer's heat_render.c
# (and cli.c, whose escaping the titles go through).
FUZZ_SRC_heat := $(CORE_SRC) $(WORLD_SRC) src/cli/heat_render.c src/cli/cli.c
FUZZ_FLAGS_heat := -Isrc/cli
FUZZ_SRC_settings := $(CORE_SRC) $(WORLD_SRC)
# The per-game CSV target also prints sim-report's report, with sim_write.c.
FUZZ_SRC_csv := $(CORE_SRC) $(WORLD_SRC) src/cli/sim_write.c src/cli/heat_render.c src/cli/cli.c
FUZZ_FLAGS_csv := -Isrc/cli
# The sweep target: --sweep's spec and sim-report's reading of a sweep's shards
# (sim_sweep.c), its report and plot written with the command layer's writers.
FUZZ_SRC_sweep := $(CORE_SRC) $(WORLD_SRC) src/cli/sim_sweep.c src/cli/sim_write.c src/cli/heat_render.c src/cli/cli.c
FUZZ_FLAGS_sweep := -Isrc/cli
# The command-line target: every command's option table (the whole command layer but main.c).
FUZZ_SRC_opt := $(CORE_SRC) $(WORLD_SRC) $(UI_SRC) $(filter-out src/cli/main.c,$(CLI_SRC))
FUZZ_FLAGS_opt := $(CURSES_CFLAGS) -Isrc/cli
FUZZ_LIBS_opt := $(CURSES_LIBS)
fuzz: $(FUZZERS:%=build/fuzz_%)
	@for f in $(FUZZERS); do \
		case $$f in level) corpus=$(FUZZ_CORPUS_level);; *) corpus=tests/fuzz-corpus-$$f;; esac; \
		case $$f in level) max=$(FUZZ_MAXLEN_level);; input) max=$(FUZZ_MAXLEN_input);; *) max=65536;; esac; \
		mkdir -p build/fuzz-work/$$f; \
		case $$f in input) secs=$$(($(FUZZ_SECONDS) * $(FUZZ_INPUT_FACTOR))); args="$(FUZZ_ARGS_input)";; \
			*) secs=$(FUZZ_SECONDS); args=;; esac; \
		echo "== fuzz_$$f for $$secs s"; \
		./build/fuzz_$$f -max_total_time=$$secs -max_len=$$max -timeout=5 $$args \
			-artifact_prefix=build/fuzz-work/$$f- build/fuzz-work/$$f $$corpus || exit 1; \
	done

# Clang (not GCC) counts a positional initializer that leaves trailing
# fields to their zero (sim.c's metric table) as a missing field.
# Each source is compiled once for all the targets, with the coverage
# instrumentation but not libFuzzer's main (fuzzer-no-link), its layer's
# include paths and, in the ui layer, the curses flags, as the build's own
# objects are; a target links its harness to the objects of its sources.
# (Each target used to compile all its sources itself, one at a time:
# about 25 minutes of compiling before the first of fifteen targets ran.)
FUZZ_SAN := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
build/fuzz/ui/%.o: EXTRA_CFLAGS = $(CURSES_CFLAGS)
build/fuzz/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(BASE_CFLAGS) $(INC_$(call layer_of,$@)) $(EXTRA_CFLAGS) $(FUZZ_SAN) \
		-fsanitize=fuzzer-no-link -c $< -o $@

fuzz_obj = $(patsubst src/%.c,build/fuzz/%.o,$(1))

# What the fuzzers' compiler says of every source and fuzz harness, as
# make fuzz compiles them but without the instrumentation (-fsyntax-only,
# a stamp each, again only when the file or a header it includes
# changes): clang warns where gcc does not (an unused static inline
# function, a variable set on one branch alone), and with -Werror that
# stops make fuzz.  make test runs it as checks/clang; without clang the
# check says it is skipped.
FUZZ_HARNESSES := $(sort $(wildcard tests/fuzz_*.c))
CLANG_STAMPS := $(patsubst src/%.c,build/clang/%.ok,$(SRC)) $(FUZZ_HARNESSES:tests/%.c=build/clang/tests/%.ok)
CLANG_FOUND := $(shell command -v $(FUZZ_CC) 2>/dev/null)
clang-check: $(if $(CLANG_FOUND),$(CLANG_STAMPS))
ifneq ($(CLANG_FOUND),)
	@echo "clang-check: $(words $(CLANG_STAMPS)) files and no diagnostic"
else
	@echo "clang-check: $(FUZZ_CC) not found (the compiler of make fuzz)"
	@echo "[  SKIPPED ] 1 test(s)."
endif
build/clang/ui/%.ok: EXTRA_CFLAGS = $(CURSES_CFLAGS)
build/clang/%.ok: src/%.c
	@mkdir -p $(@D)
	@$(FUZZ_CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) -MMD -MP -MT $@ -MF $(@:.ok=.d) \
		$(INC_$(call layer_of,$@)) $(EXTRA_CFLAGS) -fsyntax-only $< && touch $@
build/clang/tests/fuzz_%.ok: tests/fuzz_%.c
	@mkdir -p $(@D)
	@$(FUZZ_CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) -MMD -MP -MT $@ -MF $(@:.ok=.d) \
		$(INC_ui) $(FUZZ_FLAGS_$*) -fsyntax-only $< && touch $@
-include $(CLANG_STAMPS:.ok=.d)
build/fuzz_%: tests/fuzz_%.c $$(call fuzz_obj,$$(FUZZ_SRC_$$*))
	@mkdir -p $(@D)
	$(FUZZ_CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) $(INC_ui) $(FUZZ_FLAGS_$*) $(FUZZ_SAN) \
		-fsanitize=fuzzer $< $(call fuzz_obj,$(FUZZ_SRC_$*)) $(FUZZ_LIBS_$*) -lm -pthread -o $@

# The soak: the sanitizer build (game.c CHECKs its invariants every turn)
# plays every shipped level and tests/levels/**/*.lvl, generated dungeons
# and generated levels of every topology with random actions for
# SOAK_SECONDS, replaying each game's journal to the same state; not part
# of make test.  SOAK_SEED picks another sequence of games.
SOAK_SECONDS ?= 60
SOAK_SEED ?= 20240613
soak: build/san/tests/soak
	ASAN_OPTIONS=$(SAN_OPTIONS) build/san/tests/soak --seed $(SOAK_SEED) $(SOAK_SECONDS) \
		levels/bestiary.txt tests/levels/bestiary.txt \
		levels/*.lvl $$(find tests/levels -name '*.lvl' | sort) tests/bench/crowd/*.lvl

build/san/tests/soak: tests/soak.c build/san/libworld.a build/san/libcore.a
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(INC_world) $(SAN_FLAGS) $(SAN_LDFLAGS) $(LDFLAGS) tests/soak.c build/san/libworld.a build/san/libcore.a -lm -pthread -o $@

# What make install writes, and so exactly what make uninstall removes.
LEVEL_FILES := $(sort $(wildcard levels/*.lvl)) levels/bestiary.txt
INSTALLED := $(DESTDIR)$(BINDIR)/astray $(DESTDIR)$(MANDIR)/man6/astray.6 \
	     $(addprefix $(DESTDIR)$(PKGDATADIR)/levels/,$(notdir $(LEVEL_FILES)))

install: build/astray
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGDATADIR)/levels $(DESTDIR)$(MANDIR)/man6
	install -m 755 build/astray $(DESTDIR)$(BINDIR)/astray
	install -m 644 $(LEVEL_FILES) $(DESTDIR)$(PKGDATADIR)/levels/
	install -m 644 docs/astray.6 $(DESTDIR)$(MANDIR)/man6/astray.6

# Removes the files install wrote, then astray's own folders if empty;
# never a whole folder named by a variable.
uninstall:
	rm -f $(INSTALLED)
	-rmdir $(DESTDIR)$(PKGDATADIR)/levels $(DESTDIR)$(PKGDATADIR) 2>/dev/null || true

# A source tarball of the committed tree: it builds and tests on its own
# (without .git, warnings are not errors there).
VERSION := $(shell sed -n 's/^#define ASTRAY_VERSION "\(.*\)"/\1/p' src/cli/*.h 2>/dev/null | head -n 1)
dist:
	@mkdir -p build
	git archive --format=tar.gz --prefix=astray-$(VERSION)/ -o build/astray-$(VERSION).tar.gz HEAD
	@echo "build/astray-$(VERSION).tar.gz"

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
