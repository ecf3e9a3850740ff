/*
 * pf-merge: the costed pieces of tasks.csv folded into one row per
 * candidate (costs.csv).  A candidate's wall time is the sum over its
 * time steps of the busier device's work in that step (pieces of one
 * device in one step run one after another, the two devices overlap;
 * the PIM side's work includes the hand-offs of data between its pieces
 * and GPU pieces of the candidate), plus an optional synchronisation cost for every step of a candidate
 * that uses both devices.  Times are summed as integer picoseconds, so
 * the result does not depend on the order of the pieces.
 */
#ifndef PF_SOLVE_MERGE_H
#define PF_SOLVE_MERGE_H

#include "csvio.h"

/* costs.csv's columns are task_cost_cols[] and task_cost_opt[] (task.h). */

/*
 * Fold tasks into costs (initialised here; the caller frees it in every
 * case).  sync_ns >= 0 is added per step of a two-device candidate.
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
 * Bounds of the picosecond arithmetic: a piece's (and pf-merge -y's) ns at
 * most MERGE_PIECE_MAX_NS (9000 s); every sum is checked against the
 * 64-bit range, about 9.2e15 ns, and one that passes it is an error.
 */
#define MERGE_PIECE_MAX_NS 9e12
#define MERGE_MAX_NS "9.2e15"

/*
 * Parse a decimal ns value as integer picoseconds; 0, or -1 when it is not
 * a number from 0 to MERGE_PIECE_MAX_NS.
 */
int ns_to_ps(const char *s, long long *ps);
/* Write ps as a decimal ns value with three fractional digits. */
void ps_to_ns(long long ps, char *buf, size_t n);

#endif
