/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A shadow of <linux/lockdep.h> for configs/lockstat-lean.config: the
 * kernel's own header, then lockdep_assert() and lockdep_assert_once()
 * (and with them every lockdep_assert_held*() and lockdep_assert_none_
 * held_once()) as a kernel without lockdep has them: no code, the
 * condition still compiled, never run.  Lockdep keeps its lock statistics.
 *
 * The build puts this file in the build directory's
 * arch/x86/include/generated/linux/, which the compiler searches before
 * the source tree's include/ (harness/lib/common.sh, configure).
 */
#include_next <linux/lockdep.h>

#undef lockdep_assert
#undef lockdep_assert_once
#define lockdep_assert(cond)		do { if (0) (void)(cond); } while (0)
#define lockdep_assert_once(cond)	do { if (0) (void)(cond); } while (0)
