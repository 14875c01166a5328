#!/usr/bin/env drgn
# SPDX-License-Identifier: GPL-2.0

desc = """
This is a drgn script to print the latency and run-time histograms that
workqueues keep (kernels with WQ_HAS_HISTOGRAMS; the same figures as
/sys/kernel/debug/workqueue/histograms), from a live kernel or a dump.
For more info on drgn, visit https://github.com/osandov/drgn.

  queued   From queueing to activation: the time an item waited behind
           max_active (0 for items activated when queued).

  waiting  From activation to start: the time an active item waited for a
           worker to take it.

  running  Run time of the work function, wall clock.

  cpu      Run time of the work function on the CPU (not for WQ_BH items).

  flush    The time flush_work(), cancel_work_sync() and flush_workqueue()
           callers waited.

The first four come from sampled items, each counting for the items queued
since the sample before it, so that they estimate every item; flush waits
are all counted.  Buckets are log2 microseconds.  The slowest starts
(queued -> started) and longest runs name the work functions.
"""

import argparse
import json
import re

import drgn
from drgn.helpers.linux.list import list_for_each_entry

parser = argparse.ArgumentParser(description=desc,
                                 formatter_class=argparse.RawTextHelpFormatter)
parser.add_argument('workqueue', metavar='REGEX', nargs='*',
                    help='Target workqueue name patterns (all if empty)')
parser.add_argument('-k', '--kind', action='append',
                    choices=['queued', 'waiting', 'running', 'cpu', 'flush'],
                    help='Histograms to print (all if not given)')
parser.add_argument('-t', '--top', action='store_true',
                    help='Only the slowest starts and the longest runs')
parser.add_argument('-j', '--json', action='store_true',
                    help='Output in json')
args = parser.parse_args()

workqueues = prog['workqueues']
KINDS = ['queued', 'waiting', 'running', 'cpu', 'flush']
KIND_VALUE = {k: int(prog['WQ_HIST_' + k.upper()]) for k in KINDS}
TITLES = {
    'queued': 'queued -> active (behind max_active)',
    'waiting': 'active -> started (waiting for a worker)',
    'running': 'run time, wall clock',
    'cpu': 'run time, on the CPU',
    'flush': 'flushers waiting',
}
BAR = 40


def module_of(addr):
    """The loaded module whose text holds ADDR, or None."""
    for mod in list_for_each_entry('struct module',
                                   prog['modules'].address_of_(), 'list'):
        text = mod.mem[int(prog['MOD_TEXT'])]
        if int(text.base) <= addr < int(text.base) + int(text.size):
            return mod
    return None


def module_symbol(mod, addr):
    """The name of the function of MOD starting at ADDR, from the module's
    own symbol table (a dump has no debug info of modules)."""
    ks = mod.kallsyms
    for i in range(int(ks.num_symtab)):
        sym = ks.symtab[i]
        if int(sym.st_value) == addr:
            return (ks.strtab + int(sym.st_name)).string_().decode()
    return None


def func_name(addr):
    """As the debugfs file prints it (%ps): "name", "name [module]", or
    "(unloaded)" once the text is gone; an address only where a module's
    symbol table has no function there."""
    mod = module_of(addr)
    try:
        name = prog.symbol(addr).name
    except LookupError:
        name = module_symbol(mod, addr) if mod else None
    if name is None:
        return '(unloaded)' if not mod else hex(addr)
    return f'{name} [{mod.name.string_().decode()}]' if mod else name


class WqHist:
    def __init__(self, wq):
        self.name = wq.name.string_().decode()
        h = wq.hist
        nbuckets = len(h.flush)
        self.counts = {k: [0] * nbuckets for k in KINDS}
        self.samples = 0
        # what released pwqs left, once one has been released
        blocks = [h.retired[0]] if h.retired else []
        for pwq in list_for_each_entry('struct pool_workqueue',
                                       wq.pwqs.address_of_(), 'pwqs_node'):
            if pwq.hist:
                blocks.append(pwq.hist[0])
        for blk in blocks:
            self.samples += int(blk.samples)
            for k in KINDS:
                if k == 'flush':
                    continue
                row = blk.count[KIND_VALUE[k]]
                for b in range(nbuckets):
                    self.counts[k][b] += int(row[b])
        for b in range(nbuckets):
            self.counts['flush'][b] = int(h.flush[b].counter)
        self.slowest = self.top(h.slowest_start)
        self.longest = self.top(h.longest_run)

    @staticmethod
    def top(entries):
        return [(func_name(int(e.func)), int(e.ns) // 1000)
                for e in entries if int(e.func)]

    def dict(self):
        return {'workqueue': self.name, 'samples': self.samples,
                'histograms_us': {k: [[low_us(b), c]
                                      for b, c in enumerate(self.counts[k]) if c]
                                  for k in KINDS},
                'slowest_start_us': self.slowest, 'longest_run_us': self.longest}


def low_us(b):
    return 1 << (b - 1) if b else 0


def print_hist(title, counts):
    used = [b for b, c in enumerate(counts) if c]
    if not used:
        return
    top = max(counts)
    print(f'  {title}')
    print(f'  {"usecs":>10} -> {"":10} : {"count":12} distribution')
    for b in range(used[0], used[-1] + 1):
        high = '' if b == len(counts) - 1 else str((1 << b) - 1)
        bar = '*' * (counts[b] * BAR // top)
        print(f'  {low_us(b):>10} -> {high:10} : {counts[b]:<12} |{bar:{BAR}}|')


def print_top(title, entries):
    if entries:
        print(f'  {title}')
        for name, us in entries:
            print(f'  {us:>12} us  {name}')


def main():
    patterns = [re.compile(p) for p in args.workqueue]
    kinds = args.kind or KINDS
    out = []
    for wq in list_for_each_entry('struct workqueue_struct',
                                  workqueues.address_of_(), 'list'):
        name = wq.name.string_().decode()
        if patterns and not any(p.search(name) for p in patterns):
            continue
        if not wq.hist:
            continue
        out.append(WqHist(wq))
    if args.json:
        print(json.dumps([h.dict() for h in out]))
        return
    for h in out:
        print(f'workqueue {h.name}: {h.samples} samples')
        if not args.top:
            for k in kinds:
                print_hist(TITLES[k], h.counts[k])
        print_top('slowest starts (queued -> started)', h.slowest)
        print_top('longest runs (wall clock)', h.longest)


main()
