# SPDX-License-Identifier: GPL-2.0
# Workqueue rework on Linux 6.12: see README.md; `make help` lists the
# targets and variables (the "##" lines below).

## Variables:
## WQ=rework           the kernel: stock (6.12), stock-fixed (6.12 plus the
##                     stable series of patches/stable/) or rework
## CONFIG=debug        the build of make build/run/profile: a configs/ name
##                     (debug, up, rt, kasan, perf, ...)
## TORTURE_SECS=600    make torture: seconds in each configuration
## TORTURE_CONFIGS=... make torture: debug kasan kcsan kmemleak rt
## A=stock B=rework    make bench: the two kernels; also ROUNDS, CLOCK
##                     (icount|mttcg), BENCH (quick|full), SCENARIOS,
##                     A_APPEND, B_APPEND, SEED, B_SEED, BENCH_OUT,
##                     SCALE_SHAPES, SCALE_ROUNDS
##                     (harness/bench.py says what each does)
## OLD=dir NEW=dir     make bench-compare: the two reports
## CMD=... ON= OFF=    make run/profile: what the guest runs
## WQDUMP='boot ...'   make wqdump: the scenarios
## ACCEL=kvm|tcg       guests without a bench clock: KVM where usable
## SHAPE=4x2n          the guests' shape: 4x2n, 4x1llc, 16x1llc, 16x2n,
##                     64x1llc, 64x8n-smt;
##                     or VCPUS=, SOCKETS= (LLCs), NODES=, THREADS=
WQ ?= rework
CONFIG ?= debug
H := harness
export A B ROUNDS CLOCK BENCH SCENARIOS A_APPEND B_APPEND SCALE_SHAPES SCALE_ROUNDS
TORTURE_SECS ?= 600
TORTURE_CONFIGS ?= debug kasan kcsan kmemleak rt
NEW ?= out/bench

.PHONY: help test test-all test-kvmguest torture build run profile patches check model bench bench-compare contention wqdump clean distclean

## Targets:
## help                this list
help:
	@sed -n 's/^## \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

## test                build WQ (debug config), run KUnit, selftests, a
##                     short torture; last line "N passed, N failed, ..."
test:
	$(H)/test.sh $(WQ) debug

## test-all            the same in debug, up, rt, kasan and rcutorture
test-all:
	$(H)/test.sh $(WQ) debug up rt kasan rcutorture

## test-kvmguest       x86_64 defconfig + kvm_guest.config: build, boot, selftests
test-kvmguest:
	$(H)/test.sh $(WQ) kvmguest

## torture             the torture test alone, TORTURE_SECS in each of
##                     TORTURE_CONFIGS (out/torture/)
torture:
	$(H)/test.sh --torture $(TORTURE_SECS) $(WQ) $(TORTURE_CONFIGS)

## build               build WQ in CONFIG
build:
	$(H)/prepare.sh $(WQ) $(CONFIG)

## run                 boot WQ in CONFIG; run CMD, or give a shell
run: build
	$(H)/python.sh $(H)/lib/guest.py run $(WQ) $(CONFIG) $(CMD)

## profile             instructions per kernel function of CMD, from ON to OFF
profile: build
	$(H)/python.sh $(H)/profile.py $(WQ) $(CONFIG) "$(CMD)" $(ON) $(OFF)

## patches             the overlay as a git format-patch series (out/patches/)
##                     and the stable series (out/patches-stable/)
patches:
	$(H)/patches.sh

## check               checkpatch, kernel-doc, W=1, maps and legend, calls
##                     down the floors, each patch built on its own, the
##                     models, the docs
check:
	$(H)/check.sh

## model               the Promela models of tools/workqueue/model/ (Spin)
model:
	$(H)/deps.sh
	$(H)/python.sh tools/workqueue/model/check.py

## bench               A and B booted alternately under -icount
##                     (out/bench/report.md)
bench:
	$(H)/bench.sh

## bench-compare       side B of NEW against OLD's: what moved the wrong
##                     way by more than 2% (NEW/compare.md)
bench-compare:
	$(H)/python.sh $(H)/bench.py compare $(OLD) $(NEW)

## contention          the pool-lock contention model (docs/contention.md)
##                     on NEW's scale rows
contention:
	$(H)/python.sh $(H)/contention.py --summary $(NEW)

## wqdump              tools/workqueue's drgn scripts on stock and rework
##                     dumps, compared
wqdump:
	$(H)/wqdump.sh $(WQDUMP)

## clean               build trees and results (keeps downloads and ccache)
clean:
	rm -rf out build/stock build/stock-fixed build/rework build/series \
		build/stable-series

## distclean           everything built or downloaded
distclean:
	rm -rf out build
