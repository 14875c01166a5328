# SPDX-License-Identifier: GPL-2.0
"""The insnprof QEMU plugin (insnprof.c) from Python: build it, name its
addresses from a kernel's System.map, and read the entries it logged.
Used by harness/profile.py (a profile of one boot) and harness/bench.py
(the init scenario: the instructions of the workqueue's boot steps)."""
import os
import subprocess

from guest import BUILD

HERE = os.path.dirname(os.path.abspath(__file__))


def build_plugin():
    """The plugin's shared object, built on first use (and after a change)."""
    src = os.path.join(HERE, 'insnprof.c')
    so = os.path.join(BUILD, 'insnprof.so')
    if not os.path.exists(so) or os.path.getmtime(so) < os.path.getmtime(src):
        subprocess.run(['cc', '-O2', '-Wall', '-shared', '-fPIC',
                        '-fvisibility=hidden', '-o', so, src], check=True)
    return so


def load_symbols(system_map):
    """{name: address} and the sorted (address, name) of text symbols."""
    addrs, text = {}, []
    with open(system_map) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            addrs[name] = int(addr, 16)
            if kind in 'tTwW':
                text.append((int(addr, 16), name))
    text.sort()
    return addrs, text


def trace_arg(addrs, names):
    """The plugin's trace= argument: log each entry into NAMES."""
    return 'trace=' + '+'.join(f'{addrs[n]:x}' for n in names)


def first_entries(counts_path, addrs, names):
    """{name: instructions counted (every vCPU's) at its first entry} for
    the traced NAMES the plugin saw entered."""
    by_addr = {addrs[n]: n for n in names}
    out = {}
    with open(counts_path) as f:
        for line in f:
            if not line.startswith('event '):
                continue
            _, when, _, vaddr = line.split()
            name = by_addr.get(int(vaddr, 16))
            if name and name not in out:
                out[name] = int(when)
    return out
