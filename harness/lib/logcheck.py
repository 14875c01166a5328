#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find what makes a guest log a failure: any WARN, BUG, oops, lockdep or
debugobjects report, KASAN/UBSAN report, hung task, soft lockup, RCU stall,
workqueue stall, or stack dump.

  logcheck.py LOG...   print the findings; exit 1 if there are any
"""
import re
import sys

PATTERNS = [
    r'WARNING:', r'BUG:', r'Oops', r'Kernel panic', r'kernel BUG at',
    r'general protection fault', r'Call Trace:', r'cut here',
    r'INFO: task .* blocked for more than', r'detected stalls?',
    r'soft lockup', r'hard LOCKUP', r'workqueue lockup',
    r'ODEBUG:', r'KASAN:', r'UBSAN:', r'KFENCE:',
    r'list_(add|del) corruption', r'refcount_t:',
    r'possible (recursive|circular) locking', r'inconsistent lock state',
    r'sleeping function called from invalid context',
    r'scheduling while atomic', r'harness: guest timed out',
]
FAIL = re.compile('|'.join(f'(?:{p})' for p in PATTERNS))
# A test that provokes a report on purpose prints "expected WHAT begins"
# and "expected WHAT ends" around it; between them the lines of that
# report are expected, and every other finding still counts.  A stack
# dump (sysfs reporting a duplicate name, say) lets a "Call Trace:"
# through; a workqueue lockup (the watchdog's report of a pool a case
# holds up) its report line and the stacks of the pool's workers; a
# warning (a WARN_ON() a case provokes to see that it is there, or
# flush_scheduled_work()'s notice) the lines of one WARN splat or stack
# dump; a leak report (an item that returns holding a lock, on purpose)
# the report's line and its stack dump.
EXPECTED = {
    'stack dump': re.compile(r'Call Trace:'),
    'workqueue lockup': re.compile(r'Call Trace:|BUG: workqueue lockup - pool'),
    'leak report': re.compile(r'Call Trace:|'
                              r'BUG: workqueue leaked atomic, lock or RCU: '),
    'warning': re.compile(r'Call Trace:|-+\[ cut here \]-+$|'
                          r'WARNING: CPU: \d+ PID: \d+ at |'
                          r'WARNING: Flushing system-wide workqueues '),
}
MARKER = re.compile(r'expected (%s) (begins|ends)' % '|'.join(EXPECTED))


def findings(text):
    """The lines of TEXT that make the log a failure."""
    bad = []
    expected = None
    for line in text.splitlines():
        m = MARKER.search(line)
        if m:
            expected = EXPECTED[m.group(1)] if m.group(2) == 'begins' else None
        elif FAIL.search(line) and not (expected and expected.search(line)):
            bad.append(line.rstrip())
    return bad


def main(paths):
    bad = 0
    for path in paths:
        with open(path, errors='replace') as f:
            lines = findings(f.read())
        for line in lines:
            print(f'{path}: {line}')
        bad += len(lines)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
