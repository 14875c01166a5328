#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut a feature the series has not reached yet out of our C files.

  series_strip.py --features SYM... --enabled SYM... -- FILE...

The rework is written whole (make test builds it so); `make patches` and
the series tree (series-build.sh) cut it into a core and one patch per
capability.  What belongs to a capability is marked by the capability's
flag of <linux/workqueue.h>, WQ_HAS_<NAME> (its --features): code between
"#ifdef WQ_HAS_X" (or "#ifndef", with "#else") and "#endif", and the line
"#define WQ_HAS_X" with the comment right above it.  Each FILE is
rewritten in place for a step of the series at which the flags --enabled
name are in: the lines of an enabled flag's branch are kept, without the
#ifdef/#else/#endif lines (the patches never show them), those of a flag
not yet in are dropped, and so are the kernel-doc lines of the struct
members dropped with them; blank lines the cut runs together become one.
A comment line that ends in "(WQ_HAS_X)", such as
a map's entry for X's section, is X's too: dropped before X, and kept
without the tag from X on.  Other preprocessor lines are left alone.  Any
other use of a flag (#if defined(...), #elif) is an error: this is not a
preprocessor, only the cut of a series.
"""
import argparse
import re
import sys

# A comment line that ends in "(WQ_HAS_X)" (a map's entry, say) belongs
# to X, like the lines of an #ifdef that a comment cannot hold.
TAGGED = re.compile(r'^(\s*(?:/\*|\*|//).*?)\s*\((WQ_HAS_\w+)\)\s*$')
COND = re.compile(r'^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(\w*)')
DEFINE = re.compile(r'^\s*#\s*define\s+(\w+)')


def drop_comment_above(out):
    """Drop the /* ... */ block that ends on the last line of out."""
    if not out or not out[-1].rstrip().endswith('*/'):
        return
    while out:
        line = out.pop()
        if line.lstrip().startswith('/*'):
            return


def strip(lines, features, enabled, name):
    """The lines of a file at the step where the flags enabled are in."""
    out, stack = [], []		# stack: [is ours, keep this branch]

    def keeping():
        return all(keep for ours, keep in stack if ours)

    for n, line in enumerate(lines, 1):
        m = COND.match(line)
        if m:
            kind, sym = m.groups()
            if kind in ('ifdef', 'ifndef') and sym in features:
                stack.append([True, (sym in enabled) == (kind == 'ifdef')])
                continue
            if kind in ('if', 'elif') and any(f in line for f in features):
                sys.exit(f'{name}:{n}: only #ifdef/#ifndef may test a '
                         f'feature flag: {line.strip()}')
            if kind in ('if', 'ifdef', 'ifndef'):
                stack.append([False, True])
            elif kind == 'else' and stack and stack[-1][0]:
                stack[-1][1] = not stack[-1][1]
                continue
            elif kind == 'endif':
                if not stack:
                    sys.exit(f'{name}:{n}: #endif without #if')
                if stack.pop()[0]:
                    continue
        if not keeping():
            continue
        t = TAGGED.match(line)
        if t and t.group(2) in features:
            if t.group(2) in enabled:
                out.append(t.group(1) + '\n')
            continue
        d = DEFINE.match(line)
        if d and d.group(1) in features and d.group(1) not in enabled:
            drop_comment_above(out)
            continue
        out.append(line)
    if stack:
        sys.exit(f'{name}: #if without #endif')
    return out


DOC_STRUCT = re.compile(r'^/\*\*\n \* struct (\w+) - .*?\*/\n(struct \1 \{\n.*?^\};)',
                        re.S | re.M)
DOC_MEMBER = re.compile(r'^ \* @(\w+):')


def drop_gone_members(text, before):
    """Drop the kernel-doc lines of struct members the cut took away.

    A member documented in a struct's kernel-doc comment that the struct
    had before the cut (in before) and has no more loses its "@name:"
    line and the lines continuing it.
    """
    had = {m.group(1): m.group(2) for m in DOC_STRUCT.finditer(before)}

    def fix(m):
        body = m.group(2)
        old = had.get(m.group(1), '')
        out, skipping = [], False
        doc = m.group(0)[:m.start(2) - m.start(0)]
        for line in doc.splitlines(keepends=True):
            d = DOC_MEMBER.match(line)
            if d:
                name = d.group(1)
                skipping = (re.search(rf'\b{name}\b', old) is not None and
                            re.search(rf'\b{name}\b', body) is None)
            elif not line.startswith(' *\t') and not line.startswith(' *  '):
                skipping = False
            if not skipping:
                out.append(line)
        return ''.join(out) + body
    return DOC_STRUCT.sub(fix, text)


def squeeze_blank_lines(lines):
    """One blank line where a cut left two or more."""
    out = []
    for line in lines:
        if line.strip() or not out or out[-1].strip():
            out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--features', nargs='*', default=[])
    ap.add_argument('--enabled', nargs='*', default=[])
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    features, enabled = set(args.features), set(args.enabled)
    for path in args.files:
        with open(path) as f:
            lines = f.readlines()
        new = strip(lines, features, enabled, path)
        if new != lines:
            new = drop_gone_members(''.join(new), ''.join(lines))
            new = squeeze_blank_lines(new.splitlines(keepends=True))
            with open(path, 'w') as f:
                f.writelines(new)


if __name__ == '__main__':
    main()
