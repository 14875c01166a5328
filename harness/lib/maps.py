#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check what the rework's sources promise about themselves (make check).

  maps.py [FILE...]   the checks below over FILEs (default: the rework's
                      and the test layer's C files and headers)

- Maps: a file with a "Map of this file:" list has one section heading
  ("/* N. title */") per entry, numbered in the same order, and each
  heading's title, up to its first colon or comma, starts the entry.
- Legend: every field documented in a struct's kernel-doc in the headers
  of the implementation names its protection with a letter of the locking
  legend ("(P)", "(A; P to read)", ...).
- Asserts: every function whose name ends in _locked asserts the lock its
  caller holds (a wq_assert_X() or lockdep_assert*() in its first lines).

Prints one line per finding and "maps: N findings"; exits 1 on any.
"""
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the KUnit suite: every file of its folder, one per suite
KUNIT_FILES = sorted(os.path.relpath(p, TOP) for p in
                     glob.glob(os.path.join(TOP, 'kernel/workqueue_kunit/*.[ch]')))
FILES = ['kernel/workqueue.c', 'kernel/workqueue_lifecycle.c', 'kernel/workqueue_pwq.c',
         'kernel/workqueue_unbound.c', 'kernel/workqueue_show.c',
         'kernel/workqueue_sysfs.c', 'kernel/workqueue_hist.c',
         'kernel/workqueue_impl.h', 'kernel/workqueue_internal.h',
         *KUNIT_FILES, 'kernel/workqueue_torture.c',
         'lib/test_workqueue.c']
LEGEND_FILES = ['kernel/workqueue_impl.h', 'kernel/workqueue_internal.h']

MAP_START = re.compile(r'Map of this file')
MAP_ITEM = re.compile(r'(?:^|\s)(\d+)\.\s+(\S.*?)(?=\s{2,}\d+\.\s|$)')
HEADING = re.compile(r'^(?:/\*| \*) (\d+)\. (.*?)\s*(?:\*/)?\s*$')
FIELD = re.compile(r'^ \* @(\w+):')
# the letters of the legend: " *  P  pool->lock ..." lines of its header
LEGEND_LINE = re.compile(r'^ \*  ([A-Z])  \S', re.M)
LOCKED_DEF = re.compile(r'^\S.*\b(\w+_locked)\(')
ASSERT = re.compile(r'\b(wq_assert_\w+|lockdep_assert\w*)\(')


def map_entries(lines):
    """(number, title) of the map at the top of a file, or None."""
    for i, line in enumerate(lines):
        if MAP_START.search(line):
            break
    else:
        return None
    entries = []
    for line in lines[i + 1:]:
        text = line.lstrip(' *').rstrip()
        if not text or line.strip() in ('*/', '*'):
            break
        found = MAP_ITEM.findall(' ' + text)
        if found:
            entries += [(int(n), t.strip()) for n, t in found]
        elif entries:	# a wrapped entry: its continuation
            n, t = entries[-1]
            entries[-1] = (n, t + ' ' + text)
    return entries


def headings(lines, start):
    """(number, title) of the section headings after line START."""
    out = []
    for line in lines[start:]:
        m = HEADING.match(line)
        if m and not line.startswith(' *   '):
            out.append((int(m.group(1)), m.group(2).strip()))
    return out


def check_map(path, lines):
    entries = map_entries(lines)
    if entries is None:
        return []
    end = next(i for i, l in enumerate(lines) if MAP_START.search(l))
    end += len(entries) + 2
    heads = headings(lines, end)
    bad = []
    if [n for n, _ in entries] != [n for n, _ in heads]:
        bad.append(f'{path}: map numbers {[n for n, _ in entries]} '
                   f'against headings {[n for n, _ in heads]}')
    for (n, entry), (_, head) in zip(entries, heads):
        key = re.split(r'[:,]', head)[0].strip().lower()
        if not entry.lower().startswith(key):
            bad.append(f'{path}: section {n}: heading "{head}", map "{entry}"')
    return bad


def field_docs(lines):
    """(line number, field, its documentation) of struct kernel-docs."""
    out, cur = [], None
    in_struct = False
    for i, line in enumerate(lines):
        if line.startswith('/**'):
            in_struct = False
        elif re.match(r'^ \* struct \w+ - ', line):
            in_struct = True
        if not in_struct:
            continue
        m = FIELD.match(line)
        if m:
            cur = [i + 1, m.group(1), line]
            out.append(cur)
        elif cur and line.startswith(' *\t'):
            cur[2] += ' ' + line.strip()
        elif line.strip() in ('*/', '*') or line.startswith(' * '):
            cur = None
    return out


def legend_letters():
    """The letters the locking legend of workqueue_impl.h defines."""
    with open(os.path.join(TOP, 'kernel/workqueue_impl.h')) as f:
        return ''.join(LEGEND_LINE.findall(f.read()))


def check_legend(path, lines):
    letter = re.compile(r'\(([' + legend_letters() + r'])(?:\)|[ ;,:])')
    return [f'{path}:{n}: @{name} names no lock letter of the legend'
            for n, name, doc in field_docs(lines) if not letter.search(doc)]


def check_locked(path, lines):
    bad = []
    for i, line in enumerate(lines):
        m = LOCKED_DEF.match(line)
        if not m or line.rstrip().endswith(';') or line.startswith('#'):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith('{'):
            if lines[j].rstrip().endswith(';'):
                break
            j += 1
        if j >= len(lines) or not lines[j].startswith('{'):
            continue	# a declaration
        body = lines[j + 1:j + 16]
        end = next((k for k, l in enumerate(body) if l.startswith('}')), len(body))
        if not any(ASSERT.search(l) for l in body[:end]):
            bad.append(f'{path}:{i + 1}: {m.group(1)}() does not assert its lock')
    return bad


def main(argv):
    files = argv[1:] or FILES
    findings = []
    for rel in files:
        path = os.path.join(TOP, rel)
        with open(path) as f:
            lines = f.read().split('\n')
        findings += check_map(rel, lines)
        findings += check_locked(rel, lines)
        if rel in LEGEND_FILES:
            findings += check_legend(rel, lines)
    for line in findings:
        print(line)
    print(f'maps: {len(findings)} findings')
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
