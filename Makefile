# SPDX-License-Identifier: GPL-2.0
# Workqueue rework on Linux 6.12: see README.md.
#
#   make test        build the rework (debug config) and run every test
#   make bench       stock and rework side by side (out/bench/report.md)
#   make torture     the workqueue torture test, TORTURE_SECS in each of
#                    TORTURE_CONFIGS (out/torture/)
#   make model       the Promela models of tools/workqueue/model/, checked
#                    with Spin (make check runs them too)
#
# WQ=stock|stock-fixed|rework picks the tree (stock-fixed: stock 6.12 plus the
# stable series of patches/stable/), CONFIG=debug|up|rt|kasan|perf the build.

WQ ?= rework
CONFIG ?= debug
H := harness
# Benchmark settings (harness/bench.py): A, B, ROUNDS, CLOCK, BENCH, SCENARIOS,
# A_APPEND, B_APPEND.
export A B ROUNDS CLOCK BENCH SCENARIOS A_APPEND B_APPEND
TORTURE_SECS ?= 600
TORTURE_CONFIGS ?= debug kasan kcsan kmemleak rt

.PHONY: test test-all test-kvmguest torture build run profile patches check model bench bench-compare wqdump clean distclean

test:
	$(H)/test.sh $(WQ) debug

test-all:
	$(H)/test.sh $(WQ) debug up rt kasan rcutorture

test-kvmguest:
	$(H)/test.sh $(WQ) kvmguest

torture:
	$(H)/test.sh --torture $(TORTURE_SECS) $(WQ) $(TORTURE_CONFIGS)

build:
	$(H)/prepare.sh $(WQ) $(CONFIG)

run: build
	$(H)/python.sh $(H)/guest.py run $(WQ) $(CONFIG) $(CMD)

# Instructions per kernel function of CMD, from ON to OFF (symbols).
profile: build
	$(H)/python.sh $(H)/profile.py $(WQ) $(CONFIG) "$(CMD)" $(ON) $(OFF)

patches:
	$(H)/patches.sh

check:
	$(H)/check.sh

# Promela models of the workqueue's protocols, checked exhaustively with
# Spin, and the bugs put back into them found (tools/workqueue/model/).
model:
	$(H)/deps.sh
	$(H)/python.sh tools/workqueue/model/check.py

bench:
	$(H)/bench.sh

# Side B of the report in NEW (default out/bench) against the one in OLD:
# what moved the wrong way by more than 2% (NEW/compare.md).
NEW ?= out/bench
bench-compare:
	$(H)/python.sh $(H)/bench.py compare $(OLD) $(NEW)

# tools/workqueue/'s drgn scripts on stock and rework dumps, compared;
# WQDUMP names the scenarios (harness/wqdump.py).
wqdump:
	$(H)/wqdump.sh $(WQDUMP)

clean:
	rm -rf out build/stock build/stock-fixed build/rework build/wip build/series \
		build/stable-series

distclean:
	rm -rf out build
