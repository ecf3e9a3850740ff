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

#include <stddef.h>
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
 * The axes a layer may be split along (column axis), in this order: h, a
 * conv's output rows (with halo); n, output channels (each device holds
 * only its share of the weights); m, GEMM rows (tokens); d, a 3-D conv's
 * depth slices (with halo).  Here the axis is a letter in the tables;
 * which layers it may divide and how is the plan wing's (split_axes,
 * split_geom.h).  pf-split's -a, the generator, candidate ids and
 * pf-solve's reading of column axis all go through these two.
 */
enum task_axis { TA_H, TA_N, TA_M, TA_D, TA_NAXIS };

/* The letter of axis a ('h', 'n', 'm', 'd'). */
static inline char
task_axis_letter(enum task_axis a)
{
	return "hnmd"[a];
}

/* The axis lettered s ("h", "n", "m", "d"): 0, or -1 when s names none. */
int task_axis_parse(const char *s, enum task_axis *a);

/*
 * A candidate's id (column cand), made and read only here:
 *   L:base  L:gpu  L:pim  L:pim:TAG          whole layer L (TAG: a variant)
 *   L:split:A:R                              split along A at GPU share R
 *   F-L:pipe:TAG:sS                          chain F..L, S stages
 * Layers are decimal, F < L for a pipe.
 */
struct task_cand {
	enum task_kind	kind;
	int64_t		first, last;
	enum task_axis	axis;		/* split */
	int		ratio;		/* split, 1..99 */
	int		stages;		/* pipe, >= 2 */
	char		tag[16];	/* pim variant ("" for none), pipe type */
};

/* The id of c into buf (n bytes; 64 are always enough). */
void task_cand_id(const struct task_cand *c, char *buf, size_t n);
/* The candidate an id names: 0, or -1 when s is not one (no report). */
int task_cand_parse(const char *s, struct task_cand *c);

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
 * Column names that stand in more than one table, spelled only here: the
 * PIM settings of tasks.csv and costs.csv, and the cost columns the cost
 * tools write on a piece (pf-formats(7), "Cost columns"), which pf-merge
 * reads and, where costs.csv has the same column, writes per candidate.
 */
#define TASK_COL_PIM_CHANNELS	"pim_channels"
#define TASK_COL_PIM_GWRITE	"pim_gwrite"
#define TASK_COL_PIM_HIDING	"pim_hiding"
#define TASK_COL_CYCLES		"cycles"	/* its tool's clock */
#define TASK_COL_NS		"ns"
#define TASK_COL_DISPATCH	"dispatch_ns"	/* PIM: part of ns */
#define TASK_COL_HANDOFF_IN	"handoff_in_ns"
#define TASK_COL_HANDOFF_OUT	"handoff_out_ns"
#define TASK_COL_REFUSED	"pim_refused"	/* why not PIM-eligible */
#define TASK_COL_GPU_CLOCK	"gpu_clock_mhz"
#define TASK_COL_GPU_TENSOR	"gpu_tensor"
#define TASK_COL_ENERGY		"energy_nj"
#define TASK_COL_STATIC		"static_w"
#define TASK_COL_PIM_ATTACH	"pim_attach"	/* partition or added */

/*
 * The columns of tasks.csv that pf-split writes ahead of a piece's
 * geometry (task_head_cols[]) and after it (task_pim_cols[]), in contract
 * order, NULL-terminated; pf-merge reads them by these names.
 */
enum task_col {
	TT_CAND, TT_FIRST, TT_LAST, TT_KIND, TT_AXIS, TT_RATIO, TT_STEP,
	TT_DEVICE, TT_NHEAD
};
enum task_pim_col { TT_PIM_CHANNELS, TT_PIM_GWRITE, TT_PIM_HIDING, TT_NPIM };
extern const char *const task_head_cols[TT_NHEAD + 1];
extern const char *const task_pim_cols[TT_NPIM + 1];

/*
 * The columns of costs.csv, in contract order (pf-formats(7)): what
 * pf-merge writes and pf-solve reads.  task_cost_cols[] names the first
 * TC_NNEED, which pf-solve requires, task_cost_opt[] the rest (the GPU
 * clock of the summary's cycles, the energy columns and the hand-off
 * columns of pf-merge(1): handoff_ns inside the candidate, its edges
 * dev_in, dev_out and the hand-offs pf-solve charges there; whether
 * the GPU pieces ran on tensor cores), each
 * NULL-terminated; the column of TC_x is x in pf-merge's output.
 */
enum task_cost_col {
	TC_CAND, TC_FIRST, TC_LAST, TC_KIND, TC_AXIS, TC_RATIO, TC_GWRITE,
	TC_HIDING, TC_GPU_NS, TC_PIM_NS, TC_NS, TC_NNEED,
	TC_GPU_CLOCK = TC_NNEED, TC_ENERGY, TC_GPU_STATIC, TC_PIM_STATIC,
	TC_HANDOFF, TC_DEV_IN, TC_DEV_OUT, TC_HANDOFF_IN, TC_HANDOFF_OUT,
	TC_GPU_TENSOR, TC_NCOL
};
extern const char *const task_cost_cols[TC_NNEED + 1];
extern const char *const task_cost_opt[TC_NCOL - TC_NNEED + 1];

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
 * pim_channels when pf-split was not told the machine: the share
 * task_pim_share() gives the GPU config's channels, which gpu-cycles,
 * the stage that knows the machine, writes in its place on every row.
 */
#define TASK_PIM_AUTO	"auto"

/*
 * The default PIM share of a machine of total channels (>= 2): the
 * published 16, or half of a machine of at most 16 channels.  The only
 * place this rule lives.
 */
int64_t task_pim_share(int64_t total);

/*
 * Write task_pim_share(total) in column pimch (-1: absent, nothing to
 * do) of every row of t that holds TASK_PIM_AUTO, but a row of an added
 * machine (column attach, -1: absent): its N is the PIM config's, which
 * pim-cycles writes.
 */
void task_pim_resolve(struct table *t, long pimch, long attach,
    int64_t total);

/*
 * How the PIM devices sit in the machine (column pim_attach, key
 * pim_attach of a PIM config; pf-formats(7), "Machine model"):
 * partition, PIMFlow's machine, where PIM takes N of the GPU's own
 * channels; added, where the PIM devices bring their own N channels and
 * the GPU keeps all of its own in every candidate.  An absent column or
 * an empty cell is partition.
 */
enum task_attach { TASK_PARTITION, TASK_ADDED, TASK_NATTACH };

/* "partition" or "added". */
const char *task_attach_name(enum task_attach a);
/* The attachment named s: 0, or -1 when s names none (no report). */
int task_attach_parse(const char *s, enum task_attach *a);
/*
 * The attachment of row r (column col, -1: absent, partition): 0, or
 * -1 after reporting "file:line: column 'pim_attach': ...".
 */
int task_attach_row(const struct table *t, size_t r, long col,
    enum task_attach *a);

/*
 * The GPU's memory channels for row r of t, a GPU piece of a machine of
 * total channels (cfg names the config in reports): total for kind
 * "base" and for every row of an added machine (column attach, -1:
 * absent), total - pim_channels otherwise.  kind, pimch and attach are
 * column indexes (-1: absent).  A missing, zero, fractional or negative
 * pim_channels, or one that leaves a partitioned GPU no channel, is
 * reported as "file:line: column 'pim_channels': ..." and -1 returned;
 * under added pim_channels may also be TASK_PIM_AUTO (the PIM config's).
 */
int task_gpu_channels(const struct table *t, size_t r, long kind, long pimch,
    long attach, int64_t total, const char *cfg, int64_t *ch);

#endif
