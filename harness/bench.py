#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Benchmark two kernels side by side and report.

  bench.py run      boot kernel A and kernel B alternately in ABBA order
                    (A B, B A, A B, ...), ROUNDS times each, running the
                    test_workqueue scenarios; keep every log and result
                    under out/bench/ (a boot that fails is kept apart and
                    left out of the figures)
  bench.py report   aggregate out/bench/raw/ into out/bench/report.md,
                    out/bench/summary.json and out/bench/*.png
  bench.py configs  the kernel configurations the scenarios need
  bench.py compare OLD NEW
                    the medians of side B of NEW (a summary.json, or the
                    folder holding one) against OLD's: every metric that
                    moved the wrong way by more than 2%, beside what side A
                    did between the same two runs; writes compare.md next
                    to NEW

Settings come from the environment (make bench passes them on):
  A, B       kernels (stock, stock-fixed, rework); A=B=stock measures the
             noise floor, A=stock B=stock-fixed the cost of the stable series
  ROUNDS     boots of each kernel (default 3)
  CLOCK      icount (default: instruction-counted virtual time, single
             threaded, repeatable) or mttcg (one host thread per vCPU)
  BENCH      quick (default) or full (more work per scenario, S burns)
  SCENARIOS  scenarios to run (default: all)
  SCALE_SHAPES
             the guest shapes the scale scenarios (scale, scale_lock,
             scale_lock_lean, init) boot (default: 4x1llc
             16x1llc 64x1llc 16x2n 64x8n-smt; harness/lib/machine.py)
  SCALE_ROUNDS
             rounds that run the scale scenarios (default 1: their rows
             are instruction counts and counters, which repeat)
  A_APPEND, B_APPEND
             more kernel arguments for side A or B, e.g.
             B_APPEND=test_workqueue.item_tax=250 (every item costs 250
             rounds of the load module's spin loop more: a workqueue that
             costs more per item, to see which rows move)
  BENCH_OUT  where the results go instead of out/bench/ (default: bench/
             in $OUT, the harness's results folder)
  SEED, B_SEED
             under -icount, round R boots side A with seed SEED+R-1 and
             side B with B_SEED+R-1 (the guest's wall clock at power-on,
             machine.rtc_args()): boots of the same kernel and seed
             repeat to the instruction, the perf boot up to its delay
             scenario (docs/bench.md, "Seeds").  SEED defaults to 1; B_SEED to SEED,
             or to SEED+ROUNDS when both sides boot the same kernel with
             the same arguments (a noise-floor run needs different runs)
"""
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
# pylint: disable=wrong-import-position
import guest  # noqa: E402
import insnprof  # noqa: E402
import machine  # noqa: E402

TOP = guest.TOP
OUT = os.environ.get('BENCH_OUT', os.path.join(guest.OUT, 'bench'))
RESULT = re.compile(r'TWQ-RESULT (\{.*\})')
BEGIN = re.compile(r'TWQ-BEGIN (\S+)')


def settings():
    env = os.environ
    s = {
        'a': env.get('A', 'stock'), 'b': env.get('B', 'rework'),
        'rounds': int(env.get('ROUNDS', '0') or 0),
        'clock': env.get('CLOCK', 'icount') or 'icount',
        'scale': env.get('BENCH', 'quick') or 'quick',
        'scenarios': env.get('SCENARIOS', 'all') or 'all',
        'append': {'A': env.get('A_APPEND', ''), 'B': env.get('B_APPEND', '')},
        'scale_shapes': (env.get('SCALE_SHAPES', '') or ' '.join(SCALE_SHAPES)).split(),
        'scale_rounds': int(env.get('SCALE_ROUNDS', '1') or 1),
    }
    bad = [sh for sh in s['scale_shapes'] if sh not in machine.SHAPES]
    if bad:
        sys.exit(f'SCALE_SHAPES: unknown shapes {" ".join(bad)} '
                 f'(known: {" ".join(machine.SHAPES)})')
    if s['scale'] not in ('quick', 'full'):
        sys.exit(f'BENCH must be quick or full, not {s["scale"]!r}')
    if not s['rounds']:
        s['rounds'] = 5 if s['scale'] == 'full' else 3
    # The idle timeout is 5 minutes, and a timer that far out sits in a
    # timer-wheel level 131 s coarse at HZ=250: 460 s covers both.  That
    # costs nothing in virtual time; on the real clock only the full run
    # pays for it.
    s['idle_wait_s'] = 460 if s['clock'] == 'icount' or s['scale'] == 'full' else 0
    s['timeout'] = 3600 if s['scale'] == 'full' else 1500
    # Under -icount the TSC counts the instructions retired, one per
    # nanosecond: a clocksource that resolves a single instruction, where
    # the HPET the guest picks otherwise (qemu64 has no invariant TSC)
    # moves in steps of 10.
    s['clock_append'] = 'tsc=reliable' if s['clock'] == 'icount' else ''
    s['seeds'] = seeds(s, env) if s['clock'] == 'icount' else None
    return s


def seeds(s, env):
    """{'A': [seed per round], 'B': [...]}: see SEED and B_SEED."""
    first_a = int(env.get('SEED', '1') or 1)
    same = s['a'] == s['b'] and s['append']['A'] == s['append']['B']
    first_b = int(env.get('B_SEED', '') or first_a + (s['rounds'] if same else 0))
    return {side: list(range(first, first + s['rounds']))
            for side, first in (('A', first_a), ('B', first_b))}


def append_for(s, side):
    """Kernel arguments of the boots of SIDE (0: A, 1: B)."""
    return ' '.join(x for x in (s['clock_append'], s['append']['AB'[side]]) if x)


def sides(s):
    """(label, kernel) of the two sides; labels differ even when A == B."""
    if s['a'] == s['b']:
        return [('A', s['a']), ('B', s['b'])]
    return [(s['a'], s['a']), (s['b'], s['b'])]


class Progress:
    """One status line: kernel, round, scenario, elapsed and time left."""

    def __init__(self, total_boots):
        self.total = total_boots
        self.done = 0
        self.start = time.monotonic()
        self.boot_times = []
        self.what = ''
        self.scenario = 'booting'

    def boot(self, what):
        self.what = what
        self.scenario = 'booting'
        self.boot_start = time.monotonic()
        self.show()

    def feed(self, chunk):
        for m in BEGIN.finditer(chunk.decode('utf-8', 'replace')):
            self.scenario = m.group(1)
            self.show()

    def finished(self):
        self.boot_times.append(time.monotonic() - self.boot_start)
        self.done += 1

    def show(self):
        elapsed = time.monotonic() - self.start
        left = ''
        if self.boot_times:
            per = statistics.mean(self.boot_times)
            rest = per * (self.total - self.done) - (time.monotonic() - self.boot_start)
            left = f', about {max(rest, 0) / 60:.0f} min left'
        print(f'\r[{self.done + 1}/{self.total}] {self.what}: {self.scenario} '
              f'({elapsed / 60:.1f} min{left})\033[K', end='', file=sys.stderr,
              flush=True)


# The scenarios, and the configuration each runs on: rcu_exp needs
# stock's expedited grace periods on FIFO kthread_workers, which only a
# preemptible-RCU build has (configs/rcuexp.config); dmdelay needs device
# mapper, null_blk and fio (configs/dmdelay.config); the scale scenarios
# kernels for 64 CPUs (configs/scale.config), scale_lock with lock
# statistics (configs/lockstat.config), scale_lock_lean with them and
# lockdep's assertions compiled out of both kernels
# (configs/lockstat-lean.config).
SCENARIO_CONFIG = {
    'perfwq': 'perf', 'latency': 'perf', 'throughput': 'perf', 'flush': 'perf',
    'delay': 'perf', 'inversion': 'perf', 'footprint': 'perf',
    'rcu_exp': 'rcuexp', 'dmdelay': 'dmdelay',
    'scale': 'scale', 'scale_lock': 'lockstat', 'scale_lock_lean': 'lockstat-lean',
    'init': 'scale',
}
# The init scenario: the instructions (every vCPU's, counted by the
# insnprof plugin) from the first entry into each START to the first
# entry into the function start_kernel() or kernel_init_freeable() calls
# after it.  The boot runs nothing else: the plugin lets host timing reach
# the guest, so it boots alone (a pass of its own, named ...-init).
INIT_STEPS = (
    ('early', 'workqueue_init_early', 'rcu_init'),
    ('workers', 'workqueue_init', 'init_mm_internals'),
    ('smp', 'smp_init', 'sched_init_smp'),
    ('topology', 'workqueue_init_topology', 'async_init'),
)
INIT_FUNCS = [f for step in INIT_STEPS for f in step[1:]]
PROFILED = {'init'}
# Scenarios a program of the initramfs runs (the others: test_workqueue),
# and its arguments after the bench's scale (quick or full).
GUEST_PROGRAM = {'dmdelay': 'guest-dmdelay', 'scale_lock': 'guest-lockstat',
                 'scale_lock_lean': 'guest-lockstat'}
GUEST_ARGS = {'scale_lock_lean': ['lock_lean']}
# test_workqueue's command for a scenario of another name: the scale
# scenario is per-call cost with one queuer, and the footprint.
MODULE_CMD = {'scale': 'throughput footprint queuers=1'}
# The scenarios that boot once per guest shape, their rows named
# scale.SHAPE.ROW; of scale_lock's, only its lock.* rows (its throughput
# runs are lockdep's, not the workqueue's), and lock_lean.* of
# scale_lock_lean's.
SCALE_SHAPES = ('4x1llc', '16x1llc', '64x1llc', '16x2n', '64x8n-smt')
SCALE_KEEP = {'scale': '', 'scale_lock': 'lock.', 'scale_lock_lean': 'lock_lean.',
              'init': 'init.'}


def passes(s):
    """[(config, scenarios, shape)]: the boots of one round, per
    configuration, and per shape for the scale scenarios (shape None: the
    default one)."""
    names = s['scenarios'].split()
    if names == ['all']:
        names = list(SCENARIO_CONFIG)
    unknown = [n for n in names if n not in SCENARIO_CONFIG]
    if unknown:
        sys.exit(f'unknown scenarios: {" ".join(unknown)}')
    out = {}
    for n in names:
        out.setdefault((SCENARIO_CONFIG[n], n in PROFILED), []).append(n)
    todo = []
    for (cfg, _), ns in out.items():
        shaped = any(n in SCALE_KEEP for n in ns)
        for sh in s['scale_shapes'] if shaped else [None]:
            todo.append((cfg, ' '.join(ns), sh))
    return todo


def profiled(scenarios):
    """Whether SCENARIOS is a pass of its own under the plugin (passes()
    puts the PROFILED scenarios in passes apart)."""
    return any(n in PROFILED for n in scenarios.split())


def boot_name(cfg, shape, rnd, label, scenarios=''):
    """A boot's name: its logs and raw results are named after it."""
    if profiled(scenarios):
        cfg += '-' + scenarios.replace(' ', '-')
    return f'{cfg}-{shape}-{rnd}-{label}' if shape else f'{cfg}-{rnd}-{label}'


def init_plugin(addrs, counts):
    """QEMU arguments that load the plugin for the init scenario."""
    return ['-plugin', f'{insnprof.build_plugin()},out={counts},'
            + insnprof.trace_arg(addrs, INIT_FUNCS)]


def init_rows(addrs, counts):
    """The init scenario's result lines: init.STEP, instructions."""
    when = insnprof.first_entries(counts, addrs, INIT_FUNCS) \
        if os.path.exists(counts) else {}
    return [json.dumps({'name': f'init.{step}', 'unit': 'insn',
                        'value': when[end] - when[start]})
            for step, start, end in INIT_STEPS if start in when and end in when]


def guest_cmd(s, names):
    """The guest's /cmd running scenarios NAMES: test_workqueue's first,
    then each guest program."""
    module = ' '.join(MODULE_CMD.get(n, n) for n in names if n not in GUEST_PROGRAM)
    cmds = [' '.join([GUEST_PROGRAM[n], s['scale']] + GUEST_ARGS.get(n, []))
            for n in names if n in GUEST_PROGRAM]
    if module:
        wait = s['idle_wait_s'] if 'footprint' in module.split() else 0
        cmds.insert(0, f'echo {module} scale={s["scale"]} '
                       f'idle_wait_s={wait} > {guest.TWQ_RUN}')
    return '\n'.join(cmds)


def scale_rows(results, scenarios, shape):
    """The result lines of a scale boot, renamed scale.SHAPE.NAME, those
    its scenarios keep only."""
    keep = [SCALE_KEEP[n] for n in scenarios.split() if n in SCALE_KEEP]
    out = []
    for line in results:
        r = json.loads(line)
        if any(r['name'].startswith(k) for k in keep):
            r['name'] = f'scale.{shape}.{r["name"]}'
            out.append(json.dumps(r))
    return out


def boot_one(s, prog, cfg, scenarios, shape, rnd, side):
    """One boot of SIDE running SCENARIOS (in SHAPE, or the default
    shape); its results go to raw/."""
    label, kernel = sides(s)[side]
    prog.boot(f'round {rnd}/{s["rounds"]}, {label} ({kernel}, {cfg}'
              + (f', {shape})' if shape else ')'))
    obj = guest.objdir(kernel, cfg)
    name = boot_name(cfg, shape, rnd, label, scenarios)
    log = os.path.join(OUT, 'logs', f'{name}.log')
    plugin = profiled(scenarios)
    counts = os.path.join(OUT, 'logs', f'{name}.insnprof')
    cmd = '' if plugin else guest_cmd(s, scenarios.split())
    seed = s['seeds']['AB'[side]][rnd - 1] if s['seeds'] else None
    extra = [] if seed is None else machine.rtc_args(seed)
    if plugin:
        addrs, _ = insnprof.load_symbols(os.path.join(obj, 'System.map'))
        extra += init_plugin(addrs, counts)
    text, finished, status = guest.boot_quiet(
        os.path.join(obj, 'arch/x86/boot/bzImage'),
        os.path.join(obj, 'initramfs.cpio'), cmd, log,
        append=append_for(s, side), timeout=s['timeout'],
        clock=s['clock'], progress=prog.feed, extra=extra,
        sh=machine.SHAPES[shape] if shape else None)
    prog.finished()
    ok = finished and status == 0 and (plugin or 'TWQ-END' in text and
                                       'TWQ-END (failed)' not in text)
    if not ok:
        print(f'\nwarning: {name}: guest did not finish cleanly '
              f'(see {os.path.relpath(log, TOP)})', file=sys.stderr)
    results = init_rows(addrs, counts) if plugin else \
        [m.group(1) for m in RESULT.finditer(text)]
    if shape:
        results = scale_rows(results, scenarios, shape)
    with open(os.path.join(OUT, 'raw', f'{name}.jsonl' if ok else f'{name}.failed'),
              'w') as f:
        for line in results:
            f.write(line + '\n')
    return None if ok else name


def run(s):
    os.makedirs(os.path.join(OUT, 'raw'), exist_ok=True)
    os.makedirs(os.path.join(OUT, 'logs'), exist_ok=True)
    for f in os.listdir(os.path.join(OUT, 'raw')):
        os.unlink(os.path.join(OUT, 'raw', f))
    todo = passes(s)
    rounds = [[p for p in todo if not p[2] or rnd <= s['scale_rounds']]
              for rnd in range(1, s['rounds'] + 1)]
    prog = Progress(2 * sum(len(r) for r in rounds))
    failed = []
    for rnd, this_round in enumerate(rounds, 1):
        # ABBA: what runs first in a round does not favour one side
        order = [0, 1] if rnd % 2 else [1, 0]
        for cfg, scenarios, shape in this_round:
            for side in order:
                bad = boot_one(s, prog, cfg, scenarios, shape, rnd, side)
                if bad:
                    failed.append(bad)
    print(file=sys.stderr)
    meta = dict(s, sides=sides(s), finished=time.strftime('%Y-%m-%d %H:%M:%S'),
                args={'A': append_for(s, 0), 'B': append_for(s, 1)},
                passes=todo, failed_boots=len(failed), failed=failed,
                machine=machine_desc())
    with open(os.path.join(OUT, 'raw', 'meta.json'), 'w') as f:
        json.dump(meta, f, indent=1)
    return 1 if failed else 0


def machine_desc():
    return (f'QEMU TCG x86_64, {machine.describe()}, '
            f'{machine.MEM_MB} MiB; host {os.cpu_count()} CPUs')


# Results that say a boot's figures are not whole: waits that timed out,
# work left unfinished, samples dropped for want of room.
FLAG = re.compile(r'\.(timeouts|unfinished|job_unfinished|dropped)$')


def load(meta):
    """values[name][label] = [per-round value], hists[name][label] = {low: n},
    units[name], flags: ['ROUND-LABEL: name = value', ...]"""
    values, hists, units, flags = {}, {}, {}, []
    raw = os.path.join(OUT, 'raw')
    for label, _ in meta['sides']:
        for cfg, names, shape, rnd in ((p[0], p[1], p[2] if len(p) > 2 else None, r)
                                       for p in meta.get('passes', [['perf', '']])
                                       for r in range(1, meta['rounds'] + 1)):
            boot = boot_name(cfg, shape, rnd, label, names)
            path = os.path.join(raw, f'{boot}.jsonl')
            if not os.path.exists(path):
                continue
            with open(path) as f:
                for line in f:
                    try:
                        r = json.loads(line)
                    except ValueError:
                        continue
                    units[r['name']] = r['unit']
                    if FLAG.search(r['name']) and r.get('value'):
                        flags.append(f'{boot}: {r["name"]} = {r["value"]}')
                    if 'hist' in r:
                        h = hists.setdefault(r['name'], {}).setdefault(label, {})
                        for low, n in r['hist']:
                            h[low] = h.get(low, 0) + n
                    else:
                        values.setdefault(r['name'], {}).setdefault(label, []).append(r['value'])
    return values, hists, units, flags


def derive_scale(values, units):
    """The scale and init scenarios' rows per CPU (footprint.*.per_cpu,
    init.*.per_cpu: over the shape's vCPUs), and each 64-vCPU shape's
    rows over the 4-vCPU single-LLC shape's (scale.SHAPE_vs_4x1llc.ROW:
    the ratio of the medians, per side)."""
    for name in [n for n in values if n.startswith('scale.')]:
        shape, row = name.split('.', 2)[1:]
        if row.startswith(('footprint.', 'init.')) and shape in machine.SHAPES:
            cpus = machine.SHAPES[shape].cpus
            out = f'{name}.per_cpu'
            units[out] = units[name]
            values[out] = {label: [v / cpus for v in vs]
                           for label, vs in values[name].items()}
    for name in [n for n in values if n.startswith('scale.4x1llc.')]:
        row = name[len('scale.4x1llc.'):]
        for shape in ('64x1llc', '64x8n-smt'):
            big = values.get(f'scale.{shape}.{row}')
            if not big:
                continue
            out = f'scale.{shape}_vs_4x1llc.{row}'
            units[out] = 'ratio'
            values[out] = {label: [statistics.median(big[label]) / statistics.median(vs)]
                           for label, vs in values[name].items()
                           if label in big and statistics.median(vs)}


def derive(values, units):
    """Rows computed from others, for every boot alike.

    perfwq.*.job_outside: a workload's job_time minus the job's own
    instructions, which each boot measures (perfwq.job_alone) and which
    only grow with noise: the least over every boot of both sides is the
    one reference both kernels are measured against.  Under -icount that
    is the instructions run outside the competing job while it ran."""
    derive_scale(values, units)
    alone = [v for side in values.get('perfwq.job_alone', {}).values() for v in side]
    if not alone:
        return
    ref = min(alone)
    for name in [n for n in values if re.match(r'perfwq\.wl\d\.[LS]\.job_time$', n)]:
        out = name[:-len('job_time')] + 'job_outside'
        units[out] = units[name]
        values[out] = {label: [v - ref for v in vs] for label, vs in values[name].items()}


def side_stats(v):
    """Median, min, max and count of one side's per-boot values (None
    where the metric exists on the other kernel only)."""
    if not v:
        return None
    return {'median': statistics.median(v), 'min': min(v), 'max': max(v), 'n': len(v)}


def summarize(meta, values, units):
    """One row per metric; a metric of one kernel only (a capability the
    other lacks) keeps its row with the other side empty."""
    (la, _), (lb, _) = meta['sides']
    rows = []
    for name in sorted(values):
        a, b = side_stats(values[name].get(la)), side_stats(values[name].get(lb))
        both = a and b and a['median']
        rows.append({'name': name, 'unit': units[name], 'a': a, 'b': b,
                     'ratio': (b['median'] / a['median']) if both else None,
                     'spread_a': ((a['max'] - a['min']) / a['median']) if both else None})
    return rows


def fmt(v, unit, icount=False):
    """V in UNIT as the report prints it.  Under -icount a guest
    nanosecond is an instruction retired by the vCPUs: times print as
    instruction counts (k, M, G) and rates per 10^9 of them."""
    if unit == 'insn' or unit == 'ns' and icount:
        for div, u in ((1e9, 'G'), (1e6, 'M'), (1e3, 'k')):
            if abs(v) >= div:
                return f'{v / div:.3g} {u}insn'
        return f'{v:.0f} insn'
    if unit == 'ns':
        for div, u in ((1e9, 's'), (1e6, 'ms'), (1e3, 'us')):
            if abs(v) >= div:
                return f'{v / div:.3g} {u}'
        return f'{v:.0f} ns'
    if unit == 'items/s' and icount:
        return f'{v:.0f}/Ginsn'
    if isinstance(v, float) and not v.is_integer():
        return f'{v:.4g}'
    return f'{v:.0f}'


HEADLINE = [
    (r'perfwq\.wl\d\.[LS]\.job_outside$',
     'perf-wq: instructions run outside the competing job while it ran (-icount)'),
    (r'perfwq\.wl\d\.[LS]\.job_steal$',
     "perf-wq: time the job threads' CPUs spent on other work"),
    (r'perfwq\.wl\d\.[LS]\.job_time$', 'perf-wq competing job time'),
    (r'perfwq\.wl\d\.[LS]\.peak_kworkers$', 'perf-wq peak kworkers'),
    (r'latency\.\w+\.hogs\d\.(p50|p99|max)$', 'dispatch latency'),
    (r'throughput\.\w+\.q\d\.rate$', 'throughput'),
    (r'flush\.\w+\.p50$', 'flush cost'),
    (r'delay\.\d+ms\.(timer_)?lateness\.(p50|p99)$',
     'delayed-work lateness, and a bare timer_list\'s beside it'),
    (r'inversion\.(\w+\.)?flush_time(\.max|\.min|\.workers|\.cpus)?$',
     'priority inversion on flush (mean of the repeats of a boot)'),
    (r'rcu_exp\.(hogs\d\.(p50|p99|max|over_1ms)|\w+_threads|\w+_kworkers)$',
     'synchronize_rcu_expedited(), and the real-time threads behind it (rcuexp config)'),
    (r'footprint\.(boot|after_idle)\.\w+$', 'footprint'),
    (r'^scale\.64x(1llc|8n-smt)_vs_4x1llc\.(throughput\.\w+\.q1\.queue_cost\.active\.p50'
     r'|footprint\.(boot|after_idle)\.\w+\.per_cpu)$',
     'scale: per-call queue cost (one queuer) and footprint per CPU at 64 vCPUs '
     'over 4 vCPUs in one LLC (scale config)'),
    (r'^scale\.[^.]+\.throughput\.\w+\.q1\.(queue_cost\.active\.p50|rate)$',
     'scale: per-call queue cost and rate with one queuer, per shape (scale config)'),
    (r'^scale\.[^.]+\.lock\.',
     'scale: pool-lock acquisitions, contentions and hold per item, and the CPUs '
     'sharing an unbound pool lock (lockstat config)'),
]


def beyond_spreads(r):
    """Whether each side's median lies outside the other side's min-max:
    a difference that the boot-to-boot spread of neither kernel covers."""
    a, b = r['a'], r['b']
    if not a or not b:
        return False
    return (not a['min'] <= b['median'] <= a['max'] and
            not b['min'] <= a['median'] <= b['max'])


def cell(st, unit, icount):
    """One side's median (min-max), or '-' where it has no such metric."""
    if not st:
        return '-'
    return (f'{fmt(st["median"], unit, icount)} ({fmt(st["min"], unit, icount)}-'
            f'{fmt(st["max"], unit, icount)})')


def table(rows, meta, pattern=None):
    (la, ka), (lb, kb) = meta['sides']
    out = [f'| metric | {la} median (min-max) | {lb} median (min-max) | {lb}/{la} | n |',
           '|---|---|---|---|---|']
    for r in rows:
        if pattern and not re.search(pattern, r['name']):
            continue
        u, ic = r['unit'], meta['clock'] == 'icount'
        ratio = f'{r["ratio"]:.3f}' if r['ratio'] is not None else '-'
        if beyond_spreads(r):
            ratio = f'**{ratio}**'
        n = '/'.join(str(st['n']) if st else '0' for st in (r['a'], r['b']))
        out.append(f'| {r["name"]} | {cell(r["a"], u, ic)} | {cell(r["b"], u, ic)} '
                   f'| {ratio} | {n} |')
    return '\n'.join(out)


def same_kernel_note(meta, ka, kb):
    """What a run with the same kernel on both sides measures."""
    if ka != kb:
        return ''
    seeds = meta.get('seeds')
    if seeds and seeds['A'] == seeds['B'] and \
            meta['args']['A'] == meta['args']['B']:
        return ' (the same kernel and seeds twice: this run checks that boots repeat)'
    return ' (the same kernel twice: this run measures the noise floor)'


def seeds_line(seeds, la, lb):
    """The report's line on the boots' seeds (None: the host's clock)."""
    if not seeds:
        return '- seeds: none (the guests start from the host\'s time of day)'
    def span(v):
        return f'{v[0]}-{v[-1]}' if len(v) > 1 else f'{v[0]}'
    same = ' (the same seeds: boots of one kernel repeat, see docs/bench.md, "Seeds")' \
        if seeds['A'] == seeds['B'] else ''
    return (f'- seeds (the guest\'s wall clock at power-on, one per round): '
            f'{la}: {span(seeds["A"])}, {lb}: {span(seeds["B"])}{same}')


def scale_shapes_note(meta):
    """What the report's machine line adds for the scale scenarios' boots."""
    shapes = sorted({p[2] for p in meta.get('passes', []) if len(p) > 2 and p[2]})
    if not shapes:
        return ''
    return (f'; the scale scenarios boot {", ".join(shapes)} '
            f'({meta.get("scale_rounds", 1)} round(s))')


def report(meta, rows, plots, flags=()):
    (la, ka), (lb, kb) = meta['sides']
    clock = {'icount': 'QEMU -icount (instruction-counted virtual time, single-threaded TCG)',
             'mttcg': 'multi-threaded TCG (real parallelism, host clock)'}[meta['clock']]
    lines = [
        f'# Workqueue benchmark: {ka} vs {kb}', '',
        f'- sides: **{la}** = `{ka}` kernel, **{lb}** = `{kb}` kernel'
        + same_kernel_note(meta, ka, kb),
        f'- clock: {clock}',
        seeds_line(meta.get('seeds'), la, lb),
        f'- scale: `{meta["scale"]}`, rounds: {meta["rounds"]} boots of each kernel, alternating',
        f'- kernel arguments: {la}: `{meta.get("args", {}).get("A") or "-"}`, '
        f'{lb}: `{meta.get("args", {}).get("B") or "-"}`',
        f'- machine: {meta["machine"]}' + scale_shapes_note(meta),
        f'- finished: {meta["finished"]}; failed boots: {meta["failed_boots"]}'
        + (f' ({", ".join(meta.get("failed", []))}: left out of every figure)'
           if meta["failed_boots"] else ''),
        '- boots in ABBA order (each round swaps which kernel boots first)'
        if meta.get('failed') is not None else '- boots in ABAB order', '',
        '## Flags', '',
        'Boots where a wait timed out, work was left unfinished or samples',
        'were dropped: their figures are in the medians but rest on less than',
        'the whole run.', '']
    lines += [f'- {f}' for f in flags] or ['- none']
    lines += [
        '',
        'Each cell is the median over the rounds with the min-max spread in',
        f'brackets; the ratio column is the ratio of the medians, {lb}/{la}: below',
        '1 means smaller (for times: faster; for rates: slower); n is the',
        'number of boots behind each median. Compare a ratio with the spreads:',
        'a ratio inside both spreads is noise; a ratio in **bold** lies outside',
        "both (each median is outside the other kernel's min-max). Within a",
        'boot, p50/p99/p999 are nearest-rank percentiles of its samples; a',
        "`.max` row is the median of the boots' maxima, and a `.min` row the",
        'median of their minima.', '',
        ]
    if meta['clock'] == 'icount':
        lines += [
            'Units. Under -icount the guest clock counts the instructions the',
            'vCPUs retire (one per nanosecond, idle time skipped), so times are',
            'printed as instruction counts (insn, kinsn, Minsn, Ginsn) and rates',
            'per 10^9 instructions (/Ginsn). The guests boot with `tsc=reliable`',
            'and read that clock through the TSC, to the instruction (the HPET',
            'they pick otherwise moves in steps of 10): a `queue_cost` row is',
            'the instructions of one call, timer reads included. Instructions',
            'are not cycles: caches, atomics and contention cost nothing here.',
            'The vCPUs take turns on one host thread:',
            'figures repeat from boot to boot, but several queuers on several',
            'vCPUs do not run in parallel, so throughput with more queuers',
            'measures overhead, not scaling (CLOCK=mttcg runs the vCPUs in',
            "parallel, on the host's clock, with more noise).", '']
    else:
        lines += [
            "Units. Under mttcg times are the guest's clock, which follows the",
            "host's: wall time of a guest whose 4 vCPUs share 2 host CPUs with",
            'everything else on the host; spreads are wider than under -icount.', '']
    lines += [
        '## Headline figures', '']
    for pattern, title in HEADLINE:
        lines += [f'### {title}', '', table(rows, meta, pattern), '']
    lines += ['## Plots', '']
    for path, title in plots:
        lines += [f'### {title}', '', f'![{title}]({os.path.basename(path)})', '']
    lines += ['## Every metric', '', table(rows, meta), '']
    return '\n'.join(lines)


def tail(hist):
    """(bucket lows, fraction of samples in higher buckets): the
    complementary CDF, which shows the rare slow items on a log scale."""
    xs = sorted(hist)
    total = sum(hist.values())
    acc, ys = 0, []
    for x in xs:
        acc += hist[x]
        ys.append(max(1 - acc / total, 0.5 / total))
    return xs, ys


def plot_all(meta, values, hists):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('warning: no matplotlib, no plots', file=sys.stderr)
        return []
    (la, _), (lb, _) = meta['sides']
    plots = []

    def save(fig, name, title):
        path = os.path.join(OUT, name)
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        plots.append((path, title))

    kinds = ['percpu', 'highpri', 'unbound', 'ordered', 'bh', 'rt', 'fifo_kthread']
    for hogs in range(3):
        if not any(f'latency.{k}.hogs{hogs}' in hists for k in kinds):
            continue
        fig, axes = plt.subplots(2, 4, figsize=(16, 6.5), sharex=True, sharey=True)
        for ax, k in zip(axes.flat, kinds):
            h = hists.get(f'latency.{k}.hogs{hogs}', {})
            for label, style in ((la, '-'), (lb, '--')):
                if label in h:
                    xs, ys = tail(h[label])
                    ax.step([x / 1000 for x in xs], ys, style, where='post', label=label)
            ax.set_xscale('log')
            ax.set_yscale('log')
            ax.set_title(k)
            ax.grid(True, alpha=0.3)
            ax.set_xlabel('queue-to-start latency (us)')
            ax.set_ylabel('fraction of items slower')
            ax.legend()
        fig.suptitle(f'Dispatch latency tail (1 - CDF, all rounds), {hogs} nice-0 '
                     'CPU hog(s) per CPU')
        save(fig, f'latency_hogs{hogs}.png',
             f'Dispatch latency distribution per workqueue kind, {hogs} hog(s) per CPU')

    fig, axes = plt.subplots(1, 5, figsize=(15, 3.6))
    for ax, k in zip(axes, kinds[:5]):
        for label, mark in ((la, 'o-'), (lb, 's--')):
            xs, med, lo, hi = [], [], [], []
            for q in (1, 2, 4):
                v = values.get(f'throughput.{k}.q{q}.rate', {}).get(label)
                if v:
                    m = statistics.median(v)
                    xs.append(q)
                    med.append(m / 1000)
                    lo.append((m - min(v)) / 1000)
                    hi.append((max(v) - m) / 1000)
            if xs:
                ax.errorbar(xs, med, yerr=[lo, hi], fmt=mark, capsize=3, label=label)
        ax.set_title(k)
        ax.set_xlabel('queuing threads')
        ax.set_ylabel('thousand items/s')
        ax.set_xticks([1, 2, 4])
        ax.grid(True, alpha=0.3)
        ax.legend()
    save(fig, 'throughput.png', 'Throughput against the number of queuing threads')

    names = sorted(n for n in values if re.match(r'perfwq\.wl\d\.[LS]\.job_time$', n))
    if names:
        fig, ax = plt.subplots(figsize=(9, 4))
        width = 0.38
        for i, (label, off) in enumerate(((la, -width / 2), (lb, width / 2))):
            med = [statistics.median(values[n].get(label, [0])) / 1e9 for n in names]
            err = [[(statistics.median(values[n][label]) - min(values[n][label])) / 1e9
                    for n in names],
                   [(max(values[n][label]) - statistics.median(values[n][label])) / 1e9
                    for n in names]] if all(label in values[n] for n in names) else None
            ax.bar([j + off for j in range(len(names))], med, width, yerr=err,
                   capsize=3, label=label)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([n.split('.')[1] + '/' + n.split('.')[2] for n in names])
        ax.set_ylabel('competing job time (s)')
        ax.set_title('perf-wq: competing CPU-bound job time per workload (lower is better)')
        ax.grid(True, axis='y', alpha=0.3)
        ax.legend()
        save(fig, 'perfwq.png', 'perf-wq competing job time per workload')

    delays = sorted({int(m.group(1)) for n in values
                     for m in [re.match(r'delay\.(\d+)ms\.lateness\.p50$', n)] if m})
    if delays:
        fig, ax = plt.subplots(figsize=(9, 4))
        for label, color, mark in ((la, 'tab:blue', 'o'), (lb, 'tab:orange', 's')):
            for stat, style in (('p50', '-'), ('p99', ':')):
                ys = [statistics.median(values.get(f'delay.{d}ms.lateness.{stat}', {})
                                        .get(label, [float('nan')])) / 1e6 for d in delays]
                ax.plot(delays, ys, style, marker=mark, color=color,
                        label=f'{label} {stat}')
        ax.set_xscale('log')
        ax.set_xlabel('requested delay (ms)')
        ax.set_ylabel('lateness (ms)')
        ax.set_title('Delayed work: how late items start')
        ax.grid(True, alpha=0.3)
        ax.legend()
        save(fig, 'delay.png', 'Delayed-work lateness per requested delay')
    return plots


def do_report():
    path = os.path.join(OUT, 'raw', 'meta.json')
    if not os.path.exists(path):
        sys.exit('no benchmark results: run make bench first')
    with open(path) as f:
        meta = json.load(f)
    meta['sides'] = [tuple(x) for x in meta['sides']]
    values, hists, units, flags = load(meta)
    derive(values, units)
    rows = summarize(meta, values, units)
    plots = plot_all(meta, values, hists)
    with open(os.path.join(OUT, 'report.md'), 'w') as f:
        f.write(report(meta, rows, plots, flags))
    (la, ka), (lb, kb) = meta['sides']
    summary = {'a': {'label': la, 'kernel': ka}, 'b': {'label': lb, 'kernel': kb},
               'clock': meta['clock'], 'scale': meta['scale'],
               'rounds': meta['rounds'], 'flags': flags, 'metrics': [
                   {'name': r['name'], 'unit': r['unit'],
                    'stock' if ka == 'stock' else la: r['a'],
                    'rework' if kb == 'rework' else lb: r['b'],
                    'ratio': r['ratio']} for r in rows]}
    with open(os.path.join(OUT, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    print(f'==> {os.path.relpath(os.path.join(OUT, "report.md"), TOP)}: '
          f'{len(rows)} metrics, {len(plots)} plots', file=sys.stderr)
    return 0


# Rates and shares of a ceiling are better higher; everything else lower.
HIGHER_IS_BETTER = re.compile(r'(\.rate|\.iops|of_ceiling)$')
COMPARE_LIMIT = 1.02


def load_summary(path):
    """{metric: (unit, side A stats, side B stats)} of a summary.json, and
    whether its clock was -icount."""
    if os.path.isdir(path):
        path = os.path.join(path, 'summary.json')
    with open(path) as f:
        summary = json.load(f)
    la, lb = summary['a']['label'], summary['b']['label']
    keys = [('stock' if summary['a']['kernel'] == 'stock' else la),
            ('rework' if summary['b']['kernel'] == 'rework' else lb)]
    return ({m['name']: (m['unit'], m.get(keys[0]), m.get(keys[1]))
             for m in summary['metrics']}, summary['clock'] == 'icount')


def worse_by(name, old, new):
    """How much worse NEW is than OLD (a median each): above 1 is worse."""
    if not old or not new:
        return None
    return old / new if HIGHER_IS_BETTER.search(name) else new / old


def compare_rows(old, new):
    """Every metric of side B that got worse by more than COMPARE_LIMIT."""
    rows = []
    for name in sorted(set(old) & set(new)):
        unit, oa, ob = old[name]
        _, na, nb = new[name]
        if not ob or not nb:
            continue
        worse = worse_by(name, ob['median'], nb['median'])
        if worse is None or worse <= COMPARE_LIMIT:
            continue
        a_worse = worse_by(name, oa['median'], na['median']) if oa and na else None
        outside = not ob['min'] <= nb['median'] <= ob['max']
        if a_worse is not None and a_worse > COMPARE_LIMIT:
            verdict = 'side A moved too'
        elif outside:
            verdict = '**outside the old spread**'
        else:
            verdict = 'inside the old spread'
        rows.append((name, unit, ob, nb, worse, a_worse, verdict))
    return rows


def compare(old_path, new_path):
    (old, _), (new, icount) = load_summary(old_path), load_summary(new_path)
    rows = compare_rows(old, new)
    lines = ['# Side B against the previous report', '',
             f'- old: `{old_path}`', f'- new: `{new_path}`',
             f'- metrics in both: {len(set(old) & set(new))}; worse by more than '
             f'{COMPARE_LIMIT:.2f}: {len(rows)}; of those outside the old spread '
             f'while side A did not move as much: '
             f'{sum(r[6].startswith("**") for r in rows)}', '',
             '"worse" is new/old for times and counts, old/new for rates; side A',
             "is the other kernel of the same boots (stock in a stock-vs-rework",
             'run): when it moved the same way, the run moved, not the kernel.', '',
             '| metric | old median (min-max) | new median (min-max) | worse by | side A worse by | verdict |',
             '|---|---|---|---|---|---|']
    for name, unit, ob, nb, worse, a_worse, verdict in rows:
        a = f'{a_worse:.3f}' if a_worse is not None else '-'
        lines.append(f'| {name} | {cell(ob, unit, icount)} | {cell(nb, unit, icount)} '
                     f'| {worse:.3f} | {a} | {verdict} |')
    text = '\n'.join(lines) + '\n'
    folder = new_path if os.path.isdir(new_path) else os.path.dirname(new_path)
    with open(os.path.join(folder, 'compare.md'), 'w') as f:
        f.write(text)
    print(text)
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == 'compare':
        return compare(argv[2], argv[3])
    if len(argv) == 2 and argv[1] == 'run':
        return run(settings())
    if len(argv) == 2 and argv[1] == 'report':
        return do_report()
    if len(argv) == 2 and argv[1] == 'configs':
        print(' '.join(dict.fromkeys(p[0] for p in passes(settings()))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
