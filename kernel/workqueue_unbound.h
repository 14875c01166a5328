/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/workqueue_unbound.c (unbound pools, pods, attributes, the
 * unbound cpumask, the limits of every workqueue) offers the files above
 * it: kernel/workqueue_lifecycle.c and kernel/workqueue_sysfs.c.  The
 * core, kernel/workqueue.c, and kernel/workqueue_pwq.c use none of it.
 * Locking letters are those of kernel/workqueue_impl.h.
 */
#ifndef _KERNEL_WORKQUEUE_UNBOUND_H
#define _KERNEL_WORKQUEUE_UNBOUND_H

#include "workqueue_impl.h"

extern cpumask_var_t wq_requested_unbound_cpumask;	/* L */
extern cpumask_var_t wq_isolated_cpumask;		/* L */
extern enum wq_affn_scope wq_affn_dfl;
extern const char * const wq_affn_names[WQ_AFFN_NR_TYPES];

void copy_workqueue_attrs(struct workqueue_attrs *to,
			  const struct workqueue_attrs *from);
int alloc_unbound_pwqs(struct workqueue_struct *wq);
int apply_workqueue_attrs_locked(struct workqueue_struct *wq,
				 const struct workqueue_attrs *attrs);
int wq_clamp_max_active(int max_active, const char *name);
void wq_refresh_limits(struct workqueue_struct *wq);
void wq_unbound_cpu_changed(int cpu, bool online);
void wq_unbound_topology_init(void);
void wq_init_pod_types_early(void);
void wq_std_attrs_init(void);
void wq_unbound_cpumask_init(void);
int workqueue_apply_unbound_cpumask(const cpumask_var_t unbound_cpumask);
int parse_affn_scope(const char *val);
void apply_wqattrs_lock(void);
void apply_wqattrs_unlock(void);

#endif /* _KERNEL_WORKQUEUE_UNBOUND_H */
