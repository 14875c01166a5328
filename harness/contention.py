#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Project unbound workqueue throughput against CPUs per last-level cache.

  contention.py [--check] [--summary SUMMARY.json] [--lock-work R]
                [--cpus N...] [--shard S] [--smt T]

The model (docs/contention.md): every CPU of a pod queues items on the
pod's pool, and each item needs the pool's lock for D in all (the lock
acquisitions per item times their hold) and Z of work outside it.  A pod
of n CPUs is then a closed queueing network of n customers, a delay
centre Z and one queue, the lock, of demand D; exact mean value analysis
gives its throughput X(n), and a cache of L CPUs cut into pods gives the
sum of its pods'.

Z and D are fitted to the published NVIDIA Grace figures of 7.1's
test_workqueue benchmark (72 CPUs in one LLC): the `cpu` scope (a pod per
CPU: n = 1) gives Z + D, the `cache` scope (one pod: n = 72) gives D.
--check predicts the third figure, `cache_shard` (9 pods of 8), from
those two and prints the error: the model is trusted no further than
that.

Ours: the lock work per item relative to stock's, R = (acquisitions x
hold) ours / stock's, scales D.  R comes from --lock-work, or from a bench
SUMMARY.json: the unbound items' lock hold per item on the cache scope of
the scale_lock_lean scenario (scale.*x1llc.lock_lean.unbound.cache.*,
lockdep's assertions compiled out of both kernels, as without lockdep),
and of the scale_lock scenario (lock.*, the kernels as built, which count
each kernel's assertions).  The first R the summary has is projected; the
other is shown at the same CPU counts beside it.
"""
import argparse
import re
import sys

# 7.1's test_workqueue on NVIDIA Grace (72 CPUs, one LLC, 50k items per
# thread), items/s, from the commit message of "workqueue: add
# WQ_AFFN_CACHE_SHARD affinity scope" (v1 of the series, 2026-03-12).
GRACE_CPUS = 72
GRACE = {'cpu': 3433158, 'smt': 3449709, 'cache_shard': 2939917,
         'cache': 602096, 'numa': 599090, 'system': 598865}
GRACE_SHARD = 8


def mva(n, z, d):
    """Throughput of a closed network of N customers, think time Z and
    one queueing centre of demand D (exact mean value analysis)."""
    q = 0.0
    x = 0.0
    for k in range(1, n + 1):
        r = d * (1 + q)
        x = k / (z + r)
        q = x * r
    return x


def fit_d(x_total, n, z_plus_d):
    """D such that mva(n, Z, D) = x_total with Z + D fixed (bisection)."""
    lo, hi = 1e-12, z_plus_d
    for _ in range(200):
        d = (lo + hi) / 2
        if mva(n, z_plus_d - d, d) > x_total:
            lo = d
        else:
            hi = d
    return (lo + hi) / 2


def fit():
    """(Z, D) in seconds, fitted to Grace's cpu and cache figures."""
    z_plus_d = GRACE_CPUS / GRACE['cpu']
    d = fit_d(GRACE['cache'], GRACE_CPUS, z_plus_d)
    return z_plus_d - d, d


def pods(cpus, shard, smt):
    """Pod sizes of an LLC of CPUS cut as 7.1's cache_shard cuts it: cores
    (SMT siblings together) in runs of at most SHARD, as equal as can be."""
    cores = cpus // smt
    n = -(-cores // shard)
    return [(cores // n + (1 if i < cores % n else 0)) * smt for i in range(n)]


def llc_throughput(sizes, z, d):
    return sum(mva(s, z, d) for s in sizes)


# The summary's rows R comes from, the first that has both sides first.
LOCK_ROWS = (('lock_lean', 'assertions compiled out'), ('lock', 'as built'))


def lock_work_ratios(path):
    """[(R, what)] from a bench summary, in LOCK_ROWS' order: side B's
    unbound lock hold per item over side A's on the cache scope (stock
    has no other), at the largest single-LLC shape that has both."""
    from bench import load_summary  # pylint: disable=import-outside-toplevel
    rows, _ = load_summary(path)
    out = []
    for prefix, what in LOCK_ROWS:
        r = lock_work_ratio(rows, prefix)
        if r is not None:
            print(f'R ({what}) = {r[2]:.0f} / {r[1]:.0f} insn = {r[0]:.3f}, '
                  f'from {r[3]} ({path})')
            out.append((r[0], what))
    if not out:
        sys.exit(f'{path}: no scale.*x1llc.lock*.unbound.cache.hold_per_item row '
                 'with both sides: run make bench with the scale_lock scenarios')
    return out


def lock_work_ratio(rows, prefix):
    """(R, stock's hold, ours, row) of the PREFIX rows, or None."""
    best = None
    for name, (_, a, b) in rows.items():
        m = re.fullmatch(rf'scale\.(\d+)x1llc\.{prefix}\.unbound\.cache\.hold_per_item', name)
        if m and a and b and a['median']:
            cpus = int(m.group(1))
            if best is None or cpus > best[0]:
                best = (cpus, b['median'] / a['median'], a['median'], b['median'], name)
    return best[1:] if best else None


def check(z, d):
    """Print the fit and its test against the published cache_shard figure."""
    sizes = pods(GRACE_CPUS, GRACE_SHARD, 1)
    pred = llc_throughput(sizes, z, d)
    pub = GRACE['cache_shard']
    print(f'fit: Z = {z * 1e6:.2f} us outside the lock, D = {d * 1e6:.3f} us of lock per item')
    print(f'      (cpu: {GRACE["cpu"]} items/s at n=1; cache: {GRACE["cache"]} at n=72)')
    print(f'check: cache_shard, {len(sizes)} pods of {sizes[0]}: model {pred:,.0f} items/s, '
          f'published {pub:,}: {100 * (pred - pub) / pub:+.1f}%')
    print(f'       cache_shard / cache: model {pred / GRACE["cache"]:.2f}x, '
          f'published {pub / GRACE["cache"]:.2f}x')
    return abs(pred - pub) / pub


def project(z, d, ratio, cpus_list, shard, smt, also=()):
    """The table: items/s per LLC for stock's cache and cache_shard and
    ours (cache and cache_shard, lock work scaled by RATIO); ALSO, other
    (R, what), adds a column of our cache_shard's over stock's with each."""
    d_ours = d * ratio
    print(f'\nitems/s per LLC (M), SMT {smt}, cache_shard_size {shard}, '
          f'our lock work per item {ratio:.3f}x stock\'s')
    for r, what in also:
        print(f'last column: the ratio with R = {r:.3f} ({what})')
    print(f'{"CPUs/LLC":>8} {"stock cache":>12} {"stock shard":>12} '
          f'{"ours cache":>11} {"ours shard":>11} {"ours shard/stock shard":>23}'
          + ''.join(f' {"R " + format(r, ".3f"):>9}' for r, _ in also))
    for n in cpus_list:
        sizes = pods(n, shard, smt)
        sc, ss = mva(n, z, d), llc_throughput(sizes, z, d)
        oc, os_ = mva(n, z, d_ours), llc_throughput(sizes, z, d_ours)
        print(f'{n:>8} {sc / 1e6:>12.2f} {ss / 1e6:>12.2f} {oc / 1e6:>11.2f} '
              f'{os_ / 1e6:>11.2f} {os_ / ss:>23.3f}'
              + ''.join(f' {llc_throughput(sizes, z, d * r) / ss:>9.3f}' for r, _ in also))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='only the fit and its check against Grace')
    ap.add_argument('--summary', help='a bench summary.json with the scale rows')
    ap.add_argument('--lock-work', type=float, default=None,
                    help='our lock work per item over stock\'s (default 1)')
    ap.add_argument('--cpus', type=int, nargs='+', default=[8, 16, 32, 64, 72, 96, 128])
    ap.add_argument('--shard', type=int, default=GRACE_SHARD)
    ap.add_argument('--smt', type=int, default=1)
    args = ap.parse_args()
    if args.shard < 1 or args.smt < 1 or min(args.cpus) < 1:
        ap.error('--cpus, --shard and --smt take positive numbers')
    if any(n % args.smt for n in args.cpus):
        ap.error('every --cpus value must be a multiple of --smt')
    z, d = fit()
    err = check(z, d)
    if args.check:
        return 0 if err < 0.15 else 1
    if args.lock_work is not None:
        ratios = [(args.lock_work, '--lock-work')]
    elif args.summary:
        ratios = lock_work_ratios(args.summary)
    else:
        ratios = [(1.0, 'stock\'s')]
    project(z, d, ratios[0][0], args.cpus, args.shard, args.smt, ratios[1:])
    return 0


if __name__ == '__main__':
    sys.exit(main())
