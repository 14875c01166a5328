#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The drgn scripts of tools/workqueue/ on stock and on the rework, same guest.

  wqdump.py [SCENARIO...]

Each kernel, built with configs/dwarf.config (the debug configuration
with DWARF and a vmcoreinfo note), boots the test guest (4 CPUs, 2 NUMA
nodes, or the shape SHAPE= or VCPUS=... give: harness/lib/machine.py)
with QEMU's vmcoreinfo device.  The guest applies SCENARIO, says
it is ready and waits; the host then dumps its memory through QMP and
runs the kernel's own drgn scripts on the dump: tools/workqueue/wq_dump.py
and wq_monitor.py, unmodified from 6.12, on both kernels, and the
rework's wq_hist.py on the rework.  Scenarios:

  boot         nothing changed
  no-node1     unbound work kept off node 1 (the unbound cpumask is 0-1)
  cpu3-down    CPU 3 offline

Writes $OUT/wqdump/SCENARIO-WQ.txt and compares, per scenario, what must
agree between the two kernels: the pods of every affinity scope, the set
of worker pools (by kind, CPUs and nice level, not by ID), the pool of
every CPU of every workqueue (by those same descriptions), the CPUs of
every rescuer, the per-node max_active quotas of unbound workqueues, and
the flags of every workqueue both have (harness/lib/wq_flags.py, drgn).
Reference counts, worker counts and pool IDs are left out: they depend on
what ran before.  wq_monitor.py (-i 0, one report) must print the same
header and columns on both kernels and every workqueue of stock's on the
rework too; wq_hist.py must show the histograms of the system workqueue
"events", and, for test_workqueue's twq_percpu (idle after the guest ran
its slow item and printed its section of the debugfs file), the same
counts and worst items as the debugfs file, with a name pattern, -t and
-j alike.  Beside the comparison, each kernel's pods of every scope it
has (wq_pods.py) must be those the guest's shape defines: one per CPU
(cpu), per core (smt, where CONFIG_SCHED_SMT), per socket, which is one
LLC (cache), per run of at most workqueue.cache_shard_size cores of an
LLC cut as 7.1 cuts it (cache_shard, the rework's), per node (numa), one
(system).  The outputs are printed for the boot scenario and kept in
$OUT/wqdump/ (the default shape) or $OUT/wqdump/SHAPE/.  Both kernels
boot with workqueue.default_affinity_scope=cache, 6.12's default (the
rework's is 7.1's cache_shard).  The last line is "N passed, N failed"; a
difference fails its check.  DRGN names the drgn to run (default: drgn).
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
import guest  # noqa: E402
import machine  # noqa: E402

CFG = 'dwarf'
SHAPE = machine.shape()
OUT = os.path.join(guest.OUT, 'wqdump', *(
    [] if SHAPE == machine.SHAPES['4x2n'] else
    ['{}c{}s{}n{}t'.format(*SHAPE)]))
# workqueue.cache_shard_size's default (the guests do not set it)
CACHE_SHARD_SIZE = 8
# Both kernels boot with 6.12's default scope: the rework's own default,
# 7.1's cache_shard, gives an LLC of more than CACHE_SHARD_SIZE cores
# several pools where 6.12 gives it one, by design.  What is compared is
# 6.12's behaviour; the cache_shard pods are checked against the shape.
DEFAULT_SCOPE_612 = 'workqueue.default_affinity_scope=cache'

READY = 'WQDUMP-READY'
# Every scenario loads test_workqueue (both kernels, so that both have
# its workqueues); on the rework its slow item then runs on twq_percpu,
# whose section of the debugfs histograms the guest prints between the
# markers before the dump.
HIST_WQ = 'twq_percpu'
HIST_BEGIN, HIST_END = 'WQHIST-BEGIN', 'WQHIST-END'
HIST_PREP = ('insmod /lib/modules/test_workqueue.ko 2>/dev/null; '
             'echo slow 2>/dev/null > /sys/kernel/debug/test_workqueue/hist; '
             f'echo {HIST_BEGIN}; '
             f"awk '/^workqueue /{{ on = index($0, \"workqueue {HIST_WQ}:\") == 1 }} on' "
             '/sys/kernel/debug/workqueue/histograms 2>/dev/null; '
             f'echo {HIST_END}')
# 6.12's own scripts, from the pristine source; ours from the rework tree
STOCK_TOOLS = os.path.join(guest.BUILD, 'src', 'linux', 'tools', 'workqueue')
WQ_HIST = os.path.join(guest.BUILD, 'rework', 'src', 'tools', 'workqueue',
                       'wq_hist.py')
WQ_FLAGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wq_flags.py')
WQ_PODS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wq_pods.py')
SCENARIOS = {
    'boot': '',
    'no-node1': 'echo 3 > /sys/devices/virtual/workqueue/cpumask',
    'cpu3-down': 'echo 0 > /sys/devices/system/cpu/cpu3/online',
}


def qmp(sock_path, *commands):
    """Run QMP COMMANDS (name, arguments) in order; return their replies."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        f = s.makefile('rw')
        json.loads(f.readline())		# the greeting
        replies = []
        for name, args in (('qmp_capabilities', {}),) + commands:
            f.write(json.dumps({'execute': name, 'arguments': args}) + '\n')
            f.flush()
            while True:
                reply = json.loads(f.readline() or '{}')
                if 'event' not in reply:
                    break
            if 'error' in reply:
                raise RuntimeError(f'QMP {name}: {reply["error"]}')
            replies.append(reply)
        return replies


def dump_guest(wq, scenario, core):
    """Boot WQ, apply SCENARIO, dump the guest's memory to CORE."""
    obj = guest.objdir(wq, CFG)
    sock = core + '.qmp'
    log = core + '.log'
    cmd = f'{SCENARIOS[scenario]}\n{HIST_PREP}\nsleep 2; echo {READY}; sleep 3600\n'
    state = {'dumped': False}

    def progress(_chunk):
        if state['dumped']:
            return
        with open(log, errors='replace') as f:
            if READY not in f.read():
                return
        state['dumped'] = True
        qmp(sock, ('dump-guest-memory',
                   {'paging': False, 'protocol': f'file:{core}'}))
        try:
            qmp(sock, ('quit', {}))
        except (OSError, ValueError):
            pass				# QEMU left before replying

    for path in (core, sock):
        if os.path.exists(path):
            os.unlink(path)
    guest.boot_quiet(os.path.join(obj, 'arch/x86/boot/bzImage'),
                     os.path.join(obj, 'initramfs.cpio'), cmd, log,
                     append=f'kunit.enable=0 {DEFAULT_SCOPE_612}', timeout=900,
                     progress=progress,
                     extra=['-device', 'vmcoreinfo',
                            '-qmp', f'unix:{sock},server=on,wait=off'])
    if not state['dumped'] or not os.path.exists(core):
        raise RuntimeError(f'{wq}: the guest never got ready, see {log}')


def run_drgn(wq, core, script, *args):
    """The output of drgn SCRIPT ARGS on CORE of kernel WQ."""
    vmlinux = os.path.join(guest.objdir(wq, CFG), 'vmlinux')
    return subprocess.run([os.environ.get('DRGN', 'drgn'), '-q',
                           '--no-default-symbols', '-c', core, '-s', vmlinux,
                           script, *args], check=True,
                          capture_output=True, text=True).stdout


def monitor_shape(text):
    """wq_monitor.py's header and {workqueue: number of columns}."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return '', {}
    return lines[0].split(), {line.split()[0]: len(line.split())
                              for line in lines[1:]}


def monitor_differences(stock, rework):
    """Where wq_monitor.py's output on the rework is not shaped as stock's."""
    (sh, srows), (rh, rrows) = monitor_shape(stock), monitor_shape(rework)
    out = [] if sh == rh and sh else [f'header: stock {sh} rework {rh}']
    out += [f'{name}: stock only' for name in srows if name not in rrows]
    out += [f'{name}: {srows[name]} columns on stock, {rrows[name]} on rework'
            for name in srows if name in rrows and srows[name] != rrows[name]]
    return out


# the item histograms: every sample counts its weight in each of them
ITEM_HISTS = ('queued -> active', 'active -> started', 'run time, wall clock',
              'run time, on the CPU')


def hist_totals(text, name):
    """Samples of the workqueues named NAME in wq_hist.py's output (6.12
    has two "events": system_wq and system_percpu_wq), and the total
    count of each of their histograms by title; None if none is there."""
    samples, totals, found = 0, {}, False
    for block in re.finditer(rf'^workqueue {name}: (\d+) samples\n(.*?)(?=^workqueue |\Z)',
                             text, re.M | re.S):
        found = True
        samples += int(block.group(1))
        title = None
        for line in block.group(2).splitlines():
            m = re.match(r'\s+\d+ ->\s*\d*\s*: (\d+)\s*\|', line)
            if m and title:
                totals[title] += int(m.group(1))
            elif line.strip() and 'usecs' not in line and not m:
                title = line.strip()
                totals.setdefault(title, 0)
    return (samples, totals) if found else None


def hist_differences(text):
    """What is wrong with wq_hist.py's output on the rework: the system
    workqueue "events" must have samples, and each item histogram the
    same total, at least one item per sample (garbage fails that)."""
    got = hist_totals(text, 'events')
    if not got:
        return ['no histograms of workqueue events']
    samples, totals = got
    items = {t: c for t, c in totals.items()
             if any(t.startswith(h) for h in ITEM_HISTS)}
    if not samples or len(items) != len(ITEM_HISTS):
        return [f'events: {samples} samples, histograms {sorted(items)}']
    if len(set(items.values())) != 1 or not samples <= min(items.values()) < 1 << 40:
        return [f'events: {samples} samples, totals {items}']
    return []


TIMESTAMP = re.compile(r'^\[\s*[\d.]+\] ')


def between(log, begin, end):
    """The console lines of LOG between the lines BEGIN and END."""
    lines = [TIMESTAMP.sub('', line.rstrip('\r'))
             for line in log.splitlines()]
    try:
        first = lines.index(begin) + 1
        return '\n'.join(lines[first:lines.index(end, first)])
    except ValueError:
        return ''


def hist_body(text):
    """A workqueue's section without its title line, whose time differs."""
    return [line.rstrip() for line in text.splitlines()[1:] if line.strip()]


def hist_tool_differences(got):
    """Where wq_hist.py, on one workqueue by a pattern, with -t and with -j,
    does not show what the debugfs file showed of it."""
    debugfs, one = got['hist_debugfs'], got['hist_one']
    out = []
    if not debugfs.startswith(f'workqueue {HIST_WQ}: '):
        return [f'no section of {HIST_WQ} in the debugfs file: {debugfs[:80]!r}']
    heads = [line for line in one.splitlines() if line.startswith('workqueue ')]
    if len(heads) != 1 or not one.startswith(f'workqueue {HIST_WQ}: '):
        out.append(f'pattern ^{HIST_WQ}$: {heads}')
    samples = debugfs.split()[2]
    if one.split()[2:3] != [samples]:
        out.append(f'samples: debugfs {samples}, wq_hist.py {one.split()[2:3]}')
    if hist_body(debugfs) != hist_body(one):
        out.append('histograms or worst items differ from debugfs '
                   f'(see {HIST_WQ} in the -rework-hist files)')
    top = hist_body(got['hist_top'])
    want = [l for l in hist_body(debugfs) if ' us  ' in l or
            l.strip().startswith(('slowest', 'longest'))]
    if top != want:
        out.append(f'-t: {top[:4]} where debugfs has {want[:4]}')
    try:
        js = json.loads(got['hist_json'])
        if [j['workqueue'] for j in js] != [HIST_WQ] or \
                str(js[0]['samples']) != samples:
            out.append(f'-j: {got["hist_json"][:80]}')
    except (ValueError, KeyError, IndexError):
        out.append(f'-j is not the JSON of one workqueue: {got["hist_json"][:80]!r}')
    return out


def sections(text):
    """wq_dump.py's output split into its titled sections."""
    out, title, lines = {}, None, text.splitlines()
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r'=+', lines[i + 1]):
            title = line
            out[title] = []
        elif title and not re.fullmatch(r'=+', line):
            out[title].append(line)
    return out


POOL = re.compile(r'pool\[(\d+)\] flags=(\S+) ref=\s*\d+ nice=\s*(-?\d+) '
                  r'idle/workers=\s*\d+/\s*\d+ (.*)$')


def pools(sec):
    """Pool ID -> what the pool is (flags, nice, CPU or CPUs)."""
    out = {}
    for line in sec:
        m = POOL.match(line.strip())
        if m:
            out[pool_id(m.group(1))] = ' '.join(
                (m.group(2), 'nice=' + m.group(3), ' '.join(m.group(4).split())))
    return out


def pool_id(word):
    """A pool ID as one key: wq_dump.py pads the IDs of its pool list to
    the widest one (3 digits once a pool ID reaches 100), not those of its
    CPU -> pool table."""
    return str(int(word)) if word.isdigit() else word


def wq_pools(sec, names):
    """Workqueue -> its type and the pool of each CPU (and dfl), named."""
    out = {}
    for line in sec:
        words = line.split()
        if len(words) < 3 or words[0].startswith('['):
            continue
        out[words[0]] = [words[1]] + [names.get(pool_id(w), w) for w in words[2:]]
    return out


def rescuers(lines):
    """WQ_MEM_RECLAIM workqueue -> its CPUs and its rescuer's, no PID.  A
    line is NAME [UNBOUND_CPUS] PID RESCUER_CPUS, a cpumask being "0x"
    and one word per 32 CPUs: the PID is the word before the last mask."""
    out = {}
    for line in lines:
        words = line.split()
        if len(words) < 3 or words[0].startswith('['):
            continue
        last = max((i for i, w in enumerate(words) if w.startswith('0x')),
                   default=len(words) - 1)
        out[words[0]] = words[1:last - 1] + words[last:]	# no PID
    return out


def quotas(lines):
    """Unbound workqueue -> min, max and each node's max."""
    out = {}
    for line in lines:
        m = re.match(r'(\S+)\s+(\d+)\s+(\d+)((?:\s+\d+/\s*\d+)+)$', line)
        if m:
            out[m.group(1)] = [m.group(2), m.group(3)] + \
                re.findall(r'/\s*(\d+)', m.group(4))
    return out


def facts(text):
    """What must agree between two kernels, from wq_dump.py's output."""
    sec = sections(text)
    names = pools(sec.get('Worker Pools', []))
    cpu_pools = sec.get('Workqueue CPU -> pool', [])
    return {
        'pods': [line for line in sec.get('Affinity Scopes', []) if line],
        'pools': sorted(names.values()),
        'workqueue pools': wq_pools(cpu_pools, names),
        'rescuers': rescuers(sec.get('Workqueue -> rescuer', [])),
        'node quotas': quotas(sec.get('Unbound workqueue -> node_nr/max_active',
                                      [])),
    }


# What the rework adds to 6.12's set, by design: the RT class's pools
# (POOL_RT, one per CPU beside the normal and high-priority ones) and the
# workqueues of RCU's expedited grace periods (rework layer's
# patches/rcu-exp-workqueue.diff; stock uses kthread_workers), unbound
# with a pod per CPU, WQ_RT where CONFIG_RCU_EXP_KTHREAD: their pools,
# node quotas and rescuers.  They are listed and left out of the
# comparison; anything else only one kernel has fails it.
POOL_RT = 0x08
RCU_EXP_WQS = ('rcu_exp_gp', 'rcu_exp_par_gp')


def rework_additions(facts_rework):
    """Take the rework's additions out of its facts; lines naming them."""
    added = []
    kept = []
    for pool in facts_rework['pools']:
        if int(pool.split()[0], 16) & POOL_RT:
            added.append(f'RT pool {pool}')
        else:
            kept.append(pool)
    facts_rework['pools'] = kept
    # the pools only RCU's expedited workqueues use (their pods)
    wq_pools = facts_rework['workqueue pools']
    theirs = {p for name in RCU_EXP_WQS for p in wq_pools.get(name, [])[1:]}
    others = {p for name, pools in wq_pools.items() if name not in RCU_EXP_WQS
              for p in pools[1:]}
    for pool in sorted(theirs - others):
        while pool in facts_rework['pools']:
            facts_rework['pools'].remove(pool)
            added.append(f'pool of RCU\'s expedited workqueues: {pool}')
    for key in ('workqueue pools', 'rescuers', 'node quotas'):
        for name in RCU_EXP_WQS:
            if facts_rework[key].pop(name, None) is not None:
                added.append(f'{key}: {name}')
    return added


def differences(a, b):
    """Lines saying where facts A (stock) and B (rework) differ."""
    out = []
    for key in a:
        if a[key] == b[key]:
            continue
        if isinstance(a[key], dict):
            for name in sorted(set(a[key]) | set(b[key])):
                if a[key].get(name) != b[key].get(name):
                    out.append(f'{key}: {name}: stock {a[key].get(name)} '
                               f'rework {b[key].get(name)}')
        else:
            out += [f'{key}: stock only: {x}' for x in a[key] if x not in b[key]]
            out += [f'{key}: rework only: {x}' for x in b[key] if x not in a[key]]
            if not out:
                out.append(f'{key}: same entries, different order')
    return out


def save(name, text, show):
    """Keep TEXT in $OUT/wqdump/NAME; print it too if SHOW."""
    with open(os.path.join(OUT, name), 'w') as f:
        f.write(text)
    if show:
        print(f'--- {name}\n{text}--- end of {name}', flush=True)


def dump_both(scenario, show):
    """Dump each kernel after SCENARIO; the scripts' outputs per kernel."""
    out = {}
    for wq in ('stock', 'rework'):
        core = os.path.join(OUT, f'{scenario}-{wq}.core')
        print(f'==> {scenario}: {wq}', flush=True)
        dump_guest(wq, scenario, core)
        out[wq] = {
            'dump': run_drgn(wq, core, os.path.join(STOCK_TOOLS, 'wq_dump.py')),
            'monitor': run_drgn(wq, core, os.path.join(STOCK_TOOLS,
                                                       'wq_monitor.py'),
                                '-i', '0'),
            'flags': run_drgn(wq, core, WQ_FLAGS),
            'pods': run_drgn(wq, core, WQ_PODS),
        }
        if wq == 'rework':
            out[wq]['hist'] = run_drgn(wq, core, WQ_HIST)
            pattern = f'^{HIST_WQ}$'
            out[wq]['hist_one'] = run_drgn(wq, core, WQ_HIST, pattern)
            out[wq]['hist_top'] = run_drgn(wq, core, WQ_HIST, '-t', pattern)
            out[wq]['hist_json'] = run_drgn(wq, core, WQ_HIST, '-j', pattern)
            with open(core + '.log', errors='replace') as f:
                out[wq]['hist_debugfs'] = between(f.read(), HIST_BEGIN, HIST_END)
        os.unlink(core)
        save(f'{scenario}-{wq}.txt', out[wq]['dump'], False)
        save(f'{scenario}-{wq}-monitor.txt', out[wq]['monitor'], show)
        save(f'{scenario}-{wq}-flags.txt', out[wq]['flags'], False)
        save(f'{scenario}-{wq}-pods.txt', out[wq]['pods'], False)
    save(f'{scenario}-rework-hist.txt', out['rework']['hist'], show)
    for what in ('one', 'top', 'json', 'debugfs'):
        save(f'{scenario}-rework-hist-{what}.txt', out['rework'][f'hist_{what}'],
             False)
    return out


def shape_pods(sh, smt, shard_size=CACHE_SHARD_SIZE):
    """Scope -> its pods (sorted tuples of CPUs) for shape SH, as the
    definitions of the scopes make them; SMT: CONFIG_SCHED_SMT is on."""
    threads = sh.threads if smt else 1
    per_socket = sh.cpus // sh.sockets
    per_node = sh.cpus // sh.nodes

    def group(key):
        pods = {}
        for cpu in range(sh.cpus):
            pods.setdefault(key(cpu), []).append(cpu)
        return sorted(tuple(p) for p in pods.values())

    def shard(cpu):
        # the LLC's cores in CPU order, cut into as equal runs as can be
        cores = per_socket // sh.threads
        shards = -(-cores // shard_size)
        before = (cpu % per_socket) // sh.threads
        return cpu // per_socket, before * shards // cores
    return {
        'cpu': group(lambda cpu: cpu),
        'smt': group(lambda cpu: cpu // threads),
        'cache': group(lambda cpu: cpu // per_socket),
        'cache_shard': group(shard),
        'numa': group(lambda cpu: cpu // per_node),
        'system': group(lambda cpu: 0),
    }


def parse_pods(text):
    """wq_pods.py's output: scope -> its pods, sorted tuples of CPUs."""
    out = {}
    for line in text.splitlines():
        if line.strip():
            scope, _, pods = line.partition(' ')
            out[scope] = sorted(tuple(int(c) for c in pod.split(',') if c)
                                for pod in pods.split(';'))
    return out


def pods_differences(wq, text):
    """Where kernel WQ's pods (wq_pods.py's TEXT) are not the shape's."""
    with open(os.path.join(guest.objdir(wq, CFG), '.config')) as f:
        smt = 'CONFIG_SCHED_SMT=y\n' in f.read()
    want, got = shape_pods(SHAPE, smt), parse_pods(text)
    out = [f'{wq}: no scope {scope}' for scope in want
           if scope not in got and not (scope == 'cache_shard' and wq == 'stock')]
    for scope, pods in got.items():
        if scope not in want:
            out.append(f'{wq}: unknown scope {scope}')
        elif pods != want[scope]:
            out.append(f'{wq}: {scope}: pods {pods}, the shape says {want[scope]}')
    return out


def flags_differences(stock, rework):
    """Workqueues both kernels have whose flags differ (wq_flags.py's
    output of each); the set of workqueues is wq_dump.py's check."""
    def parse(text):
        # names repeat ("events" twice on 6.12): each name's sorted flags
        out = {}
        for line in text.splitlines():
            if line:
                name, flags = line.split()
                out.setdefault(name, []).append(flags)
        return {name: sorted(v) for name, v in out.items()}
    a, b = parse(stock), parse(rework)
    return [f'{name}: stock {a[name]} rework {b[name]}'
            for name in sorted(set(a) & set(b)) if a[name] != b[name]]


def report(scenario, what, diff):
    """Print and keep DIFF; its PASS/FAIL line.  Returns whether it passed."""
    with open(os.path.join(OUT, f'{scenario}-{what.split()[0]}-diff.txt'),
              'w') as f:
        f.write(''.join(d + '\n' for d in diff))
    for d in diff:
        print(f'  {scenario}: {d}')
    print(f'{"FAIL" if diff else "PASS"}: {what} {scenario}', flush=True)
    return not diff


def main(argv):
    scenarios = argv[1:] or list(SCENARIOS)
    os.makedirs(OUT, exist_ok=True)
    print(f'==> guest: {machine.describe(SHAPE)}', flush=True)
    results = []
    for scenario in scenarios:
        got = dump_both(scenario, scenario == 'boot')
        rework = facts(got['rework']['dump'])
        for line in rework_additions(rework):
            print(f'  {scenario}: rework addition (expected): {line}')
        results.append(report(scenario, 'wq_dump.py: stock and rework agree',
                              differences(facts(got['stock']['dump']),
                                          rework)))
        results.append(report(scenario, 'wq_monitor.py: same shape on both',
                              monitor_differences(got['stock']['monitor'],
                                                  got['rework']['monitor'])))
        results.append(report(scenario, 'wq_flags.py: the same flags on both',
                              flags_differences(got['stock']['flags'],
                                                got['rework']['flags'])))
        results.append(report(scenario, 'wq_hist.py: histograms on the rework',
                              hist_differences(got['rework']['hist'])))
        results.append(report(scenario, 'wq_hist.py by pattern, -t and -j: '
                              'what debugfs shows',
                              hist_tool_differences(got['rework'])))
        results.append(report(scenario, 'wq_pods.py: pods as the shape defines',
                              pods_differences('stock', got['stock']['pods']) +
                              pods_differences('rework', got['rework']['pods'])))
    passed = sum(results)
    print(f'{passed} passed, {len(results) - passed} failed')
    return 0 if passed == len(results) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
