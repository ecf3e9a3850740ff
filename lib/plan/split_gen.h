/*
 * Candidate generation of pf-split: every way to run each layer (and each
 * pipelined chain of layers) as rows of tasks.csv, one row per piece.
 * The geometry comes from split_geom.h and split_pipe.h; this module only decides
 * which candidates exist, names them and lays out the table
 * (pf-split(1) documents the result).
 */
#ifndef PF_SPLIT_GEN_H
#define PF_SPLIT_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "csvio.h"
#include "split_geom.h"

struct split_opts {
	int			r_from, r_to, r_step;	/* GPU share percentages */
	int			axes;		/* bit a: axis a (task.h) */
	int			types;		/* bit t: published type t (1..3) */
	int			chains;		/* bit n: generic chains of n layers */
	int			stages;		/* bit s: s pipeline stages */
	int64_t			pim_channels;	/* PIM share N on every piece;
						   0: TASK_PIM_AUTO */
	int64_t			gwrite;
	int64_t			channels;	/* the machine's memory
						   channels, 0: unknown */
	int			attach;		/* enum task_attach on every
						   piece (pim_attach); -1:
						   not stated, no column */
	struct split_rules	rules;
};

/* The published defaults (pf-split(1)). */
void split_opts_init(struct split_opts *o);

/*
 * Parse option arguments into o: "-r from:to:step", "-a h,n,m", "-p
 * 1,2,3,c4" (or "none"), "-s 2,3".  Each returns 0, or -1 for a bad
 * argument (no report: the caller prints usage).
 */
int split_opt_ratios(struct split_opts *o, const char *arg);
int split_opt_axes(struct split_opts *o, const char *arg);
int split_opt_types(struct split_opts *o, const char *arg);
int split_opt_stages(struct split_opts *o, const char *arg);
int split_opt_rules(struct split_opts *o, const char *arg);
/* The one of those that pf-split's option letter (a, e, p, r, s) names. */
int split_opt(struct split_opts *o, int letter, const char *arg);
/*
 * "-g max_gwrite": a power of two from 1 to 64 (n_gwrite).  0, or -1
 * after a report (the caller prints usage).
 */
int split_opt_gwrite(struct split_opts *o, const char *arg);

/*
 * The machine into o: how its PIM is attached (attach, from -A:
 * "partition" or "added", when not NULL; else the pim_attach that the
 * PIM config pim_config names states, conf_resolve "pim", when not NULL
 * and stated; else none: no pim_attach column, the partitioned machine),
 * its memory channels (total, from -C, when > 0; else
 * those of the GPU config gpu_config names, conf_resolve "gpu", when not
 * NULL; else unknown) and the PIM share on every piece (npim, from -n,
 * when > 0; else the machine's default, task_pim_share, when it is known),
 * fewer than the machine's channels unless the PIM is added, and no
 * fewer than the GWRITE groups
 * when gwrite_set (-g given).  Returns 0; -1 after a report when the
 * config does not load; -2 after a report when the numbers contradict
 * each other (the caller prints usage).
 */
int split_opt_machine(struct split_opts *o, const char *attach,
    const char *pim_config, int64_t total, const char *gpu_config,
    int64_t npim, int gwrite_set);
/*
 * pf-split -m: the machine of o as a one-row CSV (channels,
 * pim_channels, max_gwrite, pim_attach) on fp, for drivers that must not parse
 * configs.  0, or -1 on a write error (unreported).
 */
int split_opt_machine_write(const struct split_opts *o, FILE *fp);
/*
 * pf-split: the layers.csv at path (NULL or "-": standard input, read
 * whole first so that the stage writing it ends at once) to tasks.csv on
 * stdout, a block at a time (split_gen_stream).  0, or -1 after a report.
 */
int split_gen_run(const char *path, const struct split_opts *o);

/* The options of pf-split(1), as its main parses them. */
struct split_args {
	struct split_opts	 o;		/* -a -e -g -p -r -s */
	const char		*gpu_config;	/* -c, NULL: none */
	const char		*pim_config;	/* -M, NULL: none */
	const char		*attach;	/* -A, NULL: none */
	int64_t			 total;		/* -C, 0: none */
	int64_t			 npim;		/* -n, 0: none */
	int			 gwrite_set;	/* -g given */
	int			 machine;	/* -m: print the machine only */
};
/*
 * pf-split once its options a are parsed: the machine settled
 * (split_opt_machine); with a->machine printed (split_opt_machine_write),
 * else the layers.csv at path (NULL: standard input) made into tasks.csv
 * (split_gen_run); standard output closed.  Returns the exit status:
 * PF_EXIT_OK; PF_EXIT_DATA after a report; PF_EXIT_USAGE after reporting
 * numbers that contradict each other (the tool then shows its usage).
 */
int split_gen_main(struct split_args *a, const char *path);

/*
 * Build tasks.csv from a layers.csv table.  out is initialised here (the
 * caller frees it in every case).  Returns 0, or -1 after reporting the
 * first bad row of layers.
 */
int split_gen_tasks(const struct table *layers, const struct split_opts *o,
    struct table *out);
/*
 * The same written to w a block of rows at a time as the layers'
 * candidates are made (every layer is read and checked first), so that
 * memory does not grow with the candidates: 0, or -1 after reporting a
 * bad row or a write error (the caller closes w).
 */
int split_gen_write(const struct table *layers, const struct split_opts *o,
    struct table_out *w);
/*
 * The same from the layers of r a block at a time: each block's layers
 * read and checked as it comes, a layer's candidates made once the
 * layers a chain from it may take are in, so that the first rows go out
 * before the last layers are read.  A bad layer is reported as its
 * block is read (with faults in several blocks, the first block's is
 * named), a layer whose pieces do not fit once every layer is read and
 * none is bad.  0, or -1 after a report (the caller closes w, cutting
 * what went out: pf-formats(7), Streaming).
 */
int split_gen_stream(struct table_reader *r, const struct split_opts *o,
    struct table_out *w);

#endif
