// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workqueue sysfs ABI, under /sys/devices/virtual/workqueue/:
 *
 *   cpumask            where unbound items may run (read, write)
 *   cpumask_requested  what was last written there (read)
 *   cpumask_isolated   CPUs excluded by cpusets (read)
 *
 * and per WQ_SYSFS workqueue, in a directory named after it:
 *
 *   per_cpu, max_active, rt                  every workqueue
 *   nice, cpumask, affinity_scope,
 *   affinity_strict                          unbound workqueues only
 *   histograms/queued, waiting, running,
 *   cpu, flush, worst                        with histograms on
 *
 * Writes that do not parse or are out of range fail with -EINVAL and
 * change nothing.  Locking letters are those of kernel/workqueue_impl.h.
 *
 * Map of this file:
 *   1. per-workqueue files
 *   2. the global unbound cpumask
 *   3. registration
 */
#include <linux/device.h>
#include <linux/slab.h>
#ifdef WQ_HAS_HISTOGRAMS
#include <linux/workqueue_hist.h>
#endif

#include "workqueue_impl.h"
#include "workqueue_unbound.h"

struct wq_device {
	struct workqueue_struct	*wq;
	struct device		dev;
};

static struct workqueue_struct *dev_to_wq(struct device *dev)
{
	return container_of(dev, struct wq_device, dev)->wq;
}

/* 1. per-workqueue files */

static ssize_t per_cpu_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", !(dev_to_wq(dev)->flags & WQ_UNBOUND));
}
static DEVICE_ATTR_RO(per_cpu);

#ifdef WQ_HAS_RT_CLASS
/* 1 for the RT class (WQ_RT, SCHED_RR workers), 0 otherwise; not 6.12's */
static ssize_t rt_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%d\n", !!(dev_to_wq(dev)->flags & WQ_RT));
}
static DEVICE_ATTR_RO(rt);
#endif

static ssize_t max_active_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dev_to_wq(dev)->saved_max_active));
}

/*
 * A number written to a workqueue's sysfs file, read as 6.12 reads it:
 * decimal (010 is 10), leading blanks and trailing text allowed. Only the
 * leading signed decimal is parsed; one that overflows an int is -ERANGE.
 */
static int parse_sysfs_int(const char *buf, int *val)
{
	char num[16];
	size_t len;

	buf = skip_spaces(buf);
	len = (*buf == '-' || *buf == '+');
	len += strspn(buf + len, "0123456789");
	if (len >= sizeof(num))
		return -ERANGE;
	memcpy(num, buf, len);
	num[len] = '\0';
	return kstrtoint(num, 10, val);
}

static ssize_t max_active_store(struct device *dev,
				struct device_attribute *attr, const char *buf,
				size_t count)
{
	int val;

	if (parse_sysfs_int(buf, &val) || val <= 0)
		return -EINVAL;
	workqueue_set_max_active(dev_to_wq(dev), val);
	return count;
}
static DEVICE_ATTR_RW(max_active);

/*
 * Change one unbound attribute: copy the current ones, let @edit change the
 * copy from @buf, apply it.
 */
static ssize_t edit_wq_attrs(struct device *dev, const char *buf, size_t count,
			     int (*edit)(struct workqueue_attrs *attrs,
					 const char *buf))
{
	struct workqueue_struct *wq = dev_to_wq(dev);
	struct workqueue_attrs *attrs = alloc_workqueue_attrs();
	int ret = -ENOMEM;

	if (!attrs)
		return -ENOMEM;
	apply_wqattrs_lock();
	copy_workqueue_attrs(attrs, wq->unbound_attrs);
	ret = edit(attrs, buf);
	if (!ret)
		ret = apply_workqueue_attrs_locked(wq, attrs);
	apply_wqattrs_unlock();
	free_workqueue_attrs(attrs);
	return ret ?: count;
}

static ssize_t nice_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct workqueue_struct *wq = dev_to_wq(dev);
	int nice;

	mutex_lock(&wq->mutex);
	nice = wq->unbound_attrs->nice;
	mutex_unlock(&wq->mutex);
	return sysfs_emit(buf, "%d\n", nice);
}

static int edit_nice(struct workqueue_attrs *attrs, const char *buf)
{
	int nice;

	if (parse_sysfs_int(buf, &nice) || nice < MIN_NICE || nice > MAX_NICE)
		return -EINVAL;
	attrs->nice = nice;
	return 0;
}

static ssize_t nice_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	return edit_wq_attrs(dev, buf, count, edit_nice);
}
static DEVICE_ATTR_RW(nice);

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct workqueue_struct *wq = dev_to_wq(dev);
	ssize_t len;

	mutex_lock(&wq->mutex);
	len = sysfs_emit(buf, "%*pb\n", cpumask_pr_args(wq->unbound_attrs->cpumask));
	mutex_unlock(&wq->mutex);
	return len;
}

static int edit_cpumask(struct workqueue_attrs *attrs, const char *buf)
{
	return cpumask_parse(buf, attrs->cpumask) ? -EINVAL : 0;
}

static ssize_t cpumask_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	return edit_wq_attrs(dev, buf, count, edit_cpumask);
}
static DEVICE_ATTR_RW(cpumask);

static ssize_t affinity_scope_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct workqueue_struct *wq = dev_to_wq(dev);
	enum wq_affn_scope scope;

	mutex_lock(&wq->mutex);
	scope = wq->unbound_attrs->affn_scope;
	mutex_unlock(&wq->mutex);
	if (scope == WQ_AFFN_DFL)
		return sysfs_emit(buf, "%s (%s)\n", wq_affn_names[WQ_AFFN_DFL],
				  wq_affn_names[wq_affn_dfl]);
	return sysfs_emit(buf, "%s\n", wq_affn_names[scope]);
}

static int edit_scope(struct workqueue_attrs *attrs, const char *buf)
{
	int scope = parse_affn_scope(buf);

	if (scope < 0)
		return -EINVAL;
	attrs->affn_scope = scope;
	return 0;
}

static ssize_t affinity_scope_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	return edit_wq_attrs(dev, buf, count, edit_scope);
}
static DEVICE_ATTR_RW(affinity_scope);

static ssize_t affinity_strict_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dev_to_wq(dev)->unbound_attrs->affn_strict));
}

static int edit_strict(struct workqueue_attrs *attrs, const char *buf)
{
	int strict;

	if (parse_sysfs_int(buf, &strict))
		return -EINVAL;
	attrs->affn_strict = strict;
	return 0;
}

static ssize_t affinity_strict_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	return edit_wq_attrs(dev, buf, count, edit_strict);
}
static DEVICE_ATTR_RW(affinity_strict);

static struct attribute *wq_sysfs_attrs[] = {
	&dev_attr_per_cpu.attr,
	&dev_attr_max_active.attr,
#ifdef WQ_HAS_RT_CLASS
	&dev_attr_rt.attr,
#endif
	&dev_attr_nice.attr,
	&dev_attr_cpumask.attr,
	&dev_attr_affinity_scope.attr,
	&dev_attr_affinity_strict.attr,
	NULL,
};

/* The attribute files after rt exist for unbound workqueues only. */
static umode_t wq_sysfs_attr_visible(struct kobject *kobj,
				     struct attribute *attr, int n)
{
	struct device *dev = kobj_to_dev(kobj);

	if (n >= 3 && !(dev_to_wq(dev)->flags & WQ_UNBOUND))
		return 0;
	return attr->mode;
}

static const struct attribute_group wq_sysfs_group = {
	.attrs		= wq_sysfs_attrs,
	.is_visible	= wq_sysfs_attr_visible,
};

#ifdef WQ_HAS_HISTOGRAMS
/*
 * histograms/: one file per histogram and one of the worst items (see
 * kernel/workqueue_hist.c); writing "reset" (or "0") clears the file's.
 * Root's only, as debugfs is: they time other subsystems' items and name
 * their functions.
 */
struct wq_hist_attr {
	struct device_attribute	attr;
	int			kind;	/* enum wq_hist_kind, WQ_NR_HISTS: worst */
};

static int hist_attr_kind(struct device_attribute *attr)
{
	return container_of(attr, struct wq_hist_attr, attr)->kind;
}

static ssize_t hist_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return wq_hist_show_kind(dev_to_wq(dev), hist_attr_kind(attr), buf);
}

static ssize_t hist_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	int ret = wq_hist_parse_reset(buf, count);

	if (ret)
		return ret;
	wq_hist_reset_kinds(dev_to_wq(dev), BIT(hist_attr_kind(attr)));
	return count;
}

#define WQ_HIST_ATTR(_name, _kind)					\
	static struct wq_hist_attr wq_hist_attr_##_name = {		\
		.attr = __ATTR(_name, 0600, hist_show, hist_store),	\
		.kind = (_kind),					\
	}

WQ_HIST_ATTR(queued, WQ_HIST_QUEUED);
WQ_HIST_ATTR(waiting, WQ_HIST_WAITING);
WQ_HIST_ATTR(running, WQ_HIST_RUNNING);
WQ_HIST_ATTR(cpu, WQ_HIST_CPU);
WQ_HIST_ATTR(flush, WQ_HIST_FLUSH);
WQ_HIST_ATTR(worst, WQ_NR_HISTS);

static struct attribute *wq_hist_attrs[] = {
	&wq_hist_attr_queued.attr.attr,
	&wq_hist_attr_waiting.attr.attr,
	&wq_hist_attr_running.attr.attr,
	&wq_hist_attr_cpu.attr.attr,
	&wq_hist_attr_flush.attr.attr,
	&wq_hist_attr_worst.attr.attr,
	NULL,
};

/* Only with histograms on (workqueue.histograms). */
static umode_t wq_hist_attr_visible(struct kobject *kobj,
				    struct attribute *attr, int n)
{
	/* off: no histograms/ directory at all, not an empty one */
	if (!dev_to_wq(kobj_to_dev(kobj))->hist)
		return SYSFS_GROUP_INVISIBLE;
	return attr->mode;
}

static const struct attribute_group wq_hist_group = {
	.name		= "histograms",
	.attrs		= wq_hist_attrs,
	.is_visible	= wq_hist_attr_visible,
};
#endif

static const struct attribute_group *wq_sysfs_groups[] = {
	&wq_sysfs_group,
#ifdef WQ_HAS_HISTOGRAMS
	&wq_hist_group,
#endif
	NULL,
};

static const struct bus_type wq_subsys = {
	.name		= "workqueue",
	.dev_groups	= wq_sysfs_groups,
};

/* 2. the global unbound cpumask */

/* A global cpumask for sysfs; it takes wq_pool_mutex (L) to read it. */
static ssize_t show_mask(char *buf, const struct cpumask *mask)
{
	ssize_t len;

	mutex_lock(&wq_pool_mutex);
	len = sysfs_emit(buf, "%*pb\n", cpumask_pr_args(mask));
	mutex_unlock(&wq_pool_mutex);
	return len;
}

static ssize_t cpumask_requested_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return show_mask(buf, wq_requested_unbound_cpumask);
}
static DEVICE_ATTR_RO(cpumask_requested);

static ssize_t cpumask_isolated_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return show_mask(buf, wq_isolated_cpumask);
}
static DEVICE_ATTR_RO(cpumask_isolated);

static ssize_t unbound_cpumask_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return show_mask(buf, wq_unbound_cpumask);
}

/* Empty once limited to possible CPUs: -EINVAL. */
static int workqueue_set_unbound_cpumask(cpumask_var_t mask)
{
	int ret;

	if (!cpumask_and(mask, mask, cpu_possible_mask))
		return -EINVAL;
	apply_wqattrs_lock();
	ret = cpumask_equal(mask, wq_unbound_cpumask) ? 0 :
	      workqueue_apply_unbound_cpumask(mask);
	if (ret == 0)
		cpumask_copy(wq_requested_unbound_cpumask, mask);
	apply_wqattrs_unlock();
	return ret;
}

static ssize_t unbound_cpumask_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	cpumask_var_t mask;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse(buf, mask) ? -EINVAL : workqueue_set_unbound_cpumask(mask);
	free_cpumask_var(mask);
	return ret ?: count;
}

static struct device_attribute dev_attr_unbound_cpumask =
	__ATTR(cpumask, 0644, unbound_cpumask_show, unbound_cpumask_store);

static struct attribute *wq_root_attrs[] = {
	&dev_attr_unbound_cpumask.attr, &dev_attr_cpumask_requested.attr,
	&dev_attr_cpumask_isolated.attr, NULL,
};

static const struct attribute_group wq_root_group = { .attrs = wq_root_attrs };
static const struct attribute_group *wq_root_groups[] = { &wq_root_group, NULL };

static void wq_device_release(struct device *dev)
{
	kfree(container_of(dev, struct wq_device, dev));
}

/* /sys/devices/virtual/workqueue/, with the global files in it */
static int __init wq_sysfs_init(void)
{
	int ret = subsys_virtual_register(&wq_subsys, wq_root_groups);

	WARN_ON(ret);
	return ret;
}
core_initcall(wq_sysfs_init);

/* 3. registration */

/**
 * workqueue_sysfs_register - give a workqueue its sysfs directory
 * @wq: the workqueue, not ordered
 *
 * alloc_workqueue() calls this for WQ_SYSFS.  Ordered workqueues are not
 * exposed: changing their max_active would break their ordering.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno.
 */
int workqueue_sysfs_register(struct workqueue_struct *wq)
{
	int ret;
	struct wq_device *wq_dev;

	if (WARN_ON(wq_is_ordered(wq)))
		return -EINVAL;
	wq_dev = kzalloc(sizeof(*wq_dev), GFP_KERNEL);
	if (!wq_dev)
		return -ENOMEM;
	*wq_dev = (struct wq_device) {
		.wq = wq,
		.dev = { .bus = &wq_subsys, .release = wq_device_release },
	};
	dev_set_name(&wq_dev->dev, "%s", wq->name);
	ret = device_register(&wq_dev->dev);
	if (ret) {
		put_device(&wq_dev->dev);
		return ret;
	}
	wq->wq_dev = wq_dev;
	return 0;
}

/**
 * wq_sysfs_unregister - remove a workqueue's sysfs directory, if any
 * @wq: the workqueue
 *
 * Context: process context, may sleep.
 */
void wq_sysfs_unregister(struct workqueue_struct *wq)
{
	struct wq_device *wq_dev = wq->wq_dev;

	if (!wq_dev)
		return;
	wq->wq_dev = NULL;
	device_unregister(&wq_dev->dev);
}
