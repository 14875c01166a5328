// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest instructions each translation
 * block executes, from each execution of the code at address "on" to the
 * next execution of the code at address "off" (the first N such windows,
 * or all; the whole run without "on").  Under -icount an instruction is
 * the guest's unit of time, so these counts are where the time goes.
 *
 *   -plugin insnprof.so,out=FILE[,on=HEX,off=HEX[,windows=N]][,trace=HEX+...]
 *
 * FILE gets a line "window INSNS" per window, "vcpuN INSNS" per vCPU,
 * "event WHEN VCPU HEX" per execution of a block starting at a "trace"
 * address (WHEN: instructions counted until then), then one line per block:
 * "VADDR INSNS EXECUTIONS".  harness/profile.py builds the plugin, runs
 * it and puts symbol names on the blocks.
 * The API is declared here rather than from QEMU's header, which Debian
 * does not ship; the plugin API version of QEMU 7.2 is 1.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;
	int traced;
	struct block *next;
};

#define MAX_TRACED	32
#define MAX_EVENTS	(1 << 20)

/* entries into the "trace" addresses: when (instructions counted), where */
struct event {
	uint64_t when;
	uint64_t vaddr;
	unsigned int vcpu;
};

#define MAX_WINDOWS	64
#define MAX_VCPUS	64

static struct block *blocks;
static uint64_t on_addr, off_addr;
static int counting;
static char *out_path;
/* instructions of each on..off window */
static uint64_t windows[MAX_WINDOWS];
static unsigned int nr_windows, max_windows = UINT_MAX;
static uint64_t vcpu_insns[MAX_VCPUS];
static uint64_t traced[MAX_TRACED], counted;
static unsigned int nr_traced, nr_events;
static struct event *events;

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	if (b->vaddr == on_addr && !counting && nr_windows < max_windows) {
		counting = 1;
	} else if (b->vaddr == off_addr && counting) {
		counting = 0;
		nr_windows++;
	}
	if (!counting)
		return;
	if (b->traced && nr_events < MAX_EVENTS)
		events[nr_events++] = (struct event){ counted, b->vaddr, vcpu };
	b->execs++;
	counted += b->insns;
	/* the last line counts every window past it */
	windows[nr_windows < MAX_WINDOWS ? nr_windows : MAX_WINDOWS - 1] += b->insns;
	vcpu_insns[vcpu % MAX_VCPUS] += b->insns;
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));
	unsigned int i;

	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	for (i = 0; i < nr_traced; i++)
		b->traced |= b->vaddr == traced[i];
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
					     QEMU_PLUGIN_CB_NO_REGS, b);
}

static void write_counts(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < MAX_WINDOWS && windows[i]; i++)
		fprintf(f, "window %" PRIu64 "\n", windows[i]);
	for (i = 0; i < MAX_VCPUS; i++)
		if (vcpu_insns[i])
			fprintf(f, "vcpu%u %" PRIu64 "\n", i, vcpu_insns[i]);
	for (i = 0; i < nr_events; i++)
		fprintf(f, "event %" PRIu64 " %u %" PRIx64 "\n", events[i].when,
			events[i].vcpu, events[i].vaddr);
	for (b = blocks; b; b = b->next)
		if (b->execs)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->insns, b->execs);
	fclose(f);
}

/* "HEX+HEX+...": the addresses whose entries are logged as events */
static void parse_traced(char *list)
{
	char *end;

	while (*list && nr_traced < MAX_TRACED) {
		traced[nr_traced++] = strtoull(list, &end, 16);
		list = *end == '+' ? end + 1 : end;
		if (end == list)
			break;
	}
	events = calloc(MAX_EVENTS, sizeof(*events));
	if (!events)
		abort();
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "on=", 3))
			on_addr = strtoull(argv[i] + 3, NULL, 16);
		else if (!strncmp(argv[i], "off=", 4))
			off_addr = strtoull(argv[i] + 4, NULL, 16);
		else if (!strncmp(argv[i], "windows=", 8))
			max_windows = strtoul(argv[i] + 8, NULL, 10);
		else if (!strncmp(argv[i], "trace=", 6))
			parse_traced(argv[i] + 6);
		else
			return -1;
	}
	if (!out_path)
		return -1;
	counting = !on_addr;
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
