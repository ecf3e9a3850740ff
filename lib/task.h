/*
 * The vocabulary of tasks.csv and costs.csv that every stage shares: how
 * the machine's memory channels are partitioned between the GPU and PIM
 * (pf-formats(7), "Machine model").
 *
 * The PIM share N is decided once, by pf-split, and written on every
 * piece (pim_channels).  Each cost tool derives its own side from its own
 * config: the GPU has all of its config's channels for base candidates and
 * channels - N otherwise; PIM has N.  So a hand-made pipeline and pimflow
 * cannot disagree about the machine, and a share that does not fit the
 * machine is refused where the machine is known.
 */
#ifndef PF_TASK_H
#define PF_TASK_H

#include <stdint.h>

#include "csvio.h"

/* The devices a piece runs on (column device), in this order. */
enum task_dev { TASK_GPU, TASK_PIM, TASK_NDEV };

/* Candidate kinds (column kind), in this order (pf-formats(7)). */
enum task_kind { TK_BASE, TK_GPU, TK_PIM, TK_SPLIT, TK_PIPE, TK_NKIND };

/* "base", "gpu", "pim", "split", "pipe". */
const char *task_kind_name(enum task_kind k);
/* The kind named s: 0, or -1 when s names none. */
int task_kind_parse(const char *s, enum task_kind *k);

/* "gpu" or "pim". */
const char *task_dev_name(enum task_dev d);

/*
 * The device of row r (column index col): reports "file:line: column
 * 'device': unknown device '...'" and returns -1 for anything else.
 */
int task_device(const struct table *t, size_t r, long col, enum task_dev *d);

/*
 * Every row's device is known: 0, or -1 after reporting the first row
 * that is not (or a missing column 'device', *col then -1).  *col gets
 * the column, *n (may be NULL) the rows of each device.
 */
int task_devices(const struct table *t, long *col, size_t n[TASK_NDEV]);

/*
 * Times between stages are decimal ns with three fractional digits; the
 * solver adds them as integer picoseconds.  task_ns_to_ps returns 0, or
 * -1 for a value that is not a number from 0 to max_ns.
 */
int task_ns_to_ps(const char *s, double max_ns, long long *ps);
void task_ps_to_ns(long long ps, char *buf, size_t n);

/* The published share: 16 PIM channels (of 32). */
#define TASK_PIM_SHARE	16

/*
 * The default PIM share of a machine of total channels (>= 2): the
 * published 16, or half of a machine of at most 16 channels.  The only
 * place this rule lives.
 */
int64_t task_pim_share(int64_t total);

/*
 * The GPU's memory channels for row r of t, a GPU piece of a machine of
 * total channels (cfg names the config in reports): total for kind
 * "base", total - pim_channels otherwise.  kind and pimch are column
 * indexes (-1: absent).  A missing, zero, fractional or negative
 * pim_channels, or one that leaves the GPU no channel, is reported as
 * "file:line: column 'pim_channels': ..." and -1 returned.
 */
int task_gpu_channels(const struct table *t, size_t r, long kind, long pimch,
    int64_t total, const char *cfg, int64_t *ch);

#endif
