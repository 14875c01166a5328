# SPDX-License-Identifier: GPL-2.0
"""The guest machine every harness boot uses: x86_64 under QEMU TCG.

4 vCPUs in 2 sockets, one NUMA node per socket (so LLC and node agree and
the scheduler topology is sane), 1 GiB split evenly between the nodes.
"""
import datetime
import os

CPUS = 4
NODES = 2
MEM_MB = 1024


def numa_args(cpus=CPUS, nodes=NODES, mem_mb=MEM_MB):
    """QEMU arguments for the CPU and NUMA topology."""
    per_node = cpus // nodes
    args = ['-smp', f'{cpus},sockets={nodes},cores={per_node},threads=1']
    for n in range(nodes):
        args += ['-object', f'memory-backend-ram,id=m{n},size={mem_mb // nodes}M',
                 '-numa', f'node,nodeid={n},cpus={n * per_node}-{(n + 1) * per_node - 1},memdev=m{n}']
    return args


def clock_args(clock):
    """QEMU arguments for the clock: 'icount' (instruction-counted virtual
    time, single-threaded TCG, repeatable) or 'mttcg' (one host thread per
    vCPU, real parallelism)."""
    if clock == 'icount':
        return ['-accel', 'tcg,thread=single', '-icount', 'shift=0,sleep=off']
    if clock == 'mttcg':
        return ['-accel', 'tcg,thread=multi']
    raise ValueError(f'unknown clock {clock!r} (icount or mttcg)')


# Where a boot's wall clock starts, in seconds after this, is its seed.
RTC_EPOCH = datetime.datetime(2026, 1, 1)


def rtc_args(seed):
    """QEMU arguments that start the guest's wall clock SEED seconds after
    RTC_EPOCH and advance it with the virtual clock.

    The host's time of day is the main input that differs between boots
    under -icount with sleep=off: the kernel mixes the RTC into its random
    pool, and from there into KASLR, hash seeds and every random choice.
    With it fixed, most of a boot repeats instruction for instruction
    (README, "Seeds"); another seed gives another run of the same
    kernel."""
    base = RTC_EPOCH + datetime.timedelta(seconds=seed)
    return ['-rtc', f'base={base:%Y-%m-%dT%H:%M:%S},clock=vm']


def qemu_args(clock=None, cpus=CPUS, nodes=NODES, mem_mb=MEM_MB):
    """Machine arguments shared by kunit.py runs and our own boots."""
    args = numa_args(cpus, nodes, mem_mb)
    if clock or os.environ.get('CLOCK'):
        args += clock_args(clock or os.environ['CLOCK'])
    return args
