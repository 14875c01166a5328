# SPDX-License-Identifier: GPL-2.0
"""drgn script: the pods of every affinity scope the kernel has, a line
each, "SCOPE CPUS;CPUS;..." (CPU lists, pods in order), for
harness/lib/wqdump.py to compare with what the guest's shape says they
must be (6.12's wq_pod_types and wq_affn_names, which wq_dump.py reads
too; the rework adds cache_shard)."""
# pylint: disable=undefined-variable  (drgn provides prog)
from drgn import TypeKind
from drgn.helpers.linux.cpumask import for_each_cpu

names = prog['wq_affn_names']
types = prog['wq_pod_types']
for scope in range(1, prog['WQ_AFFN_NR_TYPES'].value_()):	# not "default"
    pt = types[scope]
    pods = []
    for pod in range(pt.nr_pods.value_()):
        mask = pt.pod_cpus[pod]
        # cpumask_var_t: a pointer (CPUMASK_OFFSTACK) or a one-element array
        if mask.type_.unaliased_kind() in (TypeKind.POINTER, TypeKind.ARRAY):
            mask = mask[0]
        pods.append(','.join(str(cpu) for cpu in for_each_cpu(mask)))
    print(names[scope].string_().decode(), ';'.join(pods))
