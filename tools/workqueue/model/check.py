#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check.py [-v] [-j N] [CONFIG...]: check the Promela models of this
directory with Spin, exhaustively: every property must hold on the model
of the current code, and every bug put back (spin -DBUG_...) must break
the property it names.  One line per model, property and variant: states
stored, result.  A counterexample is replayed and printed as code steps
(the model's "@ " printf lines); expected ones go to files beside the pan
builds in $OUT/model (-v prints them too).  -j: pan builds at once (one
per CPU).  Exit status 1 if anything is not as expected."""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "../../.."))
OUT = os.path.join(os.environ.get("OUT", os.path.join(TOP, "out")), "model")

# A finding: a property the current code breaks, reported and awaiting
# its fix; the check expects the counterexample until the mark is dropped.
FINDING = "finding"

# (configuration, model file, -D defines, [(property, bugs that break it)])
CHECKS = [
    ("items", "items.pml", [], [
        ("no_reentry", ["BUG_REENTRANT"]),
        ("cancel_waits", ["BUG_CANCEL_NO_DISABLE"]),
        ("no_lost", ["BUG_LATE_CLEAR"]),
    ]),
    ("flushwq", "flushwq.pml", [], [
        ("flush_no_early", ["BUG_OWN_COLOR"]),
        ("flushes_return", ["BUG_NO_CLOSING_REF"]),
    ]),
    ("flushwork", "flushwork.pml", [], [
        ("flush_no_early", ["BUG_BARRIERS_TO_WORKLIST",
                            "BUG_ACTIVE_BARRIERS_LEFT"]),
        ("flush_returns", ["BUG_MISSING_WAKEUP"]),
    ]),
    ("ordered", "ordered.pml", [], [
        ("one_at_a_time", ["BUG_NO_PLUG"]),
        ("in_order", ["BUG_CPU_ENTRY"]),
    ]),
    ("ordered-requeue", "ordered.pml", ["SCEN_REQUEUE"], [
        ("one_at_a_time", []),
        ("flush_no_early", ["BUG_FLUSH_GIVES_UP_ON_MOVED",
                            "BUG_NAME_RUNNER_LATE", "BUG_ONLY_QUEUED_MOVES"]),
        ("cancel_waits", ["BUG_FORGET_RUNNER"]),
        ("returns", ["BUG_612_CANCEL"]),
    ]),
    ("ordered-requeue2", "ordered.pml", ["SCEN_REQUEUE", "REQUEUE_TWICE"], [
        ("one_at_a_time", []),
        ("flush_no_early", ["BUG_PEEKED_RUNNER_WINS"]),
        ("cancel_waits", ["BUG_PEEKED_RUNNER_WINS"]),
        ("returns", []),
    ]),
    ("ordered-link-cancel", "ordered.pml", ["SCEN_REQUEUE", "LINK_THEN_CANCEL"], [
        ("flush_no_early", ["BUG_PLUGGED_BARRIERS_TO_WORKLIST"]),
    ]),
    ("quota", "quota.pml", [], [
        ("no_stall", ["BUG_HANDOFF_UNLOCKED", "BUG_STALE_WAITER"]),
        ("within_quota", ["BUG_RACY_TAKE"]),
    ]),
    ("quota-3pods", "quota.pml", ["THREE_PODS"], [
        ("no_stall", []),
        ("within_quota", []),
    ]),
]

CODE = "current code"


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def liveness(model, prop):
    """Whether the ltl formula @prop of @model says "eventually" (<>)."""
    text = open(os.path.join(HERE, model)).read()
    m = re.search(r"\bltl\s+%s\s*\{(.*?)\}\s*$" % prop, text, re.S | re.M)
    if not m:
        raise SystemExit("%s: no ltl %s" % (model, prop))
    return "<>" in m.group(1)


def steps(pan, model, prop):
    """The counterexample in @pan's directory as code steps."""
    trail = os.path.basename(model) + ".trail"
    out = run(["./pan", "-r", trail, "-S", "-N", prop], pan).stdout.splitlines()
    lines = []
    for line in out:
        if line.startswith("@ "):
            lines.append("  " + line[2:])
        elif "START OF CYCLE" in line:
            lines.append("  -- from here on, this repeats forever --")
    if lines and lines[-1].endswith("forever --"):
        lines[-1] = "  -- and then nothing else happens --"
    return "\n".join(lines) + "\n"


def check(config, model, defines, variant, props):
    """Build pan for one variant and check its properties: result rows."""
    pan = os.path.join(OUT, config, variant.replace(" ", "-"))
    shutil.rmtree(pan, ignore_errors=True)
    os.makedirs(pan)
    flags = ["-D" + d for d in defines]
    if variant != CODE:
        flags.append("-D" + variant)
    r = run(["spin"] + flags + ["-a", os.path.join(HERE, model)], pan)
    if r.returncode or not os.path.exists(os.path.join(pan, "pan.c")):
        return [(config, p, variant, 0, "FAILED: spin -a", r.stdout) for p in props]
    r = run(["gcc", "-O1", "-w", "-DNFAIR=3", "-DCOLLAPSE", "-o", "pan", "pan.c"], pan)
    if r.returncode:
        return [(config, p, variant, 0, "FAILED: gcc", r.stdout) for p in props]
    rows = []
    for prop, expect in props:
        live = liveness(model, prop)
        # exhaustive: no bitstate; weak fairness for "eventually"; the
        # shortest counterexample of a safety property (-i)
        r = run(["./pan", "-N", prop, "-m1000000"] + (["-a", "-f"] if live else ["-i"]), pan)
        states = re.search(r"(\d+) states, stored", r.stdout)
        errors = re.search(r"errors: (\d+)", r.stdout)
        states = int(states.group(1)) if states else 0
        if not errors or "too small" in r.stdout:
            rows.append((config, prop, variant, states, "FAILED: pan", r.stdout))
            continue
        trail = steps(pan, model, prop) if int(errors.group(1)) else ""
        if trail:
            with open(os.path.join(pan, prop + ".steps"), "w") as f:
                f.write(trail)
        if expect == "holds":
            result = "holds" if not trail else "COUNTEREXAMPLE"
        elif expect == FINDING:
            result = ("counterexample found (open finding, README.md)" if trail
                      else "HOLDS: the finding is fixed, drop its mark in check.py")
        else:
            result = ("expected counterexample found" if trail
                      else "NO COUNTEREXAMPLE: the bug went unnoticed")
        rows.append((config, prop, variant, states, result, trail))
    return rows


def jobs(configs):
    """One job per configuration and variant: (args of check())."""
    for config, model, defines, props in CHECKS:
        if configs and config not in configs:
            continue
        code = [(p, FINDING if FINDING in bugs else "holds") for p, bugs in props]
        yield (config, model, defines, CODE, code)
        for prop, bugs in props:
            for bug in bugs:
                if bug != FINDING:
                    yield (config, model, defines, bug, [(prop, bug)])


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    njobs = os.cpu_count() or 1
    if argv[:1] == ["-j"]:
        njobs, argv = int(argv[1]), argv[2:]
    for tool in ("spin", "gcc"):
        if not shutil.which(tool):
            raise SystemExit("error: %s not found: run harness/deps.sh as root" % tool)
    start = time.time()
    bad = total = 0
    print("%-20s %-15s %-33s %9s  %s" % ("model", "property", "variant", "states", "result"))
    with concurrent.futures.ThreadPoolExecutor(njobs) as pool:
        futures = [pool.submit(check, *job) for job in jobs(argv)]
        for future in futures:
            for config, prop, variant, states, result, detail in future.result():
                total += 1
                ok = result.startswith(("holds", "expected", "counterexample found"))
                bad += not ok
                print("%-20s %-15s %-33s %9d  %s" % (config, prop, variant, states, result),
                      flush=True)
                if detail and (not ok or verbose or "finding" in result):
                    print(detail, end="")
    print("%d checks, %d not as expected, %.0f s (pan builds and counterexamples in %s)"
          % (total, bad, time.time() - start, os.path.relpath(OUT, os.getcwd())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
