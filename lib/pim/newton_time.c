/*
 * The channel timing engine of newton_time.h: an exact event model of the
 * in-order PIM queue of PIMFlow_ramulator (share/doc/newton-timing.md §4),
 * with runs of identical blocks skipped by their measured duration while no refresh can
 * touch them.  newton_time_run(..., exact = 1) issues every command and is the
 * oracle the tests compare the fast path against.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "newton_time.h"

#define NEG	(INT64_MIN / 4)		/* "never issued" */
#define INF	(INT64_MAX / 4)

/* Engine state: the clock of the most recent issue of each command. */
struct eng {
	const struct pim_model *m;
	int64_t	c;			/* GWRITE->GWRITE/G_ACT spacing */
	int64_t	now;			/* last issue clock */
	int64_t	gw, ga[4], comp, rr, prea, ref;
	int64_t	resume;			/* nothing issues before this (REF + 1) */
	int64_t	next_inj;		/* next refresh injection clock */
	int64_t	refi;			/* injection period (t_refi; INF: none) */
	int64_t	*rec;			/* READRES clocks, or NULL (calibrate) */
	size_t	nrec;
	int	any_rr;			/* a READRES was issued */
	int	over;			/* a clock or count passed 64 bits */
	struct nt_stats st;
};

static int64_t
max2(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static void
eng_init(struct eng *e, const struct pim_model *m, int hiding)
{
	int k;

	memset(e, 0, sizeof(*e));
	e->m = m;
	e->c = pim_model_c(m, hiding);
	/* A virtual READRES puts the first GWRITE at clock 1. */
	e->rr = 1 - m->t_readres_gwrite;
	e->now = e->rr < 0 ? e->rr : 0;
	e->gw = e->comp = e->prea = e->ref = e->resume = NEG;
	for (k = 0; k < 4; k++)
		e->ga[k] = NEG;
	e->next_inj = m->t_refi;
	e->refi = m->t_refi;
}

static inline int64_t
issue(struct eng *e, enum nt_cmd cmd)
{
	const struct pim_model *m = e->m;
	int64_t t = max2(max2(e->now + 1, e->resume), 1);
	int k;

	switch (cmd) {
	case NT_GWRITE:
		t = max2(t, max2(e->rr + m->t_readres_gwrite, e->gw + e->c));
		e->gw = t;
		e->st.gwrite++;
		break;
	case NT_GACT0:
		t = max2(t, e->gw + e->c);
		t = max2(t, max2(e->prea + m->t_rp, e->ref + m->t_rfc));
		e->ga[0] = t;
		e->st.gact++;
		break;
	case NT_GACT1: case NT_GACT2: case NT_GACT3:
		k = (int)(cmd - NT_GACT0);
		t = max2(t, max2(e->gw + e->c, e->ga[k - 1] + m->t_faw));
		e->ga[k] = t;
		e->st.gact++;
		break;
	case NT_COMP:
		for (k = 0; k < 4; k++)
			t = max2(t, e->ga[k] + m->t_rcd);
		t = max2(t, max2(e->comp + m->t_ccd_s, e->gw + m->t_gwrite_comp));
		e->comp = t;
		e->st.comp++;
		break;
	case NT_READRES:
		t = max2(t, e->comp + m->t_comp_readres);
		e->rr = t;
		e->any_rr = 1;
		e->st.readres++;
		if (e->rec != NULL)
			e->rec[e->nrec++] = t;
		/* A refresh injected by t+1 is served now: PREA, REF after tRP. */
		if (e->next_inj <= t + 1) {
			e->prea = t + 1;
			e->ref = t + 1 + m->t_rp;
			e->resume = e->ref + 1;
			e->next_inj += e->refi;
			e->st.ref++;
		}
		break;
	}
	e->now = t;
	return t;
}

static void
eng_finish(struct eng *e, struct nt_stats *st)
{
	const struct pim_model *m = e->m;

	if (!e->any_rr) {
		e->st.cycles = e->now > 0 ? e->now : 0;
	} else {
		e->st.cycles = e->rr + m->t_readres_latency;
		/*
		 * The queue is empty after the last READRES: a refresh injected
		 * before the read data returns is served at once and can end
		 * later than the data (share/doc/newton-timing.md §4, "in rare cases").
		 */
		if (e->next_inj > e->rr + 1 &&
		    e->next_inj < e->rr + m->t_readres_latency) {
			e->st.cycles = max2(e->st.cycles, e->next_inj + m->t_rp);
			e->st.ref++;
		}
	}
	*st = e->st;
}

/* Issue one block; exact issues every COMP of a run on its own. */
static void
run_block(struct eng *e, const struct nt_block *b, int exact)
{
	size_t s, g;
	int64_t k;

	issue(e, NT_GWRITE);
	for (s = 0; s < b->nsets; s++) {
		issue(e, NT_GACT0);
		issue(e, NT_GACT1);
		issue(e, NT_GACT2);
		issue(e, NT_GACT3);
		for (g = b->off[s]; g < b->off[s + 1]; g++) {
			k = b->grp[g];
			if (exact) {
				for (; k > 0; k--)
					issue(e, NT_COMP);
			} else if (k > 0) {
				/*
				 * Once the first COMP of a run is out, every
				 * other constraint is already met: the rest
				 * follow tCCD_S apart (tCCD_S >= 1).
				 */
				issue(e, NT_COMP);
				e->comp += (k - 1) * e->m->t_ccd_s;
				e->now = e->comp;
				e->st.comp += k - 1;
			}
			issue(e, NT_READRES);
		}
	}
}

int64_t
newton_time_block_cmds(const struct nt_block *b)
{
	int64_t n = 1 + 4 * (int64_t)b->nsets;
	size_t g;

	if (b->nsets > 0)
		for (g = 0; g < b->off[b->nsets]; g++)
			n += b->grp[g] + 1;
	return n;
}

/*
 * From a quiet block start through the block whose READRES j serves a
 * refresh, on to the next quiet block boundary, when no other refresh
 * falls in between: it depends on j alone (the clocks of the block's
 * first j READRESes are those of the calibration), so it is measured
 * once per j and then added in one step (refresh_block).
 */
struct cont {
	int		state;		/* 0 not measured, 1 usable, -1 not */
	int64_t		blocks;		/* whole blocks after the refresh's */
	int64_t		d;		/* last READRES - the block's start */
	int64_t		gw, ga[4], comp, prea, ref, resume; /* from it, or NEG */
	struct nt_stats	st;
};

/* Whole blocks a refresh's way to a quiet boundary may take (cont). */
#define CONT_MAXBLK	8

/* A block's duration from the READRES before it, measured once. */
struct calib {
	int64_t		d;		/* last READRES - previous READRES */
	int64_t		gw, ga[4], comp, prea, ref;	/* offsets from it, or NEG */
	struct nt_stats	st;
	size_t		nrr;		/* READRESes of the block */
	int64_t		*rr;		/* their offsets from the start */
	struct cont	*cont;		/* by the READRES serving a refresh */
};

static int64_t
offs(int64_t v, int64_t base)
{
	return v == NEG ? NEG : v - base;
}

static void
calibrate(const struct pim_model *m, int hiding, const struct nt_block *b,
    struct calib *cb)
{
	struct eng e;
	int k;

	eng_init(&e, m, hiding);
	e.rr = e.now = 0;
	e.next_inj = INF;
	cb->nrr = b->off[b->nsets];
	cb->rr = e.rec = calloc(cb->nrr + 1, sizeof(*cb->rr));
	cb->cont = NULL;
	run_block(&e, b, 0);
	cb->d = e.rr;
	cb->gw = offs(e.gw, e.rr);
	for (k = 0; k < 4; k++)
		cb->ga[k] = offs(e.ga[k], e.rr);
	cb->comp = offs(e.comp, e.rr);
	cb->st = e.st;
}

/*
 * At a block boundary (the last command a READRES, the next a GWRITE), no
 * constraint of the past can bind a command issued after rr, every one
 * of which issues at rr + 1 or later.  The past commands a later one
 * consults before that command's own block overwrites them: the GWRITE
 * waits on the last GWRITE (c), REF and PREA hold the first G_ACT0, the
 * last COMP holds the first COMP and, through a READRES group without
 * COMPs, a READRES.  The G_ACTs never: a G_ACTk consults G_ACT(k-1) of its
 * own set and a COMP the four of its set, issued before it; nor does a
 * GWRITE->COMP spacing, the block's GWRITE coming first.
 */
static inline int
quiet(const struct eng *e)
{
	const struct pim_model *m = e->m;
	int64_t lim = e->rr + 1;

	return e->now == e->rr && e->resume <= lim &&
	    e->ref + m->t_rfc <= lim && e->prea + m->t_rp <= lim &&
	    e->gw + e->c <= lim &&
	    e->comp + max2(m->t_ccd_s, m->t_comp_readres) <= lim;
}

static void
skip(struct eng *e, const struct calib *cb, int64_t n)
{
	int k;

	e->rr += n * cb->d;
	e->now = e->rr;
	if (cb->gw != NEG)
		e->gw = e->rr + cb->gw;
	for (k = 0; k < 4; k++)
		if (cb->ga[k] != NEG)
			e->ga[k] = e->rr + cb->ga[k];
	if (cb->comp != NEG)
		e->comp = e->rr + cb->comp;
	e->any_rr = 1;
	e->st.gwrite += n * cb->st.gwrite;
	e->st.gact += n * cb->st.gact;
	e->st.comp += n * cb->st.comp;
	e->st.readres += n * cb->st.readres;
}

/*
 * Periods in closed form.  At a quiet point no earlier command can bind a
 * later one, so what follows depends only on the phase, the clocks to the
 * next refresh injection (next_inj - rr, in [2, t_refi + 1] after any
 * READRES).  When a phase comes back, the work between the two visits
 * (blocks of a run, or repetitions of the stream) repeats for ever: whole
 * periods are added at once, every clock moved by the period's length and
 * every count by its counts.  A run of 10^12 blocks so costs at most
 * t_refi + 2 refresh steps; the result is the one of issuing every
 * command (tests/unit/t_newton.c compares them).
 */

struct visit {
	int64_t		ph;		/* the phase */
	int64_t		left;		/* work left at the visit (0: none) */
	int64_t		rr;
	struct nt_stats	st;
};

/* The visits and slots a run starts with, without an allocation. */
#define CY_VISITS	64

struct cycle {
	struct visit	*v;		/* n visits; NULL: no detection */
	uint32_t	*slot;		/* cap: visit index + 1 by phase, 0 free */
	size_t		 n, cap;
	int64_t		 nph;
	struct visit	 v0[CY_VISITS];
	uint32_t	 slot0[2 * CY_VISITS];
};

/*
 * Every run of two or more units looks for periods: a run visits few
 * phases (a quiet point before a refresh has a phase below the block's
 * length), kept in a table that grows with them.
 */
static void
cycle_init(struct cycle *cy, const struct eng *e, int64_t work)
{
	cy->v = NULL;
	cy->nph = 0;
	if (work < 2 || e->m->t_refi >= NT_MAXPHASE)
		return;
	cy->nph = e->m->t_refi + 2;
	memset(cy->slot0, 0, sizeof(cy->slot0));
	cy->v = cy->v0;
	cy->slot = cy->slot0;
	cy->cap = 2 * CY_VISITS;
	cy->n = 0;
}

static void
cycle_free(struct cycle *cy)
{
	if (cy->v != NULL && cy->v != cy->v0) {
		free(cy->v);
		free(cy->slot);
	}
	cy->v = NULL;
}

/* The slot of phase ph: its visit's, or the free one it would take. */
static size_t
cy_find(const struct cycle *cy, const uint32_t *slot, size_t cap, int64_t ph)
{
	size_t i = (size_t)((uint64_t)ph * 0x9e3779b97f4a7c15u >> 32) &
	    (cap - 1);

	while (slot[i] != 0 && cy->v[slot[i] - 1].ph != ph)
		i = (i + 1) & (cap - 1);
	return i;
}

/* The visit of phase ph, a new one (left 0) if none; NULL: no room. */
static struct visit *
cy_visit(struct cycle *cy, int64_t ph)
{
	struct visit *v;
	uint32_t *slot;
	size_t i, k, cap;

	i = cy_find(cy, cy->slot, cy->cap, ph);
	if (cy->slot[i] != 0)
		return &cy->v[cy->slot[i] - 1];
	if (cy->n == cy->cap / 2) {
		/* past a few thousand phases a period is not worth it */
		cap = 2 * cy->cap;
		if (cap > ((size_t)1 << 14) ||
		    (slot = calloc(cap, sizeof(*slot))) == NULL)
			return NULL;
		if ((v = malloc(cap / 2 * sizeof(*v))) == NULL) {
			free(slot);
			return NULL;
		}
		memcpy(v, cy->v, cy->n * sizeof(*v));
		cycle_free(cy);
		cy->v = v;
		cy->slot = slot;
		cy->cap = cap;
		for (k = 0; k < cy->n; k++)
			slot[cy_find(cy, slot, cap, v[k].ph)] = (uint32_t)k + 1;
		i = cy_find(cy, slot, cap, ph);
	}
	v = &cy->v[cy->n];
	memset(v, 0, sizeof(*v));
	v->ph = ph;
	cy->slot[i] = (uint32_t)++cy->n;
	return v;
}

/* a + k * (b - a) into *r; -1 past 64 bits (b >= a). */
static int
ahead(int64_t a, int64_t b, int64_t k, int64_t *r)
{
	int64_t d = b - a;

	if (d < 0 || (d > 0 && k > (INT64_MAX / 4 - b) / d))
		return -1;
	*r = b + k * d;
	return 0;
}

/*
 * At a quiet point with *left units of work to go (each costing the same
 * as the period's): record the visit, or, at a phase seen before, jump
 * over the whole periods that fit.  Returns 1 after a jump.
 */
static int
cycle_step(struct cycle *cy, struct eng *e, int64_t *left)
{
	struct visit *v, v0;
	int64_t ph, per, k, d, drr, *c[5], *c0[5];
	int i;

	if (cy->v == NULL || (ph = e->next_inj - e->rr) < 0 ||
	    ph >= cy->nph)
		return 0;
	if ((v = cy_visit(cy, ph)) == NULL) {
		cycle_free(cy);
		return 0;
	}
	if (v->left <= *left) {
		v->left = *left;
		v->rr = e->rr;
		v->st = e->st;
		return 0;
	}
	v0 = *v;
	v = &v0;
	per = v->left - *left;
	k = *left / per;
	cycle_free(cy);		/* what is left is shorter than a period */
	if (k == 0)
		return 0;
	drr = e->rr;
	if (ahead(v->rr, e->rr, k, &drr) < 0) {
		e->over = 1;
		return 0;
	}
	d = drr - e->rr;
	c[0] = &e->st.gwrite; c[1] = &e->st.gact; c[2] = &e->st.comp;
	c[3] = &e->st.readres; c[4] = &e->st.ref;
	c0[0] = &v->st.gwrite; c0[1] = &v->st.gact; c0[2] = &v->st.comp;
	c0[3] = &v->st.readres; c0[4] = &v->st.ref;
	for (i = 0; i < 5; i++)
		if (ahead(*c0[i], *c[i], k, c[i]) < 0) {
			e->over = 1;
			return 0;
		}
	/* every clock moves by d; never-issued ones stay so */
	e->rr += d;
	e->now += d;
	e->next_inj += d;
	if (e->resume != NEG)
		e->resume += d;
	if (e->gw != NEG)
		e->gw += d;
	if (e->comp != NEG)
		e->comp += d;
	if (e->prea != NEG)
		e->prea += d;
	if (e->ref != NEG)
		e->ref += d;
	for (i = 0; i < 4; i++)
		if (e->ga[i] != NEG)
			e->ga[i] += d;
	*left -= k * per;
	return 1;
}

/* ct from the refresh at the READRES at offset rj of block b (struct cont). */
static void
cont_make(const struct pim_model *m, int hiding, const struct nt_block *b,
    int64_t rj, struct cont *ct)
{
	struct eng e;
	int64_t k;
	int i;

	eng_init(&e, m, hiding);
	e.rr = e.now = 0;
	e.next_inj = rj + 1;
	e.refi = INF;
	run_block(&e, b, 0);
	for (k = 0; !quiet(&e); k++) {
		if (k == CONT_MAXBLK) {
			ct->state = -1;
			return;
		}
		run_block(&e, b, 0);
	}
	ct->state = 1;
	ct->blocks = k;
	ct->d = e.rr;
	ct->gw = offs(e.gw, e.rr);
	for (i = 0; i < 4; i++)
		ct->ga[i] = offs(e.ga[i], e.rr);
	ct->comp = offs(e.comp, e.rr);
	ct->prea = offs(e.prea, e.rr);
	ct->ref = offs(e.ref, e.rr);
	ct->resume = offs(e.resume, e.rr);
	ct->st = e.st;
}

static void
set_off(int64_t *v, int64_t base, int64_t off)
{
	if (off != NEG)
		*v = base + off;
}

/*
 * At a quiet block start where the next block serves a refresh (no whole
 * block fits before the injection): the block and those after it up to
 * the next quiet boundary in one step, when no further refresh falls in
 * them and the segment has those blocks.  Returns 1 after the step, 0
 * when the caller must issue the block.
 */
static int
refresh_block(struct eng *e, const struct nt_block *b, struct calib *cb,
    int hiding, int64_t *left)
{
	const struct pim_model *m = e->m;
	int64_t ph = e->next_inj - e->rr, base;
	size_t lo = 0, hi = cb->nrr, mid;
	struct cont *ct;
	int i;

	if (cb->rr == NULL || cb->nrr == 0 || cb->rr[cb->nrr - 1] < ph - 1)
		return 0;
	/* the first READRES at t with next_inj <= t + 1 serves it */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cb->rr[mid] >= ph - 1)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (cb->cont == NULL &&
	    (cb->cont = calloc(cb->nrr, sizeof(*cb->cont))) == NULL)
		return 0;
	ct = &cb->cont[lo];
	if (ct->state == 0)
		cont_make(m, hiding, b, cb->rr[lo], ct);
	/* the next injection comes after every READRES of the way */
	if (ct->state < 0 || ct->blocks >= *left ||
	    ph > INF - m->t_refi || ph + m->t_refi < ct->d + 2)
		return 0;
	e->rr += ct->d;
	e->now = e->rr;
	base = e->rr;
	set_off(&e->gw, base, ct->gw);
	for (i = 0; i < 4; i++)
		set_off(&e->ga[i], base, ct->ga[i]);
	set_off(&e->comp, base, ct->comp);
	set_off(&e->prea, base, ct->prea);
	set_off(&e->ref, base, ct->ref);
	set_off(&e->resume, base, ct->resume);
	e->next_inj += m->t_refi;
	e->any_rr = 1;
	e->st.gwrite += ct->st.gwrite;
	e->st.gact += ct->st.gact;
	e->st.comp += ct->st.comp;
	e->st.readres += ct->st.readres;
	e->st.ref += ct->st.ref;
	*left -= ct->blocks + 1;
	return 1;
}

static void
run_seg(struct eng *e, const struct nt_seg *sg, struct calib *cb,
    int hiding, int exact)
{
	int64_t left = sg->count, n;
	struct cycle cy;

	cycle_init(&cy, e, exact || cb->d <= 0 ? 0 : left);
	while (left > 0 && !e->over) {
		if (!exact && cb->d > 0 && quiet(e)) {
			/* Blocks whose every READRES + 1 stays before the injection. */
			n = (e->next_inj - e->rr - 2) / cb->d;
			if (n > left)
				n = left;
			if (n > 0) {
				skip(e, cb, n);
				left -= n;
				continue;
			}
			/*
			 * Periods looked for where a refresh is next (a phase
			 * below the block's length): the phase there decides
			 * the one at the next such point.
			 */
			if (cycle_step(&cy, e, &left))
				continue;
			if (refresh_block(e, sg->b, cb, hiding, &left))
				continue;
		}
		run_block(e, sg->b, exact);
		left--;
	}
	cycle_free(&cy);
}

void
newton_time_run(const struct pim_model *m, int hiding, const struct nt_seg *seg,
    size_t nseg, int64_t repeat, int exact, struct nt_stats *st)
{
	struct eng e;
	struct calib cbs[8], *cb = cbs;
	struct cycle cy;
	size_t i;
	int64_t r;

	/* Streams have at most a few segments; more fall back to exact. */
	if (nseg > sizeof(cbs) / sizeof(cbs[0]))
		exact = 1;
	eng_init(&e, m, hiding);
	for (i = 0; !exact && i < nseg; i++) {
		if (seg[i].b->nsets > 0) {
			calibrate(m, hiding, seg[i].b, &cb[i]);
		} else {
			cb[i].d = 0;
			cb[i].rr = NULL;
			cb[i].cont = NULL;
		}
	}
	/* repetitions of the whole stream: periods in closed form too */
	cycle_init(&cy, &e, exact ? 0 : repeat);
	for (r = repeat; r > 0 && !e.over; ) {
		if (!exact && e.any_rr && quiet(&e) && cycle_step(&cy, &e, &r))
			continue;
		for (i = 0; i < nseg; i++)
			run_seg(&e, &seg[i], exact ? NULL : &cb[i], hiding,
			    exact);
		r--;
	}
	cycle_free(&cy);
	for (i = 0; !exact && i < nseg; i++) {
		free(cb[i].rr);
		free(cb[i].cont);
	}
	eng_finish(&e, st);
	if (e.over)
		st->cycles = -1;
}

void
newton_time_run_cmds(const struct pim_model *m, int hiding, const enum nt_cmd *cmd,
    size_t n, int64_t *issue_at, struct nt_stats *st)
{
	struct eng e;
	size_t i;
	int64_t t;

	eng_init(&e, m, hiding);
	for (i = 0; i < n; i++) {
		t = issue(&e, cmd[i]);
		if (issue_at != NULL)
			issue_at[i] = t;
	}
	eng_finish(&e, st);
}
