/*
 * pf-merge: the costed pieces of tasks.csv folded into one row per
 * candidate (costs.csv).  A candidate's wall time is the sum over its
 * time steps of the busier device's work in that step (pieces of one
 * device in one step run one after another, the two devices overlap;
 * the PIM side's work includes the hand-offs of data between its pieces
 * and GPU pieces of the candidate), plus an optional synchronisation cost for every step of a candidate
 * that uses both devices.  Times are summed as integer picoseconds, so
 * the result does not depend on the order of the pieces within a
 * candidate.  The candidates come in the order of their first layer and
 * the pieces of each together (as pf-split writes them), so the tasks
 * are folded a block of rows at a time.
 */
#ifndef PF_SOLVE_MERGE_H
#define PF_SOLVE_MERGE_H

#include <stdint.h>

#include "csvio.h"
#include "solve_merge_ns.h"

/* costs.csv's columns are task_cost_cols[] and task_cost_opt[] (task.h). */

/*
 * Fold tasks into costs (initialised here; the caller frees it in every
 * case), in the order the candidates come.  sync_ns >= 0 is added per
 * step of a two-device candidate.
 * Returns 0, or -1 after reporting the first fault: a missing column, a
 * piece without a cost (naming the candidate, the device and the tool
 * that fills it), pieces of one candidate disagreeing on first, last,
 * kind, axis, ratio or PIM settings, a ratio outside 0..100, pieces of
 * one device disagreeing on static_w, a bad energy_nj or static_w, a bad
 * device, a sum of times past MERGE_MAX_NS, or, when the geometry
 * columns are present, a bad piece geometry (a zero-row piece).
 */
int merge_costs(const struct table *tasks, double sync_ns,
    struct table *costs);

/*
 * The same a block of rows at a time (csvio_stream, csvio.h): merge_init
 * starts with sync_ns; merge_rows folds the candidates of block t into
 * m->out, replacing those of the last block (a candidate must not be
 * cut between blocks: csvio_stream's group "cand").  It fails as
 * merge_costs does, and also for input not in pf-split's order: a
 * candidate whose first layer is below an earlier candidate's
 * ("file:line: candidate '...': first layer N after candidates of layer
 * M ..."), or whose pieces come again after another candidate's
 * ("file:line: candidate '...': its pieces come again after another
 * candidate's ..."); for that m keeps the names of the current first
 * layer's candidates, so its memory does not grow with the table.
 * A candidate with a PIM piece that pim-cycles refused (empty ns, the
 * reason in pim_refused) is left out and counted in m->nleft;
 * merge_done then warns once for the run ("file: warning: N candidates
 * left out, a PIM piece refused: REASON"), nothing when none was.
 * merge_block is merge_rows as a block function (arg: the struct merge,
 * *res: m->out), merge_done(arg) the check after its last block (0).
 * merge_free frees m.
 */
struct name_set;
struct merge {
	double			 sync_ns;
	struct table		 out;
	struct name_set		*seen;
	int64_t			 first;	/* of the last candidate */
	int			 any;	/* a candidate was folded */
	size_t			 nleft;	/* candidates left out, a PIM piece refused */
	char			*why;	/* the first one's pim_refused */
	char			*why_file;	/* and its input's name */
	struct layer_cache	*geom;	/* the geometries checked before */
};
void merge_init(struct merge *m, double sync_ns);
int merge_rows(struct merge *m, const struct table *t);
int merge_block(void *arg, struct table *in, const struct table **res);
int merge_done(void *arg);
void merge_free(struct merge *m);

/*
 * pf-merge once its options are parsed: the tables of the argc files of
 * argv (none: standard input) folded a candidate at a time (merge_block,
 * sync_ns per two-device step) to standard output.  Returns the exit
 * status, PF_EXIT_OK or PF_EXIT_DATA after a report.
 */
int merge_main(double sync_ns, char **argv, int argc);

#endif
