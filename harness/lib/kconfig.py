#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Resolve, merge and check the Kconfig fragments in configs/.

A fragment may start with a line "# include: a b" naming fragments it builds
on; they are merged first, in order, and later assignments win.  A line
"# base: target..." names the kernel's own configuration targets to start
from (e.g. defconfig kvm_guest.config) instead of allnoconfig.  A line "# guest-tools:
prog..." names host programs the guest of that configuration needs in its
initramfs (harness/lib/initramfs.sh copies them with their libraries).  A
line "# shadow: linux/x.h..." names headers of configs/shadow/ that the
build puts in front of the kernel's own (configure in common.sh).

  kconfig.py merge NAME            print the merged fragment
  kconfig.py base NAME             print the base targets (none: allnoconfig)
  kconfig.py tools NAME            print the guest tools of NAME and its includes
  kconfig.py shadow NAME           print the shadow headers of NAME and its includes
  kconfig.py check NAME DOTCONFIG  fail if .config misses any assignment
"""
import os
import re
import sys

CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'configs')
ASSIGN = re.compile(r'^(CONFIG_\w+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_\w+) is not set$')


def parse_line(line):
    """Return (symbol, value) for an assignment line, value 'n' when unset."""
    m = ASSIGN.match(line)
    if m:
        return m.group(1), m.group(2)
    m = UNSET.match(line)
    if m:
        return m.group(1), 'n'
    return None


def fragment_order(name, seen=None):
    """Fragment names in merge order: includes (depth first), then NAME."""
    seen = [] if seen is None else seen
    path = os.path.join(CONFIGS, name + '.config')
    if not os.path.exists(path):
        sys.exit(f'kconfig: no fragment configs/{name}.config')
    with open(path) as f:
        for line in f:
            if line.startswith('# include:'):
                for inc in line.split(':', 1)[1].split():
                    if inc not in seen:
                        fragment_order(inc, seen)
    if name not in seen:
        seen.append(name)
    return seen


def merged(name):
    """Symbol -> value for fragment NAME with its includes."""
    values = {}
    for frag in fragment_order(name):
        with open(os.path.join(CONFIGS, frag + '.config')) as f:
            for line in f:
                kv = parse_line(line.strip())
                if kv:
                    values.pop(kv[0], None)
                    values[kv[0]] = kv[1]
    return values


def headers(name, key):
    """The words of every "# KEY:" line of fragment NAME and of what it
    includes, one list per line, in merge order."""
    out = []
    for frag in fragment_order(name):
        with open(os.path.join(CONFIGS, frag + '.config')) as f:
            out += [line.split(':', 1)[1].split() for line in f
                    if line.startswith(f'# {key}:')]
    return out


def base_targets(name):
    """The "# base:" targets of fragment NAME or of what it includes (the
    last such line wins)."""
    lines = headers(name, 'base')
    return lines[-1] if lines else []


def words_of(name, key):
    """The words of the "# KEY:" lines of fragment NAME and what it
    includes, each once, in merge order."""
    out = []
    for words in headers(name, key):
        out += [w for w in words if w not in out]
    return out


# The commands that print the words of a header line: command -> key.
WORD_KEYS = {'tools': 'guest-tools', 'shadow': 'shadow'}


def format_assignment(sym, val):
    return f'# {sym} is not set' if val == 'n' else f'{sym}={val}'


def check(name, dotconfig):
    want = merged(name)
    have = {}
    with open(dotconfig) as f:
        for line in f:
            kv = parse_line(line.strip())
            if kv:
                have[kv[0]] = kv[1]
    bad = [(s, v, have.get(s, 'n')) for s, v in want.items()
           if have.get(s, 'n') != v]
    for sym, val, got in bad:
        print(f'kconfig: {name}: {sym} wanted {val}, .config has {got} '
              '(unmet dependency or unknown symbol)', file=sys.stderr)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] == 'merge':
        for sym, val in merged(argv[2]).items():
            print(format_assignment(sym, val))
        return 0
    if len(argv) == 3 and argv[1] == 'base':
        print(' '.join(base_targets(argv[2])))
        return 0
    if len(argv) == 3 and argv[1] in WORD_KEYS:
        print(' '.join(words_of(argv[2], WORD_KEYS[argv[1]])))
        return 0
    if len(argv) == 4 and argv[1] == 'check':
        return check(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
