/*
 * Unit tests of the Newton PIM model: every reference figure of
 * share/doc/newton-timing.md and share/doc/pimflow-method.md §5,
 * hand-derived command streams that
 * isolate each timing rule and the refresh, and properties over random
 * shapes (fast path == exact event loop, counts == closed forms,
 * monotonicity in rows and columns).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "layer.h"
#include "newton_cost.h"
#include "newton_gen.h"
#include "newton_time.h"
#include "pim_model.h"
#include "check.h"

static struct pim_model M;

/* The fast path's counts and cycles equal issuing every command's. */
#define SAME_STATS(f, x) do { \
	CHECK_EQ_I((f).cycles, (x).cycles); \
	CHECK_EQ_I((f).gwrite, (x).gwrite); \
	CHECK_EQ_I((f).gact, (x).gact); \
	CHECK_EQ_I((f).comp, (x).comp); \
	CHECK_EQ_I((f).readres, (x).readres); \
	CHECK_EQ_I((f).ref, (x).ref); \
} while (0)

/* A conv row as pim-cycles sees it (square, symmetric padding). */
static void
mkconv(struct layer *l, int64_t ci, int64_t co, int64_t h, int64_t k,
    int64_t pad, int64_t s)
{
	layer_init(l);
	l->op = OP_CONV;
	l->in_c = ci;
	l->out_c = co;
	l->in_h = l->in_w = h;
	l->kernel_h = l->kernel_w = k;
	l->stride_h = l->stride_w = s;
	l->pad_top = l->pad_left = l->pad_bottom = l->pad_right = pad;
	l->out_h = l->out_w = (h - k + 2 * pad) / s + 1;
	layer_derive(l);
}

static struct newton_cost
cost(const struct layer *l, int64_t nch, int64_t gw, int hid, int exact)
{
	struct pim_opts o;
	struct newton_cost c;

	memset(&o, 0, sizeof(o));
	o.exact = exact;
	if (newton_cost_layer(&M, l, nch, gw, hid, &o, "t", &c) < 0)
		c.cycles = -1;
	return c;
}

static int64_t
conv_cycles(int64_t ci, int64_t co, int64_t h, int64_t k, int64_t pad,
    int64_t nch, int64_t gw, int hid)
{
	struct layer l;
	struct newton_cost f, e;

	mkconv(&l, ci, co, h, k, pad, 1);
	f = cost(&l, nch, gw, hid, 0);
	e = cost(&l, nch, gw, hid, 1);
	CHECK_EQ_I(f.cycles, e.cycles);
	return f.cycles;
}

/* An FC in -> out with batch b, given as share/doc/newton-timing.md §5 says. */
static struct newton_cost
fc(int64_t in, int64_t out, int64_t b, int64_t gw, int hid)
{
	struct layer l;

	layer_init(&l);
	l.op = OP_GEMM;
	l.batch = b;
	l.in_c = in;
	l.out_c = out;
	layer_derive(&l);
	return cost(&l, 16, gw, hid, 0);
}

/*
 * The worked convolutions of share/doc/pimflow-method.md §5 and
 * share/doc/newton-timing.md §5: C_i, C_o, H = W, kernel, pad, channels,
 * GWRITE groups, hiding, and the cycles.
 */
static const int64_t ref_convs[][9] = {
	{ 32, 16, 112, 1, 0, 16, 4, 1, 19910 },
	{ 32, 16, 112, 1, 0, 16, 4, 0, 33636 },
	{ 32, 16, 112, 1, 0, 16, 2, 1, 36138 },
	{ 32, 16, 112, 1, 0, 16, 2, 0, 64000 },
	{ 32, 16, 112, 1, 0, 16, 1, 1, 69236 },
	{ 32, 16, 112, 1, 0, 16, 1, 0, 124828 },
	{ 32, 64, 56, 3, 1, 16, 4, 1, 94731 },
	{ 32, 64, 56, 3, 1, 16, 4, 0, 148832 },
	{ 576, 96, 14, 1, 0, 16, 4, 1, 16960 },
	{ 576, 96, 14, 1, 0, 16, 4, 0, 20993 },
	/* 32->16 @112^2 on 32 channels: the offset loss of the split rule. */
	{ 32, 16, 112, 1, 0, 32, 4, 1, 17858 },
	{ 32, 16, 112, 1, 0, 32, 4, 0, 31652 },
};

static void
test_reference(void)
{
	struct layer l;
	struct newton_cost c;
	size_t i;

	for (i = 0; i < sizeof(ref_convs) / sizeof(ref_convs[0]); i++) {
		const int64_t *v = ref_convs[i];

		CHECK_EQ_I(conv_cycles(v[0], v[1], v[2], v[3], v[4], v[5],
		    v[6], (int)v[7]), v[8]);
	}
	mkconv(&l, 32, 16, 112, 1, 0, 1);
	c = cost(&l, 32, 4, 1, 0);
	CHECK_EQ_I(c.st.comp, 588);
	CHECK_EQ_I(c.st.readres, 784);
	CHECK_EQ_I(c.st.gact, 4 * 196);

	/* GEMV 4096x4096: 19752; Newton+ (gw 1, no hiding) 20298. */
	c = fc(4096, 4096, 1, 4, 1);
	CHECK_EQ_I(c.cycles, 19752);
	CHECK_EQ_I(c.st.ref, 10);
	CHECK_EQ_I(fc(4096, 4096, 1, 1, 0).cycles, 20298);
	/*
	 * The tie-break on text: every g gives channel 0 128 G_ACT0 (8/g
	 * blocks of 16 g units), so the shortest text, fewest GWRITE lines,
	 * wins: g = 4 with 2 GWRITEs.
	 */
	CHECK_EQ_I(c.n_gwrite, 4);
	CHECK_EQ_I(c.st.gwrite, 2);
	CHECK_EQ_I(c.st.gact, 4 * 128);
	/* FC 512x10: 80 / 143. */
	CHECK_EQ_I(fc(512, 10, 1, 4, 1).cycles, 80);
	CHECK_EQ_I(fc(512, 10, 1, 4, 0).cycles, 143);
	CHECK_EQ_I(fc(512, 10, 1, 4, 1).st.comp, 2);

	/* mbv2 96->24 @56^2: 157 GWRITEs, 2826 COMPs on channel 0. */
	mkconv(&l, 96, 24, 56, 1, 0, 1);
	c = cost(&l, 16, 4, 1, 0);
	CHECK_EQ_I(c.st.gwrite, 157);
	CHECK_EQ_I(c.st.gact, 4 * 157);
	CHECK_EQ_I(c.st.comp, 2826);
	CHECK_EQ_I(c.n_gwrite, 4);
	/* mbv2 384->64 @14^2 gw 2: 98 GWRITEs, 1176 COMPs, 196 READRES. */
	mkconv(&l, 384, 64, 14, 1, 0, 1);
	c = cost(&l, 16, 2, 1, 0);
	CHECK_EQ_I(c.st.gwrite, 98);
	CHECK_EQ_I(c.st.comp, 1176);
	CHECK_EQ_I(c.st.readres, 196);
	CHECK_EQ_I(c.n_gwrite, 2);
	CHECK_EQ_I(c.partials, 4);	/* split f = 4 */
}

/* Issue clocks of a hand-built stream. */
static int64_t
cmds(const struct pim_model *m, int hid, const char *s, int64_t *at)
{
	enum nt_cmd c[4096];
	struct nt_stats st;
	size_t n = 0;

	for (; *s != '\0'; s++)
		switch (*s) {
		case 'W': c[n++] = NT_GWRITE; break;
		case 'A': c[n++] = NT_GACT0; c[n++] = NT_GACT1;
			c[n++] = NT_GACT2; c[n++] = NT_GACT3; break;
		case 'C': c[n++] = NT_COMP; break;
		case 'R': c[n++] = NT_READRES; break;
		}
	newton_time_run_cmds(m, hid, c, n, at, &st);
	return st.cycles;
}

/* The issue clocks at[] of a stream against n pairs {command, clock}. */
static void
check_at(const int64_t *at, const int64_t (*want)[2], size_t n, int line)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (at[want[i][0]] != want[i][1]) {
			fprintf(stderr, "%s:%d: check failed: at[%lld] == %lld "
			    "(%lld)\n", __FILE__, line, (long long)want[i][0],
			    (long long)want[i][1], (long long)at[want[i][0]]);
			check_failures++;
		}
}

#define CHECK_AT(at, ...) do { \
	static const int64_t check_w_[][2] = { __VA_ARGS__ }; \
	check_at(at, check_w_, sizeof(check_w_) / sizeof(check_w_[0]), \
	    __LINE__); \
} while (0)

static void
test_rules(void)
{
	struct pim_model m = M;
	int64_t at[4096], i;
	char s[4096];

	/* In order, first at clock 1; GWRITE->G_ACT 1; tFAW 17; tRCD 11; COMP->READRES 1; +13. */
	CHECK_EQ_I(cmds(&m, 1, "WACR", at), 65 + 13);
	CHECK_AT(at, { 0, 1 }, { 1, 2 }, { 2, 19 }, { 4, 53 }, { 5, 64 },
	    { 6, 65 });
	/* Hiding off: GWRITE->G_ACT0 = 32 * tCCD_S = 64. */
	CHECK_EQ_I(cmds(&m, 0, "WACR", at), 65 + 63 + 13);
	CHECK_EQ_I(at[1], 65);
	/* share/doc/pimflow-method.md §6 observed timeline: 8 COMPs, READRES
	 * every 2, next GWRITE. */
	cmds(&m, 1, "WACCRCCRCCRCCRW", at);
	/* the last: READRES->GWRITE 6 */
	CHECK_AT(at, { 5, 64 }, { 6, 66 }, { 7, 67 }, { 8, 68 }, { 10, 71 },
	    { 16, 79 }, { 17, 85 });
	/* Hiding off: GWRITE->GWRITE 64 binds a GWRITE-only stream. */
	cmds(&m, 0, "WW", at);
	CHECK_EQ_I(at[1], 65);
	/* An empty READRES group costs one clock. */
	CHECK_EQ_I(cmds(&m, 1, "WACCRRCCR", at) - cmds(&m, 1, "WACCRCCR", at), 1);
	/* A set with no GWRITE: G_ACT0 one clock after the READRES. */
	cmds(&m, 1, "WACRACR", at);
	CHECK_EQ_I(at[7], at[6] + 1);
	/* GWRITE->COMP 51 binds only when the G_ACT chain is short. */
	m.t_faw = 0;
	cmds(&m, 1, "WACR", at);
	CHECK_EQ_I(at[5], 1 + 51);
	m = M;
	/* COMP->COMP tCCD_S with a slower model. */
	m.t_ccd_s = 5;
	cmds(&m, 1, "WACCCR", at);
	CHECK_EQ_I(at[6] - at[5], 5);
	CHECK_EQ_I(at[7] - at[6], 5);
	m = M;

	/*
	 * share/doc/devices.md §3.2, measured: GWRITE + g full 16-row groups (32 COMPs
	 * each) = 14 + 126 g clocks: 140, 266, 518, 1022; one group = 126.
	 */
	for (i = 1; i <= 8; i *= 2) {
		int64_t j;

		strcpy(s, "W");
		for (j = 0; j < i; j++)
			strcat(s, "ACCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCR");
		CHECK_EQ_I(cmds(&m, 1, s, at), 14 + 126 * i);
	}

	/*
	 * Refresh.  Sets of 32 COMPs: READRES of set k at 127 + 126 k.  The
	 * REF injected at 1900 is served after set 15's READRES (2017):
	 * PREA 2018, REF 2029, next G_ACT0 at 2379 instead of 2018 (+361).
	 */
	strcpy(s, "W");
	for (i = 0; i < 20; i++) {
		strcat(s, "A");
		strcat(s, "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCR");
	}
	CHECK_EQ_I(cmds(&m, 1, s, at), 127 + 126 * 19 + 361 + 13);
	/* A GWRITE after the served READRES: 356 - c. */
	strcpy(s, "W");
	for (i = 0; i < 20; i++) {
		strcat(s, i == 16 ? "WA" : "A");
		strcat(s, "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCR");
	}
	CHECK_EQ_I(cmds(&m, 1, s, at), 127 + 126 * 19 + 6 + 355 + 13);
	/* A COMP after it waits 12, the next G_ACT0 until REF + 350. */
	strcpy(s, "W");
	for (i = 0; i < 20; i++) {
		strcat(s, "A");
		strcat(s, i == 15 ? "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCRCR" :
		    "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCR");
	}
	/* set 15's READRES at 2017: REF 2029, COMP 2030, G_ACT0 2379. */
	CHECK_EQ_I(cmds(&m, 1, s, at), 2029 + 350 + 125 + 126 * 3 + 13);
	CHECK_EQ_I(at[1 + 15 * 37 + 4 + 33], 2030);
	/* End rule: a REF injected 2..12 clocks after the last READRES. */
	for (i = 905; i <= 925; i++) {
		int64_t rr = 63 + 2 * i, want = rr + 13;

		memset(s, 0, sizeof(s));
		strcpy(s, "WA");
		memset(s + 2, 'C', (size_t)i);
		s[2 + i] = 'R';
		if (1900 > rr + 1 && 1900 < rr + 13)
			want = 1900 + 11;
		else if (1900 <= rr + 1)
			want = rr + 13;
		CHECK_EQ_I(cmds(&m, 1, s, at), want);
	}
}

/* Channel-0 counts from the plan by the closed forms of
 * share/doc/newton-timing.md §5. */
static void
test_quirks(void)
{
	struct layer l;

	/*
	 * share/doc/newton-timing.md §6.14: g is chosen by channel-0 G_ACT0 count, then
	 * text length, not by cycles.  150->248 @17^2 (B = 97, 16 units):
	 * channel 0 has 97 G_ACT0 at g = 1, 49 x 2 = 98 at g = 2, 25 x 4 =
	 * 100 at g = 4, so g = 1 wins and, without hiding, pays 97 GWRITEs
	 * of 64 clocks; with one more input row g = 4 wins and it is faster.
	 */
	mkconv(&l, 150, 248, 17, 1, 0, 1);
	CHECK_EQ_I(cost(&l, 16, 4, 0, 0).n_gwrite, 1);
	mkconv(&l, 150, 248, 18, 1, 0, 1);
	CHECK_EQ_I(cost(&l, 16, 4, 0, 0).n_gwrite, 4);
	CHECK(conv_cycles(150, 248, 18, 1, 0, 16, 4, 0) <
	    conv_cycles(150, 248, 17, 1, 0, 16, 4, 0));
}

/* -b: n_gwrite by cycles is never slower and restores monotonicity here. */
static void
test_best(void)
{
	struct layer l, l2;
	struct pim_opts o;
	struct newton_cost a, b, c2;
	int i, viol = 0;

	memset(&o, 0, sizeof(o));
	o.best = 1;
	mkconv(&l, 150, 248, 17, 1, 0, 1);
	CHECK(newton_cost_layer(&M, &l, 16, 4, 0, &o, "t", &b) == 0);
	CHECK_EQ_I(b.n_gwrite, 4);
	CHECK(b.cycles < cost(&l, 16, 4, 0, 0).cycles);
	mkconv(&l2, 150, 248, 18, 1, 0, 1);
	CHECK(newton_cost_layer(&M, &l2, 16, 4, 0, &o, "t", &c2) == 0);
	CHECK(c2.cycles >= b.cycles);

	srand(4242);
	for (i = 0; i < 80; i++) {
		int64_t ci = 1 + rand() % 700, co = 1 + rand() % 300;
		int64_t h = 3 + rand() % 30, k = 1 + 2 * (rand() % 2);
		int hid = rand() % 2;

		mkconv(&l, ci, co, h, k, 0, 1);
		a = cost(&l, 16, 4, hid, 0);
		CHECK(newton_cost_layer(&M, &l, 16, 4, hid, &o, "t", &b) == 0);
		CHECK(b.cycles <= a.cycles);
		mkconv(&l2, ci, co, h + 1, k, 0, 1);
		CHECK(newton_cost_layer(&M, &l2, 16, 4, hid, &o, "t", &c2) == 0);
		if (c2.cycles < b.cycles)
			viol++;
	}
	fprintf(stderr, "-b: %d/80 row monotonicity violations\n", viol);
	CHECK_EQ_I(viol, 0);
}

static void
test_properties(void)
{
	struct layer l, l2;
	struct newton_cost a, b;
	struct ngen_layer gl;
	struct ngen_plan p;
	int i, viol_rows = 0, viol_cols = 0, tries = 0;

	srand(12345);
	for (i = 0; i < 300; i++) {
		int64_t ci = 1 + rand() % 700, co = 1 + rand() % 300;
		int64_t h = 1 + rand() % 40, k = 1 + 2 * (rand() % 2);
		int64_t nch = (rand() % 2) ? 16 : 32, gw = 1 << (rand() % 3);
		int hid = rand() % 2;
		int64_t gwr = 0, gact = 0, comp = 0, rr = 0, q, rho, s, u;
		int nosplit = 1;
		int pi;

		if (h < k)
			h = k;
		mkconv(&l, ci, co, h, k, 0, 1);
		a = cost(&l, nch, gw, hid, 0);
		b = cost(&l, nch, gw, hid, 1);
		CHECK_EQ_I(a.cycles, b.cycles);
		CHECK_EQ_I(a.st.ref, b.st.ref);
		CHECK_EQ_I(a.st.comp, b.st.comp);

		/* Counts equal the closed forms of share/doc/newton-timing.md §5. */
		memset(&gl, 0, sizeof(gl));
		gl.g.ci = ci; gl.g.co = co; gl.g.kh = gl.g.kw = k;
		gl.g.p = l.out_h * l.out_w; gl.g.h = h;
		CHECK(newton_gen_build(&M, &gl, nch, gw, &p) == 0);
		for (pi = 0; pi < p.nparts; pi++) {
			const struct ngen_part *pt = &p.part[pi];
			int64_t b0 = ceil_div(pt->blocks, pt->g), L, fl, full;

			L = ceil_div(ci * k * k, 16) * 16;
			full = L / 512;
			if (L <= 512) {
				fl = 512 / L;
				CHECK_EQ_I(pt->blocks, ceil_div(gl.g.p, fl));
				q = L / 16;
				rho = fl;
			} else if (pi == 0) {
				CHECK_EQ_I(pt->blocks, full * gl.g.p);
				q = 32;
				rho = 1;
			} else {
				fl = 512 / (L - 512 * full);
				CHECK_EQ_I(pt->blocks, ceil_div(gl.g.p, fl));
				q = (L - 512 * full) / 16;
				rho = fl;
			}
			CHECK_EQ_I(pt->r, ceil_div(co, 16));
			if (pt->split == 1) {
				/* No split: units of S groups of q COMPs. */
				s = ceil_div(pt->r * rho, pt->n);
				if (s > rho)
					s = rho;
				u = ceil_div(pt->r * rho, s);
				CHECK_EQ_I((int64_t)pt->units, u);
				gwr += b0;
				gact += 4 * b0 * ceil_div(u, pt->n);
				{
					int64_t j, k2 = 0, nr = 0;

					for (j = 0; j < u; j += pt->n) {
						int64_t sz = pt->r * rho - j * s;

						if (sz > s)
							sz = s;
						k2 += sz * q;
						nr += sz;
					}
					comp += b0 * k2;
					rr += b0 * nr;
				}
			} else {
				nosplit = 0;
			}
		}
		if (nosplit) {
			CHECK_EQ_I(a.st.gwrite, gwr);
			CHECK_EQ_I(a.st.gact, gact);
			CHECK_EQ_I(a.st.comp, comp);
			CHECK_EQ_I(a.st.readres, rr);
		}
		newton_gen_free(&p);

		/*
		 * More output channels or more pixels never cost fewer cycles
		 * with hiding on.  (With hiding off the published selection
		 * rule, fewest G_ACT0 rather than fewest cycles, breaks this:
		 * see test_quirks.)
		 */
		a = cost(&l, nch, gw, 1, 0);
		mkconv(&l2, ci, co + 1 + rand() % 40, h, k, 0, 1);
		if (cost(&l2, nch, gw, 1, 0).cycles < a.cycles)
			viol_cols++;
		mkconv(&l2, ci, co, h + 1, k, 0, 1);
		if (cost(&l2, nch, gw, 1, 0).cycles < a.cycles)
			viol_rows++;
		mkconv(&l2, ci, co, h, k, 0, 1);
		l2.batch = 2;
		layer_derive(&l2);
		if (cost(&l2, nch, gw, 1, 0).cycles < a.cycles)
			viol_rows++;
		tries++;
	}
	fprintf(stderr, "monotonicity: %d/%d col, %d/%d row violations\n",
	    viol_cols, tries, viol_rows, tries);
	CHECK_EQ_I(viol_cols, 0);
	CHECK_EQ_I(viol_rows, 0);
}

/*
 * The published generator recomputes H_o = (h - kh + 2 ph) / s + 1 from
 * the input; pim-cycles takes P from the row's out_h/out_w.  For square,
 * symmetric cases both agree exactly; -a and -G change nothing where
 * they have nothing to change.
 */
static void
test_geometry(void)
{
	struct layer l;
	struct ngen_layer gl;
	struct ngen_plan p;
	struct pim_opts o;
	struct newton_cost c, d;
	struct nt_stats st;
	int i;

	srand(777);
	for (i = 0; i < 60; i++) {
		int64_t ci = 1 + rand() % 300, co = 1 + rand() % 200;
		int64_t k = 1 + 2 * (rand() % 3), s = 1 + rand() % 2;
		int64_t pad = rand() % (k / 2 + 1), h = k + rand() % 30;
		int64_t ho = (h - k + 2 * pad) / s + 1;
		struct ngen_chblock cb[2];
		struct nt_seg seg[2];
		int pi;

		mkconv(&l, ci, co, h, k, pad, s);
		c = cost(&l, 16, 4, 1, 0);
		/* The published path: P from the generator's own formula. */
		memset(&gl, 0, sizeof(gl));
		gl.g.ci = ci; gl.g.co = co; gl.g.kh = gl.g.kw = k; gl.g.h = h;
		gl.g.p = ho * ho;
		CHECK(newton_gen_build(&M, &gl, 16, 4, &p) == 0);
		for (pi = 0; pi < p.nparts; pi++) {
			newton_gen_chan_block(&p.part[pi], 0, &cb[pi]);
			seg[pi].b = &cb[pi].b;
			seg[pi].count = newton_gen_chan_blocks(&p.part[pi], 0);
		}
		newton_time_run(&M, 1, seg, (size_t)p.nparts, 1, 1, &st);
		CHECK_EQ_I(st.cycles, c.cycles);
		for (pi = 0; pi < p.nparts; pi++)
			newton_gen_chblock_free(&cb[pi]);
		newton_gen_free(&p);

		/* -a: channel 0 is the slowest; -G on groups = 1: no change. */
		memset(&o, 0, sizeof(o));
		o.all = 1;
		o.per_group = 1;
		CHECK(newton_cost_layer(&M, &l, 12 + rand() % 20, 4, 1, &o,
		    "t", &d) == 0);
		CHECK_EQ_I(d.channel, 0);
	}
	/* An asymmetric halo piece differs from the symmetric formula. */
	mkconv(&l, 32, 64, 29, 3, 1, 1);
	l.pad_bottom = 0;
	l.in_w = l.out_w = 56;
	l.out_h = 28;
	c = cost(&l, 16, 4, 1, 0);
	CHECK_EQ_I(c.st.gwrite, 28 * 56 / 4);
}

/*
 * Periods in closed form (newton_time.c): long runs of blocks and many
 * repetitions of a stream give exactly the cycles and counts of issuing
 * every command, for blocks of a few shapes, with and without hiding; a
 * run whose clock passes 64 bits reports cycles -1, at once.
 */
static void
test_periods(void)
{
	static const size_t off1[] = { 0, 1 }, off2[] = { 0, 2, 3 };
	static const int64_t g1[] = { 8 }, g2[] = { 3, 5, 16 };
	struct nt_block b[2] = { { 1, off1, g1 }, { 2, off2, g2 } };
	struct nt_seg seg[2];
	struct nt_stats f, x;
	int64_t counts[] = { 5000, 7919, 20011 }, reps[] = { 1, 3, 4999 };
	size_t i, j;
	int hid;

	for (hid = 0; hid < 2; hid++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++) {
				int64_t n = counts[i] / (reps[j] > 1 ? 1000 : 1);

				seg[0].b = &b[0];
				seg[0].count = n;
				seg[1].b = &b[1];
				seg[1].count = n / 3 + 1;
				newton_time_run(&M, hid, seg, 2, reps[j], 0, &f);
				newton_time_run(&M, hid, seg, 2, reps[j], 1, &x);
				SAME_STATS(f, x);
			}
	seg[0].b = &b[1];
	seg[0].count = INT64_MAX / 8;
	newton_time_run(&M, 1, seg, 1, 1, 0, &f);
	CHECK_EQ_I(f.cycles, -1);
}

/*
 * The fast path against issuing every command on random blocks (sets of
 * READRES groups, some without COMPs), random runs and repetitions, under
 * random timing rules: refresh periods from a clock to longer than a
 * block, so refreshes fall at every READRES of a block, several in one
 * block, and at the ends of segments (the refresh step of newton_time.c
 * measured once per READRES and added, the skipped runs, the periods).
 */
static void
test_random_streams(void)
{
	size_t off[2][9];
	int64_t grp[2][40];
	struct nt_block b[2];
	struct nt_seg seg[2];
	struct nt_stats f, x;
	struct pim_model m;
	int64_t rep;
	int i, k, hid;
	size_t s, ns, g;

	check_rng = 20261201;
	for (i = 0; i < 400; i++) {
		m = M;
		m.t_gwrite_hide = rnd(1, 8);
		m.gwrite_columns = rnd(1, 40);
		m.t_ccd_s = rnd(1, 4);
		m.t_gwrite_comp = rnd(0, 60);
		m.t_faw = rnd(0, 20);
		m.t_rcd = rnd(0, 15);
		m.t_comp_readres = rnd(0, 3);
		m.t_readres_gwrite = rnd(0, 8);
		m.t_rp = rnd(0, 15);
		m.t_rfc = rnd(0, 400);
		m.t_refi = rnd(0, 3) == 0 ? rnd(1, 60) : rnd(60, 2500);
		m.t_readres_latency = rnd(0, 20);
		hid = (int)rnd(0, 1);
		for (k = 0; k < 2; k++) {
			ns = (size_t)rnd(1, 8);
			off[k][0] = 0;
			for (s = 0, g = 0; s < ns; s++) {
				int64_t n = rnd(1, 4);

				for (; n > 0; n--)
					grp[k][g++] = rnd(0, 5) == 0 ? 0 :
					    rnd(1, 40);
				off[k][s + 1] = g;
			}
			b[k].nsets = ns;
			b[k].off = off[k];
			b[k].grp = grp[k];
			seg[k].b = &b[k];
			seg[k].count = rnd(0, 4) == 0 ? rnd(0, 3) :
			    rnd(1, 300);
		}
		k = (int)rnd(1, 2);
		rep = rnd(1, 3);
		newton_time_run(&m, hid, seg, (size_t)k, rep, 0, &f);
		newton_time_run(&m, hid, seg, (size_t)k, rep, 1, &x);
		SAME_STATS(f, x);
	}
}

int
main(int argc, char **argv)
{
	(void)argc;
	pf_setprogname(argv[0]);
	pim_model_newton(&M);
	test_reference();
	test_rules();
	test_quirks();
	test_best();
	test_properties();
	test_geometry();
	test_periods();
	test_random_streams();
	return CHECK_DONE();
}
