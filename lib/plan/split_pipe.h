/*
 * Pipelined chains: consecutive layers cut into S row stages that flow
 * from one device to the other, bottom stage first (share/doc/pimflow-method.md
 * §4).  Layer i of the chain runs on the first device when i is even and
 * on the other when odd; its stage s runs at time step i + s, so a chain
 * of L layers takes L + S - 1 steps and each step overlaps the devices.
 *
 * The halo rows are exact for any kernel, stride, dilation and padding:
 * the last layer's output rows are cut into S parts, and each earlier
 * layer's stage computes exactly the rows the next layer's stage needs
 * that no earlier stage has computed (its first stage also the rows below
 * them, its last stage the rows above), so the union of a layer's stages
 * is its whole output and every piece's input exists one step before.
 * Pure functions of struct layer, like split_geom.h.
 */
#ifndef PF_SPLIT_PIPE_H
#define PF_SPLIT_PIPE_H

#include "split_geom.h"

#define PIPE_MAXLEN	8	/* layers in a chain */
#define PIPE_MAXSTAGE	8	/* stages */

/*
 * Nonzero if b may follow a directly in a chain: both convs (stages along
 * h) or both gemm/matmul (stages along m, no halo), b's only producer is
 * a (b_preds/nb_preds), b's input is a's output, and, unless r->pipe_stride,
 * the published restrictions hold: b's stride is 1, and a strided a has an
 * input height divisible by 4 (no odd H or H/2).  Dilated convs need
 * r->split_dil.
 */
int split_pipe_link_ok(const struct layer *a, const struct layer *b,
    const int64_t *b_preds, int nb_preds, const struct split_rules *r);

/*
 * Chain type of chain[0..n-1]: the published 1 (1x1 conv -> depthwise,
 * PIM first), 2 (non-1x1 conv -> 1x1, GPU first), 3 (1x1 -> depthwise ->
 * 1x1, PIM first); PIPE_FC (a weight gemm feeding a weight gemm, as a
 * Transformer's MLP, either device first; not published, see pf-split(1)
 * -p fc); or 0 for none.  The links must be checked separately.
 */
#define PIPE_FC	4
int split_pipe_type(const struct layer *chain, int n);

/*
 * The L*S pieces of chain[0..L-1] in S stages with layer 0 on dev0,
 * ordered by step, then chain index.  Returns L*S, or -1 when a piece
 * would be empty (fewer output rows than stages, or a halo swallowing a
 * stage) or the shapes do not chain, or SPLIT_TOOBIG when a count
 * overflows.
 */
int split_pipe_chain(const struct layer *chain, int L, int S, enum split_dev dev0,
    struct piece *pc);

#endif
