# SPDX-License-Identifier: GPL-2.0
"""The guest machine every harness boot uses: x86_64 under QEMU, with KVM
where /dev/kvm is usable and TCG otherwise (ACCEL=tcg or kvm forces one).

Its shape, by default: 4 vCPUs in 2 sockets, one NUMA node per socket (so
LLC and node agree and the scheduler topology is sane), 1 GiB split
evenly between the nodes.  SHAPE= picks another (see SHAPES), or VCPUS=,
SOCKETS=, NODES= and THREADS= set one: QEMU numbers vCPUs socket by
socket, core by core, SMT thread innermost; each socket is one last-level
cache (QEMU's L3 is per socket), and each node holds whole sockets, so
that no LLC spans two nodes (6.12 warns when one does).
"""
import datetime
import fcntl
import os
from collections import namedtuple

MEM_MB = 1024

Shape = namedtuple('Shape', 'cpus sockets nodes threads')

# Named shapes: the default, and the many-CPU ones of the scale work
# (16 vCPUs in 2 nodes; 64 in one LLC; 64 in 8 nodes with SMT), with the
# single-LLC shapes of 4 and 16 vCPUs the 64-vCPU one is compared with.
SHAPES = {
    '4x2n': Shape(4, 2, 2, 1),
    '4x1llc': Shape(4, 1, 1, 1),
    '16x1llc': Shape(16, 1, 1, 1),
    '16x2n': Shape(16, 2, 2, 1),
    '64x1llc': Shape(64, 1, 1, 1),
    '64x8n-smt': Shape(64, 8, 8, 2),
}


def shape(env=None):
    """The guest's shape: SHAPE=NAME, or VCPUS/SOCKETS/NODES/THREADS over
    the default; exits with an error for one QEMU or this harness cannot
    make."""
    env = os.environ if env is None else env
    name = env.get('SHAPE', '4x2n')
    if name not in SHAPES:
        raise SystemExit(f'error: SHAPE={name}: not one of {", ".join(SHAPES)}')
    sh = SHAPES[name]
    try:
        sh = Shape(int(env.get('VCPUS', sh.cpus)),
                   int(env.get('SOCKETS', sh.sockets)),
                   int(env.get('NODES', env.get('SOCKETS', sh.nodes))),
                   int(env.get('THREADS', sh.threads)))
    except ValueError as e:
        raise SystemExit(f'error: VCPUS, SOCKETS, NODES, THREADS: numbers: {e}') from e
    if min(sh) < 1 or sh.cpus % (sh.sockets * sh.threads):
        raise SystemExit(f'error: {sh.cpus} vCPUs do not make {sh.sockets} sockets '
                         f'of whole cores of {sh.threads} threads')
    if sh.sockets % sh.nodes:
        raise SystemExit(f'error: {sh.nodes} nodes cannot each hold whole sockets '
                         f'of {sh.sockets} (an LLC would span two nodes)')
    return sh


def check_kernel_fits(config_path, sh=None):
    """Exit with the reason when the kernel of .config CONFIG_PATH cannot
    use every vCPU of the shape (CONFIG_NR_CPUS below them: the guest
    would run with fewer CPUs than the shape says).  The default shape is
    every configuration's own, the !SMP one's included."""
    sh = sh or shape()
    if sh == SHAPES['4x2n']:
        return
    try:
        with open(config_path) as f:
            nr = [int(line.split('=')[1]) for line in f
                  if line.startswith('CONFIG_NR_CPUS=')]
    except OSError:
        return
    if nr and nr[0] < sh.cpus:
        raise SystemExit(f'error: {describe(sh)} needs CONFIG_NR_CPUS>='
                         f'{sh.cpus}; {config_path} has {nr[0]} '
                         f'(configs/base.config)')


def describe(sh=None):
    """The shape in words, for reports."""
    sh = sh or shape()
    cores = sh.cpus // (sh.sockets * sh.threads)
    return (f'{sh.cpus} vCPUs: {sh.sockets} socket(s) (LLCs) of {cores} '
            f'core(s) x {sh.threads} thread(s), {sh.nodes} NUMA node(s)')


def numa_args(sh=None, mem_mb=MEM_MB):
    """QEMU arguments for the CPU and NUMA topology."""
    sh = sh or shape()
    cores = sh.cpus // (sh.sockets * sh.threads)
    per_node = sh.cpus // sh.nodes
    args = ['-smp', f'{sh.cpus},sockets={sh.sockets},cores={cores},'
            f'threads={sh.threads}']
    for n in range(sh.nodes):
        args += ['-object', f'memory-backend-ram,id=m{n},size={mem_mb // sh.nodes}M',
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
    raise SystemExit(f'error: unknown clock {clock!r} (icount or mttcg)')


# Where a boot's wall clock starts, in seconds after this, is its seed.
RTC_EPOCH = datetime.datetime(2026, 1, 1)


def rtc_args(seed):
    """QEMU arguments that start the guest's wall clock SEED seconds after
    RTC_EPOCH and advance it with the virtual clock.

    The host's time of day is the main input that differs between boots
    under -icount with sleep=off: the kernel mixes the RTC into its random
    pool, and from there into KASLR, hash seeds and every random choice.
    With it fixed, most of a boot repeats instruction for instruction
    (docs/bench.md, "Seeds"); another seed gives another run of the same
    kernel."""
    base = RTC_EPOCH + datetime.timedelta(seconds=seed)
    return ['-rtc', f'base={base:%Y-%m-%dT%H:%M:%S},clock=vm']


KVM_GET_API_VERSION = 0xAE00
KVM_CREATE_VM = 0xAE01


def kvm_usable():
    """Whether this host can run our kernels under KVM: hardware
    virtualisation (kvm_intel or kvm_amd loaded), and /dev/kvm opens,
    speaks API version 12 and lets us create a VM.  Some hosts offer
    /dev/kvm through kvm_pvm, a software MMU for nested sandboxes, on
    which an unmodified kernel does not boot (seen here: a 6.12 bzImage
    printed nothing after SeaBIOS's "Booting from ROM", and -cpu host died
    setting MSR 0x10a): there TCG it is."""
    if not any(os.path.isdir(f'/sys/module/{m}') for m in ('kvm_intel', 'kvm_amd')):
        return False
    try:
        fd = os.open('/dev/kvm', os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if fcntl.ioctl(fd, KVM_GET_API_VERSION) != 12:
            return False
        os.close(fcntl.ioctl(fd, KVM_CREATE_VM, 0))
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def accel():
    """The accelerator of a boot that asks for no particular clock: $ACCEL
    (kvm or tcg) if set, else kvm where usable, else tcg."""
    want = os.environ.get('ACCEL')
    if want in ('kvm', 'tcg'):
        return want
    if want:
        raise SystemExit(f'error: unknown ACCEL {want!r} (kvm or tcg)')
    return 'kvm' if kvm_usable() else 'tcg'


def accel_args():
    """QEMU arguments for accel(): KVM passes the host's CPU through."""
    if accel() == 'kvm':
        return ['-accel', 'kvm', '-cpu', 'host']
    return ['-accel', 'tcg']


def qemu_args(clock=None, sh=None, mem_mb=MEM_MB):
    """Machine arguments shared by kunit.py runs and our own boots: the
    shape (shape() unless given), the clock asked for (the bench's), else
    accel_args()."""
    args = numa_args(sh, mem_mb)
    if clock or os.environ.get('CLOCK'):
        args += clock_args(clock or os.environ['CLOCK'])
    else:
        args += accel_args()
    return args
