/*
 * The time-optimal plans of several policies solved while the candidates
 * are still being read (pf-solve reads costs.csv a block at a time, the
 * cost stages before it still working), so that nothing of the dynamic
 * program is left for after the input ends.  solve_dp_order relaxes the
 * candidates by last layer: every prefix's best is final before a
 * candidate that starts there is looked at.  Input sorted by first layer
 * (as pf-split writes its candidates and pf-merge keeps them) has the
 * same property for a forward relaxation in input order: every candidate
 * that ends before layer i starts before it, so it came earlier.  The
 * candidates that reach one prefix are met in input order either way, so
 * the kept point of each prefix, ties included (the earliest stays), and
 * so the plan, are solve_dp_order's.  Only time without a power cap is
 * solved so (energy is final only once every row is read, costs_end); a
 * plan's energy is summed along it at the end, which is exact when no
 * sum over the candidates can overflow (checked, else the caller falls
 * back to solve_dp_order).  Input out of order, a policy not streamed,
 * another objective: the caller solves as before.
 */
#ifndef PF_SOLVE_STREAM_H
#define PF_SOLVE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "solve.h"

struct solve_stream;

/*
 * A stream solving the policies of mask pols (bit p: policy p; attn-pim,
 * which reads what layers.csv says of KV caches, is never streamed).
 */
struct solve_stream *solve_stream_new(unsigned pols);
void solve_stream_free(struct solve_stream *ss);

/*
 * Candidate x, index i of the candidates read: its layers, kind, PIM
 * settings, times and edges are read here (energy is not).  A candidate
 * starting before the one added last ends the stream (every later answer
 * is SOLVE_STREAM_NONE).
 */
void solve_stream_add(struct solve_stream *ss, const struct cand *x,
    size_t i);

/*
 * Once the energies of c[0..] (the candidates added) are final: whether
 * a plan's energy may be summed along it (solve_stream_plan works it out
 * at its first call otherwise).  Reads c only, so it may run beside
 * other readers.
 */
void solve_stream_seal(struct solve_stream *ss, const struct cand *c);

/* solve_stream_plan's answer when it has none: solve otherwise. */
#define SOLVE_STREAM_NONE	1

/*
 * solve_dp_order's answer for policy p under objective o over c[0..nc-1]
 * (the candidates added, in order, then any the caller appended, such as
 * pf-solve -D's, none of which p may use) and layers 0..n-1: the same
 * returns, plan, *bad and *stuck, or SOLVE_STREAM_NONE when the stream
 * cannot give it (pl untouched then).
 */
int solve_stream_plan(struct solve_stream *ss, const struct cand *c,
    size_t nc, int64_t n, enum policy p, const struct objective *o,
    struct plan *pl, int64_t *bad, int64_t *stuck);

#endif
