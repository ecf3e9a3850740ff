/*
 * Samsung HBM2-PIM (Aquabolt-XL, "FIMDRAM") timing, clock by clock, as
 * Samsung SAIT's public PIMSimulator times it (SAITPublic/PIMSimulator at
 * b464dde): one DRAMSim2-style memory controller per pseudo-channel
 * (transaction queue, per-rank command queue, open-page policy with eager
 * closing, barriers, refresh) fed with the command streams of the PIM
 * kernel generator (GEMV, ADD, MUL, ReLU) or with the plain streaming
 * baseline.  The PIM arithmetic takes no time in that simulator; all time
 * comes from the DRAM command rules, so this module is the whole engine.
 * hbm-pim.conf gives the parameters; pim-cycles(1) documents the mapping.
 */
#ifndef PF_HBMPIM_TIME_H
#define PF_HBMPIM_TIME_H

#include <stdint.h>

/* Device and controller parameters, in memory clocks (hbm-pim.conf). */
struct hbmpim_dram {
	int64_t	bl, rl, wl, al;		/* burst length, latencies */
	int64_t	t_ccd_s, t_ccd_l;	/* column->column other / same group */
	int64_t	t_rcdrd, t_rcdwr;	/* ACT->RD, ACT->WR */
	int64_t	t_ras, t_rc, t_rp;	/* ACT->PRE, ACT->ACT, PRE->ACT */
	int64_t	t_rrd_s, t_rrd_l;	/* ACT->ACT other bank, other/same group */
	int64_t	t_wr, t_rtp_l, t_wtr_l, t_rtrs;
	int64_t	t_refi, t_rfc, t_cmd;
	int64_t	tq_depth, cq_depth;	/* queue entries per channel / rank */
	int64_t	ranks, bankgroups, banks_per_group, rows, columns;
	int64_t	burst_bytes;		/* bytes of one column access (32) */
	int	refresh;		/* 0: no refresh (closed-form checks) */
};

/* The published device (values and sources: share/pimflow/pim/hbm-pim.conf). */
void hbmpim_dram_default(struct hbmpim_dram *d);

enum hbmpim_kernel {
	HP_GEMV,	/* executeGemv, weights resident in the banks */
	HP_GEMV_TREE,	/* executeGemv(..., true) */
	HP_ADD, HP_MUL, HP_RELU
};

/* The result of one run: total clocks and channel 0's command counts. */
struct hbmpim_run {
	int64_t	cycles;
	int64_t	rd, wr, act, pre, ref;
};

/* Tiles of a GEMV: n_ot = ceil(out / (64 C)), n_it = ceil(in / 128). */
int64_t hbmpim_gemv_ot(int64_t out, int64_t channels);
int64_t hbmpim_gemv_it(int64_t in);
/* Tiles of an elementwise kernel: floor(B ceil(n/16) / (128 C)). */
int64_t hbmpim_elt_tiles(int64_t n, int64_t batch, int64_t channels);

/*
 * Time one PIM kernel on C channels (all run the same stream in lock
 * step, so one is simulated).  GEMV: out x in fp16 weights, batch B;
 * eltwise: n elements times B (in is ignored).  Returns -1 (no report)
 * for a shape with no tile or one that does not fit the rows.
 */
int hbmpim_pim(const struct hbmpim_dram *d, enum hbmpim_kernel k,
    int64_t out, int64_t in, int64_t batch, int64_t channels,
    struct hbmpim_run *r);

/*
 * The non-PIM baseline of the same kernel: streaming reads of the
 * operands interleaved over C channels at burst granularity, clocked to
 * completion on every channel, then streaming writes of the result.
 * Returns -1 (no report) for an empty or too large region.
 */
int hbmpim_base(const struct hbmpim_dram *d, enum hbmpim_kernel k,
    int64_t out, int64_t in, int64_t batch, int64_t channels,
    struct hbmpim_run *r);

/*
 * Plain writes of `bursts` consecutive bursts on one channel (the
 * baseline's address mapping: consecutive bursts in consecutive banks),
 * clocked to completion; the KV append (pim-cycles(1)).  Returns -1 (no
 * report) for a count outside 1 .. the channel's capacity.
 */
int hbmpim_write(const struct hbmpim_dram *d, int64_t bursts,
    struct hbmpim_run *r);

#endif
