#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the guest's instructions go: an exact instruction profile.

  profile.py WQ CONFIG CMD [ON_SYMBOL OFF_SYMBOL]

Boots build/WQ/obj-CONFIG under -icount with CMD as the guest command and
the insnprof plugin (harness/lib/insnprof.c, built on first use), which counts
the instructions every vCPU executes from each entry into ON_SYMBOL to the
next entry into OFF_SYMBOL (the whole run without them; WINDOWS=n: only
the first n such windows).  TRACE='sym ...' also lists each entry into
those functions, with the instruction count at which it happened;
DETAIL=sym lists the blocks of one function with their executions.
APPEND: kernel arguments; SEED: the guest's wall clock at power-on, as
make bench gives its boots (machine.rtc_args()).  The plugin changes no
guest instruction, but with it loaded host timing reaches the guest
again: a profiled boot neither replays the bench boot of its seed nor
repeats itself (docs/bench.md, "Profiling").  Under -icount an
instruction is the guest's unit of time, so the table, per kernel
function (instructions, and entries: executions of its first block), says
where the benchmark's time goes.  TOP_N=n rows (40).
"""
import bisect
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
# pylint: disable=wrong-import-position
from guest import OUT, TOP, boot_quiet, objdir  # noqa: E402
from insnprof import build_plugin, load_symbols, trace_arg  # noqa: E402
import machine  # noqa: E402

def per_function(counts_path, text):
    """Instructions and entries per function from the plugin's block
    counts, and the instructions of each window."""
    starts = [a for a, _ in text]
    hist = collections.Counter()
    calls = collections.Counter()
    windows, events, blocks = [], [], []
    with open(counts_path) as f:
        for line in f:
            if line.startswith(('window ', 'vcpu')):
                windows.append(line.strip())
                continue
            if line.startswith('event '):
                _, when, vcpu, vaddr = line.split()
                events.append((int(when), int(vcpu), int(vaddr, 16)))
                continue
            vaddr, insns, execs = line.split()
            vaddr = int(vaddr, 16)
            i = bisect.bisect_right(starts, vaddr) - 1
            name = text[i][1] if i >= 0 and vaddr >= 1 << 63 else '(user)'
            hist[name] += int(insns) * int(execs)
            if name == os.environ.get('DETAIL'):
                blocks.append((vaddr - starts[i], int(insns), int(execs)))
            if i >= 0 and vaddr == starts[i]:
                calls[name] += int(execs)
    return hist, calls, windows, events, sorted(blocks)


def main(argv):
    if len(argv) not in (4, 6):
        print(__doc__, file=sys.stderr)
        return 2
    wq, cfg, cmd = argv[1:4]
    obj = objdir(wq, cfg)
    addrs, text = load_symbols(os.path.join(obj, 'System.map'))
    plugin = f'{build_plugin()},out='
    with tempfile.TemporaryDirectory() as tmp:
        counts = os.path.join(tmp, 'counts')
        plugin += counts
        if len(argv) == 6:
            plugin += f',on={addrs[argv[4]]:x},off={addrs[argv[5]]:x}'
            if os.environ.get('WINDOWS'):
                plugin += f',windows={int(os.environ["WINDOWS"])}'
        traced = os.environ.get('TRACE', '').split()
        if traced:
            plugin += ',' + trace_arg(addrs, traced)
        log = os.path.join(OUT, 'run', f'profile-{wq}-{cfg}.log')
        os.makedirs(os.path.dirname(log), exist_ok=True)
        extra = ['-plugin', plugin]
        if os.environ.get('SEED'):
            extra += machine.rtc_args(int(os.environ['SEED']))
        _, finished, _ = boot_quiet(os.path.join(obj, 'arch/x86/boot/bzImage'),
                                    os.path.join(obj, 'initramfs.cpio'), cmd, log,
                                    append=os.environ.get('APPEND', ''),
                                    clock='icount', extra=extra)
        if not finished:
            print(f'guest did not finish; see {log}', file=sys.stderr)
            return 1
        hist, calls, windows, events, blocks = per_function(counts, text)
    for off, insns, execs in blocks:
        print(f'block {os.environ["DETAIL"]}+{off:#x}: {insns} instructions x {execs}')
    names = {addrs[t]: t for t in traced}
    for when, vcpu, vaddr in events:
        print(f'event {when:12d} cpu{vcpu} {names.get(vaddr, hex(vaddr))}')
    total = max(sum(hist.values()), 1)
    print(f'{total} instructions; console: {os.path.relpath(log, TOP)}')
    if windows:
        print('; '.join(windows))
    print('  share  instructions      entries function')
    for name, n in hist.most_common(int(os.environ.get('TOP_N', '40'))):
        print(f'{100.0 * n / total:6.2f}% {n:12d} {calls[name]:12d} {name}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
