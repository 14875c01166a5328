# SPDX-License-Identifier: GPL-2.0
"""drgn script: every workqueue's name and flags, "NAME 0xFLAGS" a line,
for harness/lib/wqdump.py to compare stock's with the rework's (6.12's
struct workqueue_struct fields, which tools/workqueue/ reads too)."""
# pylint: disable=undefined-variable  (drgn provides prog)
from drgn.helpers.linux.list import list_for_each_entry

for wq in list_for_each_entry('struct workqueue_struct',
                              prog['workqueues'].address_of_(), 'list'):
    print(wq.name.string_().decode(), hex(wq.flags.value_()))
