# SPDX-License-Identifier: GPL-2.0
# kunit.py --qemu_config for the harness machine (see machine.py).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
from machine import qemu_args  # noqa: E402
from ..qemu_config import QemuArchParams  # noqa: E402

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
                           kconfig='',
                           qemu_arch='x86_64',
                           kernel_path='arch/x86/boot/bzImage',
                           kernel_command_line='console=ttyS0',
                           extra_qemu_params=['-bios', 'qboot.rom'] + qemu_args())
