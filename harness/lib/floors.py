#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that calls go down the floors of the rework (make check).

  floors.py OBJDIR [HEADER]

HEADER (default: kernel/workqueue_impl.h) lists the files of the
implementation by floor, after "Calls go down this list of floors":
"N. file.c, file.c, ...".  A file may use what a file on a lower floor
defines, never what one on its own floor or above defines.

What a file uses and defines is read from its object under OBJDIR
(kernel/<file>.o, built with every capability in): nm's undefined
symbols against the symbols the other objects define.  A static
function, an inline of a header and a static call's trampoline that the
core defines are not calls up, and nm sees none of them as one.

Prints one line per finding and "floors: N findings"; exits 1 on any,
or 2 when a listed file has no object.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = 'Calls go down this list of floors'
ITEM = re.compile(r'^ \*\s+(\d+)\.\s')
FILE = re.compile(r'\b(workqueue\w*)\.c\b')


def floors(header):
    """{file stem: floor} of the list in HEADER."""
    with open(header) as f:
        lines = f.read().split('\n')
    start = next(i for i, line in enumerate(lines) if START in line)
    out, floor = {}, None
    for line in lines[start + 1:]:
        if line.strip() == '*' and floor is not None:
            break	# the blank line after the list
        m = ITEM.match(line)
        if m:
            floor = int(m.group(1))
        if floor is not None:
            for stem in FILE.findall(line):
                out[stem] = floor
    return out


def symbols(obj):
    """(defined, undefined) global symbols of OBJ."""
    text = subprocess.run(['nm', obj], check=True, capture_output=True,
                          text=True).stdout
    defined, undefined = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1].isupper():
            defined.add(parts[2])
    return defined, undefined


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    objdir = argv[1]
    header = argv[2] if len(argv) > 2 else os.path.join(TOP, 'kernel/workqueue_impl.h')
    floor = floors(header)
    syms = {}
    for stem in floor:
        obj = os.path.join(objdir, 'kernel', stem + '.o')
        if not os.path.exists(obj):
            print(f'floors: no object {obj}')
            return 2
        syms[stem] = symbols(obj)
    owner = {name: stem for stem, (defined, _) in syms.items() for name in defined}
    findings = []
    for stem, (_, undefined) in sorted(syms.items()):
        for name in sorted(undefined):
            other = owner.get(name)
            if other and floor[other] >= floor[stem]:
                findings.append(f'kernel/{stem}.c (floor {floor[stem]}) uses {name} '
                                f'of kernel/{other}.c (floor {floor[other]})')
    for line in findings:
        print(line)
    print(f'floors: {len(findings)} findings in {len(floor)} files')
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
