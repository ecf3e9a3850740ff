/*
 * PIM command generation: how PIMFlow's pim_codegen turns one GEMV-shaped
 * layer into per-channel Newton command streams (share/doc/newton-timing.md §5),
 * reproduced structurally, quirks included, without writing any text: a
 * layer becomes one or two parts (the full 512-element chunks, and the
 * remainder chunk), each a number of identical blocks (GWRITE + G_ACT
 * sets); the block is dealt to channel groups and its READRES groups to
 * the channels of a group round-robin, after the shared block template
 * was split and overwritten exactly as the published scheduler does.
 * newton_gen_chan_block() gives the compact block of any channel for the timing
 * engine (newton_time.h); newton_gen_write_trace() writes the published text.
 */
#ifndef PF_NEWTON_GEN_H
#define PF_NEWTON_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "newton_time.h"
#include "pim_engine.h"
#include "pim_model.h"

/*
 * A GEMV-shaped piece of work: p instances of (co x ci*kh*kw) . vector,
 * the geometry pim_gemv_map gives (h: input rows, only for the GWRITE
 * stride text).  The generator schedules one instance of g and never
 * reads g.inst; how many instances run, and how a KV cache packs them, is
 * the caller's (newton_cost's job_map), which keeps g.inst at 1 so that
 * equal jobs compare equal.
 */
struct ngen_layer {
	struct pim_gemv	g;
	/*
	 * A KV cache (pim-cycles(1)): its layout is ours, so the row's
	 * segments hold distinct outputs (newton_gen_kv_pack) instead of copies
	 * of one; hpr instances (heads) share a row when that rule leaves
	 * segments spare (0 or 1: one).
	 */
	int	packed;
	int64_t	hpr;
};

/* The KV packing of one reduction segment (newton_gen_kv_pack). */
struct ngen_pack {
	int64_t	qpb;		/* streamed rows (queries) per buffer load */
	int64_t	kpr;		/* distinct outputs per bank row segment set */
	int64_t	hpr;		/* instances (heads) sharing the row */
};

/*
 * The packing rule of a KV-cache GEMV (pim-cycles(1)): a row of
 * gbuf_elems per bank read against one buffer load holds fl =
 * floor(gbuf_elems / seg) segments of seg elements (the reduction,
 * padded to comp_elems); qpb = min(p, fl) streamed rows (the query heads
 * sharing the key/value head) fill the buffer, each segment pairs one of
 * them with one of kpr = min(floor(fl / qpb), ceil(co / banks)) outputs
 * (keys of q.K^T, value dims of p.V) per bank, and hpr = floor(fl /
 * (qpb kpr)) instances share what is left.  seg must be <= gbuf_elems.
 */
void newton_gen_kv_pack(const struct pim_model *m, int64_t seg, int64_t p,
    int64_t co, struct ngen_pack *k);

/* One part of a layer after scheduling with its chosen n_gwrite. */
struct ngen_part {
	int64_t	 blocks;	/* B: blocks of the part (all channels) */
	int64_t	 r;		/* G_ACT sets per block (16-output row groups) */
	int64_t	 q;		/* COMPs per READRES group before any split */
	int64_t	 rho;		/* READRES groups of the template (after split) */
	int64_t	 chunks;	/* partial sums per output from the chunks */
	int64_t	 split;		/* product of the split factors f (1 = none) */
	int64_t	 g;		/* chosen n_gwrite */
	int64_t	 n;		/* channels per group (nch / g) */
	int64_t	 chunk;		/* blocks per channel group: ceil(B / g) */
	int64_t	 stride_text[3];	/* GWRITE stride numbers when used */
	int	 has_stride;
	size_t	 units;		/* U: units (G_ACT sets dealt) per block */
	size_t	*uoff;		/* units + 1 offsets into ucnt/ucol */
	int64_t	*ucnt;		/* COMPs of each group written in a unit */
	int64_t	*ucol;		/* first COMP column of each such group */
	int64_t	 gact0_ch0;	/* channel 0's G_ACT0 count (selection rule) */
	int64_t	 text_ch0;	/* channel 0's trace length in characters */
};

struct ngen_plan {
	int64_t		nch;		/* PIM channels */
	int		nparts;
	struct ngen_part part[2];
};

/* A channel's block of one part, as nt_block plus its own storage. */
struct ngen_chblock {
	struct nt_block	 b;
	size_t		*off;
	int64_t		*grp;
	int64_t		*col;
	size_t		*unit;		/* unit index of each set */
};

/*
 * Generate the schedule of l on nch channels with n_gwrite up to max_gw
 * (passes g = 1, 2, 4, ... <= min(max_gw, nch)).  Returns 0, or -1 (no
 * report) if the layer is too large to schedule; *p is then empty.
 * Free with newton_gen_free.
 */
int newton_gen_build(const struct pim_model *m, const struct ngen_layer *l,
    int64_t nch, int64_t max_gw, struct ngen_plan *p);
/*
 * As newton_gen_build, but part 0 (1) keeps the pass with n_gwrite pick0
 * (pick1) instead of the published choice when that is > 0; the passes
 * before it still run, as their template changes carry over.  -1 if no
 * such pass exists.
 */
int newton_gen_build_pick(const struct pim_model *m, const struct ngen_layer *l,
    int64_t nch, int64_t max_gw, int64_t pick0, int64_t pick1,
    struct ngen_plan *p);
void newton_gen_free(struct ngen_plan *p);

/* Blocks of part pt that channel ch (0-based) receives. */
int64_t newton_gen_chan_blocks(const struct ngen_part *pt, int64_t ch);
/* Units per block, and whether the last (short) unit is among them. */
size_t newton_gen_chan_units(const struct ngen_part *pt, int64_t ch, int *has_last);

/* Build channel ch's block of part pt; free with newton_gen_chblock_free. */
void newton_gen_chan_block(const struct ngen_part *pt, int64_t ch,
    struct ngen_chblock *cb);
void newton_gen_chblock_free(struct ngen_chblock *cb);

/*
 * Write channel ch's streams of every part in the published trace format
 * (share/doc/pimflow-method.md §5), repeated `repeat` times; returns 0 or -1
 * on a write error.
 */
int newton_gen_write_trace(FILE *fp, const struct ngen_plan *p, int64_t ch,
    int64_t repeat);

#endif
