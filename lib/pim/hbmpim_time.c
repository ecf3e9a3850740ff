/*
 * HBM2-PIM engine: the PIMSimulator memory controller of one pseudo-channel
 * (src/MemoryController.cpp, CommandQueue.cpp, Rank.cpp, PIMRank.cpp at
 * SAITPublic/PIMSimulator@b464dde) clocked over the transaction streams that
 * its kernel generator (src/tests/PIMKernel.cpp) and benchmark harness
 * (src/tests/PIMBenchTestCases.cpp) produce.  The per-clock order, the
 * scheduler (refresh, then column command or activate, then precharge) and
 * the effects of each command are those of the simulator; the PIM blocks
 * are functional there and never delay a command, so they are absent here.
 *
 * Streams are generated lazily (hbmpim_stream.c), one kernel step
 * (prologue, one output iteration or tile, epilogue) at a time, so memory
 * stays small for any shape while the controller sees exactly the queue
 * contents the simulator's unbounded backlog would feed it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hbmpim_stream.h"
#include "hbmpim_time.h"
#include "xalloc.h"

#define MAXR	4
#define MAXB	64
#define MAXQ	256

enum { B_IDLE, B_ACTIVE, B_PRE, B_REF };
enum { M_SB, M_HAB, M_PIM };
enum { C_NONE, C_ACT, C_RD, C_WR, C_PRE, C_REF };

struct bank {
	int	st;
	int32_t	row;
	int64_t	nact, nrd, nwr, npre, cnt;
};

/* A command on the bus: which, its rank, bank, row and column, its flags. */
struct cmdrec {
	int	cmd, rank, bank, col, fl;
	int32_t	row;
};

struct chan {
	const struct hbmpim_dram *d;
	int64_t	nb;			/* banks per rank */
	struct bank bk[MAXR][MAXB];
	struct tx tq[MAXQ];		/* ring */
	size_t	tqh, tqn;
	struct tx cq[MAXR][MAXQ];
	size_t	cqn[MAXR];
	int	mode[MAXR], sbmark[MAXR], habmark[MAXR];
	int64_t	refc[MAXR];
	int	refptr, pending, rankptr, preptr;
	/* the command issued last clock, received by the rank this clock */
	struct cmdrec last;
	int64_t	phase_n;		/* transactions added in this phase */
	int64_t	maxdone;
	int64_t	t;
	struct hbmpim_run st;
	struct stream *s;
};

/* Derived command gaps (section "timing" of pim-cycles(1)). */
static int64_t
rd_pre(const struct hbmpim_dram *d)
{
	int64_t x = d->t_rtp_l > d->t_ccd_l ? d->t_rtp_l : d->t_ccd_l;

	return d->al + d->bl / 2 + x - d->t_ccd_l;
}
static int64_t wr_pre(const struct hbmpim_dram *d) { return d->wl + d->bl / 2 + d->t_wr; }
static int64_t wr_rd(const struct hbmpim_dram *d) { return d->wl + d->bl / 2 + d->t_wtr_l; }
static int64_t rd_wr(const struct hbmpim_dram *d) { return d->rl + d->bl / 2 + d->t_rtrs - d->wl; }

static int64_t
mx(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

void
hbmpim_dram_default(struct hbmpim_dram *d)
{
	/* Values and sources: share/pimflow/pim/hbm-pim.conf. */
	memset(d, 0, sizeof(*d));
	d->bl = 4; d->rl = 20; d->wl = 8; d->al = 0;
	d->t_ccd_s = 2; d->t_ccd_l = 4;
	d->t_rcdrd = 14; d->t_rcdwr = 10;
	d->t_ras = 33; d->t_rc = 47; d->t_rp = 14;
	d->t_rrd_s = 4; d->t_rrd_l = 6;
	d->t_wr = 16; d->t_rtp_l = 5; d->t_wtr_l = 9; d->t_rtrs = 1;
	d->t_refi = 3900; d->t_rfc = 350; d->t_cmd = 1;
	d->tq_depth = 64; d->cq_depth = 64;
	d->ranks = 2; d->bankgroups = 4; d->banks_per_group = 4;
	d->rows = 16384; d->columns = 32;
	d->burst_bytes = 32;
	d->refresh = 1;
}

int64_t
hbmpim_gemv_ot(int64_t out, int64_t channels)
{
	return (out + 64 * channels - 1) / (64 * channels);
}

int64_t
hbmpim_gemv_it(int64_t in)
{
	return (in + 127) / 128;
}

int64_t
hbmpim_elt_tiles(int64_t n, int64_t batch, int64_t channels)
{
	return batch * ((n + 15) / 16) / (16 * channels * 8);
}

/* ---- the controller ---- */

static int
same_group(const struct chan *c, int a, int b)
{
	return a / (int)c->d->banks_per_group == b / (int)c->d->banks_per_group;
}

static void
chan_init(struct chan *c, const struct hbmpim_dram *d)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->d = d;
	c->nb = d->bankgroups * d->banks_per_group;
	for (r = 0; r < d->ranks; r++)
		c->refc[r] = d->t_refi / d->ranks * (r + 1);
	c->pending = -1;
	c->maxdone = -1;
}

/* Add one transaction from the host: into the TQ. */
static void
tq_push(struct chan *c, const struct tx *x)
{
	struct tx y = *x;

	/* a barrier on the 64th transaction finds a full TQ: dropped */
	if (c->phase_n == c->d->tq_depth - 1)
		y.fl &= (uint8_t)~F_TAG;
	c->phase_n++;
	c->tq[(c->tqh + c->tqn) % MAXQ] = y;
	c->tqn++;
}

/* Start a run phase: the host adds every transaction of s at once. */
static void
phase_start(struct chan *c, struct stream *s)
{
	struct tx *x;

	c->s = s;
	c->phase_n = 0;
	while (c->tqn < (size_t)c->d->tq_depth && (x = hbmpim_stream_next_tx(s)) != NULL)
		tq_push(c, x);
}

static int
act_ok(const struct chan *c, int r, int b)
{
	const struct bank *k = &c->bk[r][b];

	if (k->st != B_IDLE && k->st != B_REF)
		return 0;
	if (c->t < k->nact)
		return 0;
	return c->mode[r] == M_SB || b < 2;
}

/* ACT: the bank opens row; every other bank of the rank waits tRRD. */
static void
issue_act(struct chan *c, int r, int b, int32_t row)
{
	const struct hbmpim_dram *d = c->d;
	struct bank *k = &c->bk[r][b];
	int64_t t = c->t;
	int j;

	k->st = B_ACTIVE;
	k->row = row;
	k->nact = mx(k->nact, t + d->t_rc);
	k->npre = mx(k->npre, t + d->t_ras);
	k->nrd = mx(k->nrd, t + d->t_rcdrd);
	k->nwr = mx(k->nwr, t + d->t_rcdwr);
	for (j = 0; j < c->nb; j++)
		if (j != b)
			c->bk[r][j].nact = mx(c->bk[r][j].nact, t +
			    (same_group(c, j, b) ? d->t_rrd_l : d->t_rrd_s));
	if (r == 0)
		c->st.act++;
}

/* A column command's rank-to-rank turnaround on the shared data bus. */
static void
col_other_ranks(struct chan *c, int cmd, int r)
{
	const struct hbmpim_dram *d = c->d;
	int64_t t = c->t;
	int j, q;

	for (q = 0; q < d->ranks; q++) {
		if (q == r)
			continue;
		for (j = 0; j < c->nb; j++) {
			struct bank *o = &c->bk[q][j];

			if (o->st != B_ACTIVE)
				continue;
			if (cmd == C_RD) {
				o->nrd = mx(o->nrd, t + d->bl / 2 + d->t_rtrs);
				o->nwr = mx(o->nwr, t + rd_wr(d));
			} else {
				o->nrd = mx(o->nrd, t + mx(d->wl + d->bl / 2 +
				    d->t_rtrs - d->rl, 0));
				o->nwr = mx(o->nwr, t + d->bl / 2 + d->t_rtrs);
			}
		}
	}
}

/* RD or WR (cmd) on bank b of rank r: the column gaps of every bank. */
static void
issue_col(struct chan *c, int cmd, int r, int b)
{
	const struct hbmpim_dram *d = c->d;
	struct bank *k = &c->bk[r][b];
	int64_t t = c->t;
	int j;

	k->npre = mx(k->npre, t + (cmd == C_RD ? rd_pre(d) : wr_pre(d)));
	for (j = 0; j < c->nb; j++) {
		struct bank *o = &c->bk[r][j];
		int64_t cc = same_group(c, j, b) ? d->t_ccd_l :
		    mx(d->t_ccd_s, d->bl / 2);

		if (cmd == C_RD) {
			o->nrd = mx(o->nrd, t + cc);
			o->nwr = mx(o->nwr, t + rd_wr(d));
		} else {
			o->nrd = mx(o->nrd, t + wr_rd(d));
			o->nwr = mx(o->nwr, t + cc);
		}
	}
	col_other_ranks(c, cmd, r);
	c->maxdone = mx(c->maxdone, t + (cmd == C_RD ?
	    d->t_cmd + d->rl + d->bl / 2 : d->wl + d->bl / 2));
	if (r == 0) {
		if (cmd == C_RD)
			c->st.rd++;
		else
			c->st.wr++;
	}
}

/* REF: every bank of rank r refreshes for tRFC. */
static void
issue_ref(struct chan *c, int r)
{
	const struct hbmpim_dram *d = c->d;
	int j;

	for (j = 0; j < c->nb; j++) {
		c->bk[r][j].st = B_REF;
		c->bk[r][j].cnt = d->t_rfc;
		c->bk[r][j].nact = c->t + d->t_rfc;
	}
	if (r == 0)
		c->st.ref++;
}

/* Issue cmd this clock, remembered for the rank's receipt next clock. */
static void
issue(struct chan *c, int cmd, int r, int b, int32_t row, int col, int fl)
{
	struct bank *k = &c->bk[r][b];

	c->last = (struct cmdrec){ cmd, r, b, col, fl, row };
	switch (cmd) {
	case C_ACT:
		issue_act(c, r, b, row);
		break;
	case C_RD:
	case C_WR:
		issue_col(c, cmd, r, b);
		break;
	case C_PRE:
		c->last.row = k->row;
		k->st = B_PRE;
		k->cnt = c->d->t_rp;
		k->nact = mx(k->nact, c->t + c->d->t_rp);
		if (r == 0)
			c->st.pre++;
		break;
	case C_REF:
		issue_ref(c, r);
		break;
	}
}

/* Step 3: the rank applies the mode-register effect of last clock's command. */
static void
rank_receive(struct chan *c)
{
	const struct cmdrec *x = &c->last;
	int r = x->rank, b = x->bank;

	if (x->cmd == C_NONE)
		return;
	if (c->mode[r] == M_SB && x->cmd == C_ACT && x->row == ROW_SB2HAB &&
	    x->col == COL_MODE && (b == 0 || b == 1 || b == 8 || b == 9)) {
		c->sbmark[r] |= 1 << ((b & 1) | (b >= 8 ? 2 : 0));
		if (c->sbmark[r] == 15) {
			c->mode[r] = M_HAB;
			c->sbmark[r] = 0;
		}
	} else if (c->mode[r] != M_SB && x->cmd == C_WR &&
	    x->row == ROW_REGS && x->col == 0) {
		c->mode[r] = (x->fl & F_ON) ? M_PIM : M_HAB;
	} else if (c->mode[r] == M_HAB && x->cmd == C_PRE &&
	    x->row == ROW_HAB2SB && b < 2) {
		c->habmark[r] |= 1 << b;
		if (c->habmark[r] == 3) {
			c->mode[r] = M_SB;
			c->habmark[r] = 0;
		}
	}
	c->last.cmd = C_NONE;
}

static void
cq_remove(struct chan *c, int r, size_t i)
{
	memmove(&c->cq[r][i], &c->cq[r][i + 1],
	    (c->cqn[r] - i - 1) * sizeof(c->cq[r][0]));
	c->cqn[r]--;
}

/* B1: column command; B2: activate.  1 when a command issued. */
static int
sched_rank(struct chan *c, int r)
{
	struct tx *q = c->cq[r];
	size_t n = c->cqn[r], i, j;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		const struct bank *k = &c->bk[r][q[i].bank];
		int wr = q[i].fl & F_WR;

		if (i > 0 && ((q[0].fl & F_TAG) || (q[i].fl & F_TAG)))
			break;
		if (k->st != B_ACTIVE || k->row != q[i].row ||
		    c->t < (wr ? k->nwr : k->nrd))
			continue;
		for (j = 0; j < i; j++)
			if (q[j].bank == q[i].bank && q[j].row == q[i].row &&
			    q[j].col == q[i].col)
				break;
		if (j < i)
			continue;
		issue(c, wr ? C_WR : C_RD, r, q[i].bank, q[i].row, q[i].col,
		    q[i].fl);
		cq_remove(c, r, i);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (i > 0 && (q[i].fl & F_TAG))
			break;
		if (c->bk[r][q[i].bank].st == B_IDLE && act_ok(c, r, q[i].bank)) {
			issue(c, C_ACT, r, q[i].bank, q[i].row, q[i].col, 0);
			return 1;
		}
	}
	return 0;
}

static int
wanted(const struct chan *c, int r, int b)
{
	const struct tx *q = c->cq[r];
	size_t i;

	for (i = 0; i < c->cqn[r]; i++) {
		if (q[i].bank == b && q[i].row == c->bk[r][b].row)
			return 1;
		if (q[i].fl & F_TAG)
			break;
	}
	return 0;
}

/* Step 5: at most one command. */
static void
schedule(struct chan *c)
{
	const struct hbmpim_dram *d = c->d;
	int r, b, k, np = (int)(d->ranks * c->nb), any = 0;

	if (c->pending >= 0) {
		r = c->pending;
		for (b = 0; b < c->nb; b++) {
			struct bank *x = &c->bk[r][b];

			if (x->st != B_ACTIVE)
				continue;
			any = 1;
			if (c->t >= x->npre) {
				issue(c, C_PRE, r, b, 0, 0, 0);
				return;
			}
		}
		if (!any) {
			issue(c, C_REF, r, 0, 0, 0, 0);
			c->pending = -1;
			return;
		}
	}
	for (k = 0; k < d->ranks; k++) {
		if (sched_rank(c, c->rankptr))
			return;
		c->rankptr = (c->rankptr + 1) % (int)d->ranks;
	}
	/* C: a full circle without a precharge leaves the pointer in place */
	r = c->preptr % (int)d->ranks;
	b = c->preptr / (int)d->ranks;
	for (k = 0; k < np; k++) {
		struct bank *x = &c->bk[r][b];

		if (x->st == B_ACTIVE && c->t >= x->npre && !wanted(c, r, b)) {
			c->preptr = b * (int)d->ranks + r;
			issue(c, C_PRE, r, b, 0, 0, 0);
			return;
		}
		if (++r == d->ranks) {
			r = 0;
			if (++b == c->nb)
				b = 0;
		}
	}
}

/* One clock (steps 1-8); 0 when it changed nothing but the time. */
static int
clock1(struct chan *c)
{
	const struct hbmpim_dram *d = c->d;
	struct tx *x;
	int r, b, changed = c->last.cmd != C_NONE;
	size_t i;

	if (c->s != NULL && c->tqn < (size_t)d->tq_depth &&
	    (x = hbmpim_stream_next_tx(c->s)) != NULL) {
		tq_push(c, x);
		changed = 1;
	}
	for (r = 0; r < d->ranks; r++)
		for (b = 0; b < c->nb; b++) {
			struct bank *k = &c->bk[r][b];

			if (k->cnt > 0 && --k->cnt == 0 &&
			    (k->st == B_PRE || k->st == B_REF)) {
				k->st = B_IDLE;
				changed = 1;
			}
		}
	rank_receive(c);
	if (d->refresh && c->refc[c->refptr] == 0) {
		c->pending = c->refptr;
		c->refc[c->refptr] = d->t_refi;
		c->refptr = (c->refptr + 1) % (int)d->ranks;
		changed = 1;
	}
	schedule(c);
	if (c->last.cmd != C_NONE)
		changed = 1;
	for (r = 0, b = 0; r < d->ranks; r++)
		b |= c->cqn[r] < (size_t)d->cq_depth;
	for (i = 0; b && i < c->tqn; i++) {
		struct tx *y = &c->tq[(c->tqh + i) % MAXQ];

		if (c->cqn[y->rank] < (size_t)d->cq_depth) {
			c->cq[y->rank][c->cqn[y->rank]++] = *y;
			/* close the gap: shift the older ones up by one */
			for (; i > 0; i--)
				c->tq[(c->tqh + i) % MAXQ] =
				    c->tq[(c->tqh + i - 1) % MAXQ];
			c->tqh = (c->tqh + 1) % MAXQ;
			c->tqn--;
			changed = 1;
			break;
		}
	}
	for (r = 0; r < d->ranks; r++)
		c->refc[r]--;
	c->t++;
	return changed;
}

static void
lower(int64_t *e, int64_t v, int64_t t)
{
	if (v >= t && v < *e)
		*e = v;
}

/*
 * After a clock that changed nothing but the time, every clock is the
 * same until a bank bound, a countdown, a refresh request or the last
 * completion comes due: jump there (at most to limit) in one step.
 */
static void
skip_idle(struct chan *c, int64_t limit)
{
	const struct hbmpim_dram *d = c->d;
	int64_t t = c->t, e = limit, n;
	int r, b;

	for (r = 0; r < d->ranks; r++)
		for (b = 0; b < c->nb; b++) {
			const struct bank *k = &c->bk[r][b];

			lower(&e, k->nact, t);
			lower(&e, k->nrd, t);
			lower(&e, k->nwr, t);
			lower(&e, k->npre, t);
			if (k->cnt > 0)
				lower(&e, t + k->cnt - 1, t);
		}
	if (d->refresh)
		lower(&e, t + c->refc[c->refptr], t);
	lower(&e, c->maxdone + 1, t);
	if (e <= t)
		return;
	n = e - t;
	for (r = 0; r < d->ranks; r++) {
		for (b = 0; b < c->nb; b++)
			if (c->bk[r][b].cnt > 0)
				c->bk[r][b].cnt -= n;
		c->refc[r] -= n;
	}
	c->t = e;
}

static int
busy(const struct chan *c)
{
	size_t r, q = c->tqn;

	for (r = 0; r < (size_t)c->d->ranks; r++)
		q += c->cqn[r];
	return q > 0 || c->maxdone >= c->t || (c->s != NULL && !c->s->ended);
}

/* Clock until the phase has no unfinished transaction left. */
static void
run_phase(struct chan *c)
{
	while (busy(c))
		if (!clock1(c))
			skip_idle(c, INT64_MAX);
	c->s = NULL;
}

static int
dram_ok(const struct hbmpim_dram *d)
{
	return d->ranks >= 1 && d->ranks <= MAXR &&
	    d->bankgroups * d->banks_per_group >= 16 &&
	    d->bankgroups * d->banks_per_group <= MAXB &&
	    d->tq_depth >= 1 && d->tq_depth <= MAXQ &&
	    d->cq_depth >= 1 && d->cq_depth <= MAXQ &&
	    d->columns >= 32 && d->rows > ROW_REGS && d->bl >= 2;
}

/* Stream s alone on a fresh channel of d, its counts and cycles in r. */
static void
run_alone(const struct hbmpim_dram *d, struct stream *s, struct hbmpim_run *r)
{
	struct chan *c = xmalloc(sizeof(*c));

	chan_init(c, d);
	phase_start(c, s);
	run_phase(c);
	*r = c->st;
	r->cycles = c->t;
	free(c);
	free(s->b.v);
}

int
hbmpim_pim(const struct hbmpim_dram *d, enum hbmpim_kernel k, int64_t out,
    int64_t in, int64_t batch, int64_t channels, struct hbmpim_run *r)
{
	struct stream s;

	memset(r, 0, sizeof(*r));
	if (!dram_ok(d) || batch < 1 || channels < 1 || out < 1 ||
	    channels > (int64_t)1 << 20 || batch > (int64_t)1 << 30)
		return -1;
	memset(&s, 0, sizeof(s));
	s.d = d;
	s.k = k;
	s.batch = batch;
	if (k == HP_GEMV || k == HP_GEMV_TREE) {
		if (in < 1 || out > (int64_t)1 << 40 || in > (int64_t)1 << 40)
			return -1;
		s.n_ot = hbmpim_gemv_ot(out, channels);
		s.n_it = hbmpim_gemv_it(in);
		/* weight rows (2 per tile) must stay below the special rows */
		if (s.n_ot > ((int64_t)1 << 40) / s.n_it ||
		    s.n_ot * s.n_it + 2 >= ROW_PARK * 4)
			return -1;
		s.batch = batch;
		s.n_t = 0;
	} else {
		if (out > (int64_t)1 << 40)
			return -1;
		s.batch = 1;
		s.n_ot = 1;
		s.n_t = hbmpim_elt_tiles(out, batch, channels);
		if (s.n_t < 1 || 8 * s.n_t / d->columns + 256 >= ROW_PARK)
			return -1;
	}
	run_alone(d, &s, r);
	return 0;
}

int
hbmpim_write(const struct hbmpim_dram *d, int64_t bursts, struct hbmpim_run *r)
{
	struct stream s;

	memset(r, 0, sizeof(*r));
	if (!dram_ok(d) || bursts < 1 || bursts > d->ranks * d->rows *
	    d->columns * d->bankgroups * d->banks_per_group)
		return -1;
	memset(&s, 0, sizeof(s));
	s.d = d;
	s.base = 1;
	s.wr = 1;
	s.count = bursts;
	run_alone(d, &s, r);
	return 0;
}

/* The bursts of region [a0, a0 + n) that channel ch of C gets: first, count. */
static void
share(int64_t a0, int64_t n, int64_t ch, int64_t C, int64_t *first,
    int64_t *count)
{
	int64_t lo = a0 + ((ch - a0 % C) % C + C) % C;	/* first a = ch mod C */

	*first = lo / C;
	*count = lo < a0 + n ? (a0 + n - lo + C - 1) / C : 0;
}

/*
 * The bursts of a base kernel over channels: *rd of fp16 operands read,
 * then *wr of the result written.  -1 for a shape past the bounds or the
 * channels' capacity.
 */
static int
base_bursts(const struct hbmpim_dram *d, enum hbmpim_kernel k, int64_t out,
    int64_t in, int64_t batch, int64_t channels, int64_t *rd, int64_t *wr)
{
	int64_t cap;

	if (!dram_ok(d) || batch < 1 || channels < 1 || out < 1 ||
	    channels > 4096 || batch > (int64_t)1 << 20 ||
	    out > (int64_t)1 << 24 || in > (int64_t)1 << 24)
		return -1;
	if (k == HP_GEMV || k == HP_GEMV_TREE) {
		if (in < 1)
			return -1;
		*rd = out * in * 2 + in * batch * 2;
		*wr = out * batch * 2;
	} else {
		*rd = (k == HP_RELU ? 1 : 2) * out * batch * 2;
		*wr = out * batch * 2;
	}
	cap = d->ranks * d->rows * d->columns * d->bankgroups *
	    d->banks_per_group;
	*rd = (*rd + d->burst_bytes - 1) / d->burst_bytes;
	*wr = (*wr + d->burst_bytes - 1) / d->burst_bytes;
	if ((*rd + *wr) / channels + 1 > cap)
		return -1;
	return 0;
}

/* Bursts first .. first + count - 1 of stream s, one phase on channel c. */
static void
run_region(struct chan *c, struct stream *s, int64_t first, int64_t count)
{
	s->first = first;
	s->count = count;
	s->done = 0;
	s->ended = 0;
	s->b.n = s->b.pos = 0;
	phase_start(c, s);
	run_phase(c);
}

int
hbmpim_base(const struct hbmpim_dram *d, enum hbmpim_kernel k, int64_t out,
    int64_t in, int64_t batch, int64_t channels, struct hbmpim_run *r)
{
	int64_t rd, wr, ch, f1, n1, f2, n2, t1 = 0, best = 0;
	struct stream s1, s2;
	struct chan *c, *cls;
	int64_t (*sig)[4];
	size_t ncls = 0, i;

	memset(r, 0, sizeof(*r));
	if (base_bursts(d, k, out, in, batch, channels, &rd, &wr) < 0)
		return -1;
	/* channels with the same share of both regions run the same stream */
	sig = xcalloc((size_t)channels, sizeof(*sig));
	cls = xcalloc((size_t)channels, sizeof(*cls));
	memset(&s1, 0, sizeof(s1));
	memset(&s2, 0, sizeof(s2));
	s1.d = s2.d = d;
	s1.base = s2.base = 1;
	s2.wr = 1;
	for (ch = 0; ch < channels; ch++) {
		share(0, rd, ch, channels, &f1, &n1);
		share(rd, wr, ch, channels, &f2, &n2);
		for (i = 0; i < ncls; i++)
			if (sig[i][0] == f1 && sig[i][1] == n1 &&
			    sig[i][2] == f2 && sig[i][3] == n2)
				break;
		if (i < ncls)
			continue;
		sig[ncls][0] = f1;
		sig[ncls][1] = n1;
		sig[ncls][2] = f2;
		sig[ncls][3] = n2;
		c = &cls[ncls++];
		chan_init(c, d);
		run_region(c, &s1, f1, n1);
		t1 = mx(t1, c->t);
	}
	/* the writes start once every channel has read */
	for (i = 0; i < ncls; i++) {
		c = &cls[i];
		while (c->t < t1)
			if (!clock1(c))
				skip_idle(c, t1);
		run_region(c, &s2, sig[i][2], sig[i][3]);
		best = mx(best, c->t);
		if (i == 0)
			*r = c->st;
	}
	r->cycles = best;
	free(s1.b.v);
	free(s2.b.v);
	free(sig);
	free(cls);
	return 0;
}
