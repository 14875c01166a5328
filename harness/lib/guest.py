#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a harness kernel in QEMU (TCG) with the harness initramfs.

  guest.py run WQ CONFIG [CMD]   boot; run CMD in the guest and power off,
                                 or give an interactive shell without CMD

As a library: boot() runs one guest to completion and returns its console
output.  A guest that does not finish in time gets SysRq dumps (blocked
tasks, all CPUs' backtraces, workqueue state) through the QEMU console
multiplexer before it is killed, so the log says where it hung.
"""
import os
import re
import select
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
from machine import MEM_MB, check_kernel_fits, qemu_args  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
# Where results go: $OUT as common.sh has it (and exports), else out/.
OUT = os.environ.get('OUT', os.path.join(TOP, 'out'))
EXIT_MARK = 'GUEST-EXIT: '
SYSRQ_ON_TIMEOUT = 'wlt'	# blocked tasks, CPU backtraces, timers
STDIO_CONSOLE = 'mon:stdio'	# on this terminal, with the monitor (Ctrl-A)
# The load module's (lib/test_workqueue.c) debugfs file in the guest: a
# line written to it runs scenarios.
TWQ_RUN = '/sys/kernel/debug/test_workqueue/run'


# The harness's paths, as common.sh has them for the shell scripts.
def objdir(wq, cfg):
    return os.path.join(BUILD, wq, f'obj-{cfg}')


def treedir(wq):
    return os.path.join(BUILD, wq, 'src')


def _cpio_entry(name, data, mode):
    """One 'newc' cpio member."""
    name_b = name.encode() + b'\0'
    hdr = '070701' + ''.join(f'{v:08x}' for v in (
        0, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
    out = hdr.encode() + name_b
    out += b'\0' * (-len(out) % 4)
    out += data + b'\0' * (-len(data) % 4)
    return out


def cmd_initrd(base, cmd, path):
    """Write BASE's initramfs plus a second archive holding /cmd to PATH
    (the kernel unpacks concatenated archives in order)."""
    extra = _cpio_entry('cmd', cmd.encode() + b'\n', 0o100755)
    extra += _cpio_entry('TRAILER!!!', b'', 0)
    shutil.copyfile(base, path)
    with open(path, 'ab') as f:
        f.write(extra)
    return path


def qemu_command(kernel, initrd, append, clock=None, serial=STDIO_CONSOLE,
                 extra=(), sh=None):
    """QEMU's command line; SH: the machine's shape (machine.Shape), by
    default machine.shape()'s."""
    # the build directory's .config, three levels above arch/x86/boot/bzImage
    check_kernel_fits(os.path.join(os.path.dirname(kernel), '..', '..', '..',
                                   '.config'), sh)
    display = ['-nographic'] if serial == STDIO_CONSOLE else ['-display', 'none']
    return (['qemu-system-x86_64', '-nodefaults', '-no-reboot'] + display +
            ['-m', str(MEM_MB), '-bios', 'qboot.rom', '-serial', serial,
             '-kernel', kernel, '-initrd', initrd,
             '-append', f'console=ttyS0 panic=-1 {append}'.strip()]
            + qemu_args(clock, sh) + list(extra))


def _sysrq(proc, keys):
    """SysRq through the console multiplexer: Ctrl-A b sends a break."""
    for k in keys:
        try:
            proc.stdin.write(b'\x01b' + k.encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return
        time.sleep(1)


def exit_status(text):
    """CMD's exit status as the guest printed it, or None."""
    status = None
    for line in text.splitlines():
        if EXIT_MARK in line:
            # a kernel message may run on right after the number
            m = re.match(r'\d+', line.split(EXIT_MARK, 1)[1])
            if m:
                status = int(m.group(0))
    return status


def _run_guest(follow, serial, kernel, initrd, cmd, log_path, append,
               timeout, clock, progress, extra, sh=None):
    """What boot() and boot_quiet() share: run CMD in a guest with its
    console on SERIAL (QEMU's -serial) and FOLLOW(proc, log_path, timeout,
    progress) reading it until the guest ends or is killed; FOLLOW returns
    the console text and whether the guest timed out.  Returns boot()'s
    (output, finished, exit_status)."""
    run_initrd = cmd_initrd(initrd, cmd, log_path + '.initrd')
    # A console on stdio needs pipes (SysRq goes in through stdin); one in
    # a file needs none, and nothing else QEMU prints is wanted.
    stdio = subprocess.PIPE if serial == STDIO_CONSOLE else subprocess.DEVNULL
    proc = subprocess.Popen(qemu_command(kernel, run_initrd, append, clock,
                                         serial=serial, extra=extra, sh=sh),
                            stdin=stdio, stdout=stdio, stderr=subprocess.STDOUT)
    text, timed_out = follow(proc, log_path, timeout, progress)
    proc.wait()
    os.unlink(run_initrd)
    status = exit_status(text)
    return text, (status is not None and not timed_out), status


def _follow_file(proc, log_path, timeout, progress):
    """boot_quiet()'s console: the file QEMU writes, passed to PROGRESS
    once a second; the guest is killed at TIMEOUT."""
    deadline = time.monotonic() + timeout
    seen = 0
    timed_out = False
    while proc.poll() is None:
        if time.monotonic() > deadline:
            timed_out = True
            proc.kill()
            break
        time.sleep(1)
        if progress and os.path.exists(log_path):
            with open(log_path, 'rb') as f:
                f.seek(seen)
                chunk = f.read()
            seen += len(chunk)
            if chunk:
                progress(chunk)
    proc.wait()				# all QEMU wrote is in the file
    with open(log_path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    if timed_out:
        msg = f'\n*** harness: guest timed out after {timeout}s ***\n'
        text += msg
        with open(log_path, 'a') as f:
            f.write(msg)
    return text, timed_out


def _follow_pipe(proc, log_path, timeout, progress):
    """boot()'s console: QEMU's stdout, copied to LOG_PATH and PROGRESS as
    it comes; at TIMEOUT the guest gets SysRq dumps and 10 s for them
    before it is killed."""
    out = bytearray()
    deadline = time.monotonic() + timeout
    timed_out = False
    with open(log_path, 'wb') as log:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 and not timed_out:
                timed_out = True
                msg = f'\n*** harness: guest timed out after {timeout}s, SysRq {SYSRQ_ON_TIMEOUT} ***\n'
                out += msg.encode()
                log.write(msg.encode())
                _sysrq(proc, SYSRQ_ON_TIMEOUT)
                deadline = time.monotonic() + 10
                continue
            if left <= 0:
                proc.kill()
                break
            ready, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk
            log.write(chunk)
            log.flush()
            if progress:
                progress(chunk)
    return out.decode('utf-8', 'replace'), timed_out


def boot_quiet(kernel, initrd, cmd, log_path, append='', timeout=900,
               clock=None, progress=None, extra=(), sh=None):
    """Like boot(), with the console going straight to LOG_PATH.

    QEMU writes a file console without ever blocking, so the guest's
    console driver never waits on the host: under -icount nothing of the
    host's timing reaches the guest through it.  No SysRq on timeout.
    EXTRA: more QEMU arguments; SH: a machine.Shape other than
    machine.shape()'s."""
    if os.path.exists(log_path):
        os.unlink(log_path)
    return _run_guest(_follow_file, f'file:{log_path}', kernel, initrd, cmd,
                      log_path, append, timeout, clock, progress, extra, sh)


def boot(kernel, initrd, cmd, log_path, append='', timeout=900, clock=None,
         progress=None):
    """Run CMD in a guest; return (output, finished, exit_status).

    finished is False when the guest hit TIMEOUT or died before printing
    its exit status; exit_status is CMD's status or None."""
    return _run_guest(_follow_pipe, STDIO_CONSOLE, kernel, initrd, cmd,
                      log_path, append, timeout, clock, progress, ())


def interactive(kernel, initrd, append='', clock=None):
    """Boot into a shell on this terminal (Ctrl-A x quits QEMU)."""
    print('Ctrl-A x quits, Ctrl-A b <key> sends SysRq <key>, Ctrl-A c is the QEMU monitor',
          file=sys.stderr)
    return subprocess.call(qemu_command(kernel, initrd, append, clock))


def main(argv):
    if len(argv) < 4 or argv[1] != 'run':
        print(__doc__, file=sys.stderr)
        return 2
    wq, cfg = argv[2], argv[3]
    obj = objdir(wq, cfg)
    kernel = os.path.join(obj, 'arch/x86/boot/bzImage')
    initrd = os.path.join(obj, 'initramfs.cpio')
    append = os.environ.get('APPEND', '')
    if len(argv) == 4:
        return interactive(kernel, initrd, append)
    out_dir = os.path.join(OUT, 'run')
    os.makedirs(out_dir, exist_ok=True)
    log = os.path.join(out_dir, f'{wq}-{cfg}.log')
    _, finished, status = boot(kernel, initrd, ' '.join(argv[4:]), log,
                               append=append,
                               progress=lambda c: sys.stdout.buffer.write(c) or sys.stdout.flush())
    print(f'\n==> log: {os.path.relpath(log, TOP)}', file=sys.stderr)
    if not finished:
        return 1
    return 0 if status == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
