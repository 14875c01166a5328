#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the tests of built kernels and report.

  testrun.py run WQ CONFIG       KUnit suite (kunit.py exec; when the
                                 kernel has KUnit), then the in-guest
                                 selftests and the load module's smoke
                                 run; writes $OUT/test/WQ-CONFIG/
  testrun.py torture WQ CONFIG SECS
                                 the torture test alone for SECS seconds
                                 (make torture); writes $OUT/torture/WQ-CONFIG/
  testrun.py summary WQ CONFIG...
                                 print the failures and the final line
                                 "N passed, N failed, N skipped"; exit 1 on
                                 any failure
  testrun.py torture-summary WQ CONFIG...
                                 the same for make torture's results

Every guest log is checked with logcheck: a WARN, splat, hung task or
stall in it counts as a failed test of its own.

On WQ=stock, a failed result listed in patches/stable/known-failures (a
6.12 bug that a patch of the stable series fixes) is an expected failure:
an "XFAIL" line naming the patch, counted apart ("N expected failures"
after "N skipped" on the final line), not a failure.  A listed result
that passes is an "XPASS" line ("N unexpected passes"), unless the list
marks it as a race that stock passes now and then; an XPASS does not fail
the run: the list is there to keep the stock run green unless something
new fails, and a case that stopped catching its bug (or a newer 6.12.y
that fixed it) is news for the list, not a failure of the kernel.  On
every other kernel the list does not apply.
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
import guest  # noqa: E402
import logcheck  # noqa: E402
import machine  # noqa: E402

TOP = guest.TOP
KUNIT_TIMEOUT = int(os.environ.get('KUNIT_TIMEOUT', '1800'))
SELFTEST_TIMEOUT = int(os.environ.get('SELFTEST_TIMEOUT', '900'))
# The selftests, then a tiny run of every load-module scenario (so that the
# benchmark's module cannot rot; loaded first where it is a module); the
# guest's exit status covers both.
SELFTEST_CMD = ('sh /selftests/workqueue/run_all.sh; rc=$?; '
                f'[ -e {guest.TWQ_RUN} ] || insmod /lib/modules/test_workqueue.ko; '
                f'echo all scale=tiny > {guest.TWQ_RUN} || rc=1; exit $rc')
# Boot-time isolation of CPU 1 (scheduler domains and the tick), checked
# by its own selftest in a boot of its own; the same boot turns the
# histograms off and sets the real-time class's priority where the kernel
# has them, which wq_hist_off.sh and wq_rt_prio.sh check.
ISOLATED_APPEND = 'isolcpus=domain,1 nohz_full=1'
ISOLATED_CMD = ('sh /selftests/workqueue/run_all.sh wq_isolation.sh '
                'wq_hist_off.sh wq_rt_prio.sh')
HIST_OFF_APPEND = 'workqueue.histograms=0'
RT_PRIO_APPEND = 'workqueue.rt_prio=7'
TWQ_SCENARIOS = ('perfwq', 'latency', 'throughput', 'flush', 'delay',
                 'inversion', 'rcu_exp')
# rcutorture, where the kernel has it as a module: expedited and polled
# expedited grace periods, a CPU going off or on every 200 jiffies, two
# leaf rcu_nodes (so that per-node initialisation runs on its queue), for
# RCUTORTURE_SECS; "End of test: SUCCESS" when the module is removed.
RCUTORTURE_SECS = int(os.environ.get('RCUTORTURE_SECS', '60'))
RCUTORTURE_PARAMS = ('torture_type=rcu gp_exp=1 gp_poll_exp=1 test_boost=0 '
                     'onoff_interval=200 onoff_holdoff=5 stat_interval=15')
RCUTORTURE_CMD = ('insmod /lib/modules/torture.ko && '
                  f'insmod /lib/modules/rcutorture.ko {RCUTORTURE_PARAMS} && '
                  f'sleep {RCUTORTURE_SECS} && rmmod rcutorture')
RCUTORTURE_APPEND = 'kunit.enable=0'
RCUTORTURE_PASS = 'End of test: SUCCESS'
# The workqueue torture test (wq_torture.sh) in a boot of its own: a short
# run in every test configuration, make torture's long ones.
TORTURE_SECS = int(os.environ.get('TORTURE_SECS', '30'))



def out_dir(wq, cfg, what='test'):
    path = os.path.join(guest.OUT, what, f'{wq}-{cfg}')
    os.makedirs(path, exist_ok=True)
    return path


def kunit_cases(group, prefix=''):
    """(name, status) of every leaf case in kunit.py's JSON."""
    for case in group.get('test_cases', []):
        yield prefix + case['name'], case['status']
    for sub in group.get('sub_groups', []):
        yield from kunit_cases(sub, prefix + sub['name'] + '.')


def log_result(name, log_path):
    """One result for a guest log: pass when logcheck finds nothing."""
    with open(log_path, errors='replace') as f:
        bad = logcheck.findings(f.read())
    return {'name': name, 'status': 'FAIL' if bad else 'PASS',
            'detail': bad[:20]}


def run_kunit(wq, cfg, out):
    obj = guest.objdir(wq, cfg)
    tree = guest.treedir(wq)
    js = os.path.join(out, 'kunit.json')
    if os.path.exists(js):
        os.unlink(js)
    cmd = [sys.executable, 'tools/testing/kunit/kunit.py', 'exec',
           '--build_dir', obj,
           '--qemu_config', os.path.join(TOP, 'harness', 'lib', 'kunit_qemu.py'),
           '--timeout', str(KUNIT_TIMEOUT), f'--json={js}']
    with open(os.path.join(out, 'kunit.out'), 'w') as f:
        subprocess.call(cmd, cwd=tree, stdout=f, stderr=subprocess.STDOUT)
    log = os.path.join(out, 'kunit.log')
    shutil.copyfile(os.path.join(obj, 'test.log'), log)
    results = []
    if os.path.exists(js):
        with open(js) as f:
            for name, status in kunit_cases(json.load(f)):
                results.append({'name': 'kunit: ' + name, 'status': status})
    if not results:
        results.append({'name': 'kunit: suite ran', 'status': 'FAIL',
                        'detail': ['no results: see kunit.out']})
    stopped = kunit_stopped_in(open(log, errors='replace').read())
    if stopped:
        results.append({'name': 'kunit: run reached the end', 'status': 'FAIL',
                        'detail': [stopped]})
    results.append(log_result('kunit: guest log clean', log))
    return results


TIMESTAMP = re.compile(r'^\[\s*[\d.]+\] ?')


def kunit_stopped_in(text):
    """Where a KUnit run that never finished stopped (a hung or crashed
    case): the suite it was in and the last case that ended, or None."""
    suite, last_case = None, None
    for raw in text.splitlines():
        line = TIMESTAMP.sub('', raw)
        if line.startswith('    # Subtest: '):
            suite, last_case = line.split(': ', 1)[1].strip(), None
        elif suite and re.match(r'    (not )?ok \d+ ', line):
            last_case = line.split(None, 3)[-1] if line.lstrip().startswith('not') \
                else line.split(None, 2)[-1]
        elif suite and re.match(r'(not )?ok \d+ ', line):
            suite = None
    if not suite:
        return None
    after = f'after case {last_case}' if last_case else 'in its first case'
    return f'stopped in suite {suite}, {after}: the next case hung or crashed'


def parse_ktap(text):
    """Results of the selftest programs between run_all.sh's markers."""
    results, prog, seen = [], None, set()
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('# selftest: '):
            prog = line.split(': ', 1)[1]
            continue
        if line.startswith('# selftest-exit: '):
            name, rc = line.split(': ', 1)[1].split()
            if name not in seen and rc not in ('0', '4'):
                results.append({'name': f'selftest: {name}', 'status': 'FAIL',
                                'detail': [f'exit status {rc}']})
            prog = None
            continue
        if not prog:
            continue
        if line.startswith('1..0 # SKIP'):
            results.append({'name': f'selftest: {prog}', 'status': 'SKIP',
                            'detail': [line]})
            seen.add(prog)
            continue
        for mark, status in (('not ok ', 'FAIL'), ('ok ', 'PASS')):
            if line.startswith(mark):
                desc = line[len(mark):].split(' ', 1)[1] if ' ' in line[len(mark):] else ''
                if '# SKIP' in desc:
                    status, desc = 'SKIP', desc.split('# SKIP')[0].strip()
                results.append({'name': f'selftest: {prog}: {desc}',
                                'status': status})
                seen.add(prog)
                break
    return results


def parse_module_run(text):
    """One result per load-module scenario of the tiny run: it began,
    finished without failing or timing out in a wait (NAME.timeouts),
    and printed well-formed results."""
    results = []
    bad_json = [line for line in text.splitlines() if 'TWQ-RESULT ' in line
                and not _json_ok(line.split('TWQ-RESULT ', 1)[1])]
    for name in TWQ_SCENARIOS:
        begun = f'TWQ-BEGIN {name} ' in text
        done = [line for line in text.splitlines() if f'TWQ-DONE {name} ' in line]
        timeouts = [line for line in text.splitlines()
                    if f'"name":"{name}.timeouts"' in line]
        ok = begun and done and '(failed)' not in done[0] and not timeouts
        results.append({'name': f'module: {name} scenario (tiny run)',
                        'status': 'PASS' if ok else 'FAIL',
                        'detail': timeouts[:1] + done[:1] or ['did not finish']})
    results.append({'name': 'module: results are well-formed JSON',
                    'status': 'FAIL' if bad_json else 'PASS',
                    'detail': bad_json[:5]})
    return results


def _json_ok(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def boot_selftests(wq, cfg, out, what, cmd, append, timeout=SELFTEST_TIMEOUT,
                   clock=None):
    """Boot kernel WQ-CFG once to run CMD; results of the selftests in it."""
    obj = guest.objdir(wq, cfg)
    log = os.path.join(out, what.replace(' ', '-') + '.log')
    text, finished, _ = guest.boot(
        os.path.join(obj, 'arch/x86/boot/bzImage'),
        os.path.join(obj, 'initramfs.cpio'), cmd, log,
        append=append, timeout=timeout, clock=clock)
    results = parse_ktap(text)
    results.append({'name': f'{what}: guest ran to the end',
                    'status': 'PASS' if finished else 'FAIL',
                    'detail': [] if finished else
                    [f'timed out or died: see {os.path.basename(log)}']})
    results.append(log_result(f'{what}: guest log clean', log))
    return results, text


def run_selftests(wq, cfg, out):
    results, text = boot_selftests(wq, cfg, out, 'selftests', SELFTEST_CMD,
                                   'kunit.enable=0')
    return results + parse_module_run(text)


def has_symbol(wq, cfg, name):
    """Whether the kernel's System.map has the symbol NAME."""
    with open(os.path.join(guest.objdir(wq, cfg), 'System.map')) as f:
        return any(line.rstrip().endswith(' ' + name) for line in f)


def run_isolated(wq, cfg, out):
    """The isolation selftest, booted with one CPU isolated (not on UP),
    with the histograms off and the real-time class at another priority
    where the kernel has them.

    Not on PREEMPT_RT: there, 6.12's RCU itself splats as soon as
    nohz_full= offloads a CPU's callbacks ("Unsafe read of RCU_NOCB
    offloaded state" from rcu_core() in an rcuc kthread, which runs
    preemptible), on stock as on the rework."""
    with open(os.path.join(guest.objdir(wq, cfg), '.config')) as f:
        config = f.read()
    if 'CONFIG_NO_HZ_FULL=y\n' not in config:
        return []
    if 'CONFIG_PREEMPT_RT=y\n' in config:
        return [{'name': 'isolated boot', 'status': 'SKIP',
                 'detail': ['PREEMPT_RT: 6.12 RCU splats with nohz_full=']}]
    # -icount: the culled-worker check idles through the 5 min idle
    # timeout, which costs no host time there
    append = f'kunit.enable=0 {ISOLATED_APPEND}'
    if has_symbol(wq, cfg, 'workqueue_hist_read'):
        append += ' ' + HIST_OFF_APPEND
    if has_symbol(wq, cfg, 'wq_rt_prio'):
        append += ' ' + RT_PRIO_APPEND
    return boot_selftests(wq, cfg, out, 'isolated boot', ISOLATED_CMD,
                          append, clock='icount')[0]


def run_torture(wq, cfg, out, secs=TORTURE_SECS):
    """wq_torture.sh for SECS seconds in a boot of its own."""
    cmd = (f'WQ_TORTURE_SECS={secs} '
           'sh /selftests/workqueue/run_all.sh wq_torture.sh')
    # a hung run is over once it has had twice its time and 5 min more
    return boot_selftests(wq, cfg, out, f'torture {secs}s', cmd,
                          'kunit.enable=0', timeout=2 * secs + 300)[0]


def run_rcutorture(wq, cfg, out):
    """rcutorture in a boot of its own, where the kernel has the module."""
    obj = guest.objdir(wq, cfg)
    if not os.path.exists(os.path.join(obj, 'kernel/rcu/rcutorture.ko')):
        return []
    log = os.path.join(out, 'rcutorture.log')
    text, finished, status = guest.boot(
        os.path.join(obj, 'arch/x86/boot/bzImage'),
        os.path.join(obj, 'initramfs.cpio'), RCUTORTURE_CMD, log,
        append=RCUTORTURE_APPEND, timeout=SELFTEST_TIMEOUT)
    ok = finished and status == 0 and RCUTORTURE_PASS in text
    return [{'name': 'rcutorture: expedited GPs with CPU hotplug',
             'status': 'PASS' if ok else 'FAIL',
             'detail': [] if ok else [f'no "{RCUTORTURE_PASS}": see {os.path.basename(log)}']},
            log_result('rcutorture: guest log clean', log)]


def has_kunit(wq, cfg):
    """Whether the kernel was built with KUnit (kvmguest is not)."""
    with open(os.path.join(guest.objdir(wq, cfg), '.config')) as f:
        return 'CONFIG_KUNIT=y\n' in f.read()


def run(wq, cfg):
    out = out_dir(wq, cfg)
    record_machine(out)
    results = run_kunit(wq, cfg, out) if has_kunit(wq, cfg) else []
    results += run_selftests(wq, cfg, out)
    results += run_isolated(wq, cfg, out)
    results += run_torture(wq, cfg, out)
    results += run_rcutorture(wq, cfg, out)
    with open(os.path.join(out, 'results.json'), 'w') as f:
        json.dump(results, f, indent=1)
    return 0


def torture(wq, cfg, secs):
    """make torture: only the torture test, for SECS seconds."""
    out = out_dir(wq, cfg, 'torture')
    record_machine(out)
    with open(os.path.join(out, 'results.json'), 'w') as f:
        json.dump(run_torture(wq, cfg, out, secs), f, indent=1)
    return 0


def record_machine(out):
    """Note in OUT the accelerator, and the guests' shape where it is not
    the default, for the summary."""
    note = machine.accel()
    if machine.shape() != machine.SHAPES['4x2n']:
        note += ', ' + machine.describe()
    with open(os.path.join(out, 'accel'), 'w') as f:
        f.write(note + '\n')


def accel_note(out):
    """', guests under kvm' (or tcg, and the shape) as run() recorded it
    in OUT."""
    try:
        with open(os.path.join(out, 'accel')) as f:
            return f', guests under {f.read().strip()}'
    except OSError:
        return ''


# Results that fail on stock 6.12 because of a bug the stable series fixes
# (a line: the patch's file name in patches/stable/, "~" before it for a
# race that stock also passes, then a pattern of result names); read for
# WQ=stock only.
KNOWN_FAILURES = os.path.join(TOP, 'patches', 'stable', 'known-failures')
KNOWN_FAILURES_WQ = ('stock',)


def known_failures(wq):
    """[(name pattern, patch, racy)] of the known 6.12 failures for WQ."""
    if wq not in KNOWN_FAILURES_WQ or not os.path.exists(KNOWN_FAILURES):
        return []
    known = []
    with open(KNOWN_FAILURES) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                patch, pattern = line.split(None, 1)
                known.append((pattern, patch.lstrip('~'), patch.startswith('~')))
    return known


def known_patch(name, known):
    """(patch, racy) for the 6.12 bug result NAME fails for, or (None, False)."""
    for pattern, patch, racy in known:
        if fnmatch.fnmatchcase(name, pattern):
            return patch, racy
    return None, False


def count_line(c, known):
    """"N passed, N failed, N skipped" and the extras that apply."""
    line = f'{c["PASS"]} passed, {c["FAIL"]} failed, {c["SKIP"]} skipped'
    if known:
        line += f', {c["XFAIL"]} expected failures'
    if c['XPASS']:
        line += f', {c["XPASS"]} unexpected passes'
    return line


def summary(wq, cfgs, what='test'):
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'XFAIL': 0, 'XPASS': 0}
    known = known_failures(wq)
    for cfg in cfgs:
        path = os.path.join(out_dir(wq, cfg, what), 'results.json')
        if not os.path.exists(path):
            print(f'{wq}-{cfg}: no results')
            counts['FAIL'] += 1
            continue
        with open(path) as f:
            results = json.load(f)
        c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'XFAIL': 0, 'XPASS': 0}
        for r in results:
            st = r['status'] if r['status'] in ('PASS', 'FAIL', 'SKIP') else 'FAIL'
            patch, racy = known_patch(r['name'], known)
            if patch and st == 'FAIL':
                st = 'XFAIL'
                print(f'XFAIL {wq}-{cfg}: {r["name"]} '
                      f'(6.12 bug, fixed by patches/stable/{patch})')
            elif patch and st == 'PASS' and not racy:
                c['XPASS'] += 1
                print(f'XPASS {wq}-{cfg}: {r["name"]} (listed as failing for the '
                      f'6.12 bug patches/stable/{patch} fixes; passed this time)')
            c[st] += 1
            if st == 'FAIL':
                print(f'FAILED {wq}-{cfg}: {r["name"]}')
                for d in r.get('detail', []):
                    print(f'    {d}')
        print(f'{wq}-{cfg}: {count_line(c, known)} '
              f'({os.path.relpath(os.path.dirname(path), TOP)}/'
              f'{accel_note(os.path.dirname(path))})')
        for k in counts:
            counts[k] += c[k]
    print(count_line(counts, known))
    return 1 if counts['FAIL'] else 0


def main(argv):
    if len(argv) == 4 and argv[1] == 'run':
        return run(argv[2], argv[3])
    if len(argv) >= 4 and argv[1] == 'summary':
        return summary(argv[2], argv[3:])
    if len(argv) == 5 and argv[1] == 'torture':
        return torture(argv[2], argv[3], int(argv[4]))
    if len(argv) >= 4 and argv[1] == 'torture-summary':
        return summary(argv[2], argv[3:], 'torture')
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
