/*
 * Newton command generation (newton_gen.h), following the structure of
 * PIMFlow's pim_codegen (PimCodeGen, OutputNewtonTraceV2, policy_auto,
 * policy_readres_auto) as share/doc/newton-timing.md §5 states it.  The published
 * scheduler keeps one mutable template per block and runs its n_gwrite
 * passes over the same blocks; every block goes through the same
 * operations in a pass, so one template per part, mutated pass by pass,
 * gives exactly the same units.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "newton_gen.h"
#include "xalloc.h"

/* Groups of the template: COMP count and first COMP column of each. */
struct tmpl {
	size_t	 n, cap;
	int64_t	*cnt, *col;
};

/* The published buffers hold a block's READRES groups; keep them sane. */
#define MAXGROUPS	((int64_t)1 << 22)

static void
tmpl_push(struct tmpl *t, int64_t cnt, int64_t col)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cnt = xreallocarray(t->cnt, t->cap, sizeof(*t->cnt));
		t->col = xreallocarray(t->col, t->cap, sizeof(*t->col));
	}
	t->cnt[t->n] = cnt;
	t->col[t->n] = col;
	t->n++;
}

/*
 * The split rule: group i of q COMPs becomes f pieces; with w = q / f,
 * piece p holds COMP indices p*w + i + t (t < w) that are < q.
 */
static void
tmpl_split(struct tmpl *t, int64_t f)
{
	struct tmpl nt;
	size_t i;
	int64_t p, w, lo, cnt;

	memset(&nt, 0, sizeof(nt));
	for (i = 0; i < t->n; i++) {
		w = t->cnt[i] / f;
		for (p = 0; p < f; p++) {
			lo = p * w + (int64_t)i;
			cnt = t->cnt[i] - lo;
			if (cnt > w)
				cnt = w;
			if (cnt < 0)
				cnt = 0;
			tmpl_push(&nt, cnt, t->col[i] + lo);
		}
	}
	free(t->cnt);
	free(t->col);
	*t = nt;
}

static int
gw_digits(int64_t g)
{
	int d = 1;

	while (g >= 10) {
		g /= 10;
		d++;
	}
	return d;
}

/* Characters of one GWRITE line "0x00000000 GWRITE_g [a b c]\n". */
static int64_t
gw_len(const struct ngen_part *pt, int64_t g)
{
	int64_t n = 18 + gw_digits(g) + 1 + 1;

	if (pt->has_stride)
		n += snprintf(NULL, 0, "%lld %lld %lld",
		    (long long)pt->stride_text[0], (long long)pt->stride_text[1],
		    (long long)pt->stride_text[2]);
	return n;
}

static void
part_clear(struct ngen_part *pt)
{
	free(pt->uoff);
	free(pt->ucnt);
	free(pt->ucol);
	pt->uoff = NULL;
	pt->ucnt = pt->ucol = NULL;
	pt->units = 0;
}

/*
 * The unit arrays a pass fills, kept from pass to pass: the kept pass's
 * arrays move into the part and its former ones become the spares.
 */
struct spares {
	size_t	*uoff, ucap, best_ucap;
	int64_t	*ucnt, *ucol;
	size_t	 gcap, best_gcap;
};

/* Pass cur's arrays: the spares, grown to its units and total groups. */
static void
spares_fit(struct spares *sp, struct ngen_part *cur, size_t total)
{
	if (sp->ucap < cur->units + 1) {
		sp->ucap = cur->units + 1;
		sp->uoff = xreallocarray(sp->uoff, sp->ucap, sizeof(*sp->uoff));
	}
	if (sp->gcap < total) {
		sp->gcap = total;
		sp->ucnt = xreallocarray(sp->ucnt, sp->gcap, sizeof(*sp->ucnt));
		sp->ucol = xreallocarray(sp->ucol, sp->gcap, sizeof(*sp->ucol));
	}
	/* every entry is written by pass_units */
	cur->uoff = sp->uoff;
	cur->ucnt = sp->ucnt;
	cur->ucol = sp->ucol;
}

/* Keep pass cur in pt (have: pt holds an earlier pass, whose arrays go). */
static void
spares_keep(struct spares *sp, struct ngen_part *pt,
    const struct ngen_part *cur, int have)
{
	size_t sw;

	sp->uoff = have ? pt->uoff : NULL;
	sp->ucnt = have ? pt->ucnt : NULL;
	sp->ucol = have ? pt->ucol : NULL;
	sw = sp->ucap;
	sp->ucap = have ? sp->best_ucap : 0;
	sp->best_ucap = sw;
	sw = sp->gcap;
	sp->gcap = have ? sp->best_gcap : 0;
	sp->best_gcap = sw;
	*pt = *cur;
}

/*
 * The finer READRES split while few groups (share/doc/newton-timing.md
 * §5) for n channels of a GWRITE group: template t split in place, *split
 * multiplied by the factors; *par the groups of a pass.  -1 past
 * MAXGROUPS.
 */
static int
pass_split(const struct ngen_part *pt, struct tmpl *t, int64_t n,
    int64_t *split, int64_t *par)
{
	int64_t f;

	if (ck_mul(pt->r, (int64_t)t->n, par) < 0 || *par > MAXGROUPS)
		return -1;
	while (*par <= n / 2) {
		f = n / *par;
		tmpl_split(t, f);
		*split *= f;
		*par = pt->r * (int64_t)t->n;
	}
	return 0;
}

/*
 * Unit idx writes template groups 0..size-1 (s a unit, total in all),
 * each after the template's last group was overwritten by a copy of it.
 * Returns the text of channel 0's units of a block but its GWRITE line.
 */
static int64_t
pass_units(struct ngen_part *cur, struct tmpl *t, int64_t total, int64_t s,
    int64_t n)
{
	int64_t idx, sz, k, per = 0;
	size_t ng = 0;

	for (idx = 0; idx < (int64_t)cur->units; idx++) {
		sz = total - idx * s;
		if (sz > s)
			sz = s;
		cur->uoff[idx] = ng;
		if (idx % n == 0)
			per += 4 * 18;
		for (k = 0; k < sz; k++) {
			t->cnt[t->n - 1] = t->cnt[k];
			t->col[t->n - 1] = t->col[k];
			cur->ucnt[ng] = t->cnt[t->n - 1];
			cur->ucol[ng] = t->col[t->n - 1];
			if (idx % n == 0)
				per += 16 * cur->ucnt[ng] + 8;
			ng++;
		}
	}
	cur->uoff[cur->units] = ng;
	return per;
}

/*
 * Schedule one part: B blocks of r sets, each set rho groups of q COMPs.
 * Runs the passes, keeps the one the selection rule prefers, or the pass
 * with g == pick when pick > 0.
 */
static int
part_build(struct ngen_part *pt, int64_t nch, int64_t max_gw, int64_t pick)
{
	struct tmpl t;
	struct spares sp;
	struct ngen_part cur;
	int64_t g, n, total, s, u, per, text, gact0, split = 1;
	size_t i;
	int have = 0, rc = -1;

	memset(&t, 0, sizeof(t));
	memset(&sp, 0, sizeof(sp));
	for (i = 0; i < (size_t)pt->rho; i++)
		tmpl_push(&t, pt->q, (int64_t)i * pt->q);
	for (g = 1; g <= max_gw && g <= nch; g *= 2) {
		n = nch / g;
		if (pass_split(pt, &t, n, &split, &total) < 0)
			goto out;
		s = ceil_div(total, n);
		if (s < 1)
			s = 1;
		if (s > (int64_t)t.n)
			s = (int64_t)t.n;
		cur = *pt;
		cur.split = split;
		cur.g = g;
		cur.n = n;
		cur.chunk = ceil_div(pt->blocks, g);
		cur.rho = (int64_t)t.n;
		cur.units = (size_t)ceil_div(total, s);
		spares_fit(&sp, &cur, (size_t)total);
		per = pass_units(&cur, &t, total, s, n);
		u = ceil_div((int64_t)cur.units, n);
		if (ck_mul(cur.chunk, u, &gact0) < 0 ||
		    ck_mul(cur.chunk, per + gw_len(&cur, g), &text) < 0)
			goto out;
		cur.gact0_ch0 = gact0;
		cur.text_ch0 = text;
		/* Fewest G_ACT0 on channel 0, then strictly shorter text. */
		if (pick > 0 ? g == pick : (!have || gact0 < pt->gact0_ch0 ||
		    (gact0 == pt->gact0_ch0 && text < pt->text_ch0))) {
			spares_keep(&sp, pt, &cur, have);
			have = 1;
		}
	}
	rc = have ? 0 : -1;
out:
	free(sp.uoff);
	free(sp.ucnt);
	free(sp.ucol);
	if (rc < 0 && have)
		part_clear(pt);
	free(t.cnt);
	free(t.col);
	return rc;
}

void
newton_gen_kv_pack(const struct pim_model *m, int64_t seg, int64_t p, int64_t co,
    struct ngen_pack *k)
{
	int64_t fl = m->gbuf_elems / seg, og = ceil_div(co, m->banks);

	k->qpb = p < fl ? p : fl;
	k->kpr = fl / k->qpb;
	if (k->kpr > og)
		k->kpr = og;
	k->hpr = fl / (k->qpb * k->kpr);
}

int
newton_gen_build(const struct pim_model *m, const struct ngen_layer *l,
    int64_t nch, int64_t max_gw, struct ngen_plan *p)
{
	return newton_gen_build_pick(m, l, nch, max_gw, 0, 0, p);
}

int
newton_gen_build_pick(const struct pim_model *m, const struct ngen_layer *l,
    int64_t nch, int64_t max_gw, int64_t pick0, int64_t pick1,
    struct ngen_plan *p)
{
	int64_t red, len, fl, full, rem, gb = m->gbuf_elems, e = m->comp_elems;
	struct ngen_pack k;
	struct ngen_part *pt;
	int i;

	memset(p, 0, sizeof(*p));
	p->nch = nch;
	if (nch < 1 || max_gw < 1 || l->g.ci < 1 || l->g.co < 1 ||
	    l->g.p < 1 || ck_mul(l->g.ci, l->g.kh, &red) < 0 ||
	    ck_mul(red, l->g.kw, &red) < 0 || red > INT64_MAX / 2)
		return -1;
	len = ceil_div(red, e) * e;		/* L */
	pt = &p->part[0];
	pt->r = ceil_div(l->g.co, m->banks);
	if (len <= gb && l->packed) {
		newton_gen_kv_pack(m, len, l->g.p, l->g.co, &k);
		if (k.hpr > l->hpr)
			k.hpr = l->hpr > 1 ? l->hpr : 1;
		pt->blocks = ceil_div(l->g.p, k.qpb);
		pt->r = ceil_div(l->g.co, m->banks * k.kpr);
		pt->q = len / e;
		pt->rho = k.qpb * k.kpr * k.hpr;
		pt->chunks = 1;
		p->nparts = 1;
	} else if (len <= gb) {
		fl = gb / len;
		pt->blocks = ceil_div(l->g.p, fl);
		pt->q = len / e;
		pt->rho = fl;
		pt->chunks = 1;
		if (l->g.kh > 1 || l->g.kw > 1) {
			pt->has_stride = 1;
			pt->stride_text[0] = l->g.ci * l->g.kh;
			pt->stride_text[1] = l->g.ci * (l->g.h - l->g.kh);
			pt->stride_text[2] = l->g.ci * l->g.kh;
		}
		p->nparts = 1;
	} else {
		full = len / gb;
		if (ck_mul(full, l->g.p, &pt->blocks) < 0)
			return -1;
		pt->q = gb / e;
		pt->rho = 1;
		pt->chunks = full;
		p->nparts = 1;
		rem = len - gb * full;
		if (rem > 0) {
			pt = &p->part[1];
			pt->r = p->part[0].r;
			fl = gb / rem;
			pt->blocks = ceil_div(l->g.p, fl);
			pt->q = rem / e;
			pt->rho = fl;
			pt->chunks = 1;
			p->nparts = 2;
			if (l->packed) {
				/* the remainder segment packs too, heads do not */
				newton_gen_kv_pack(m, rem, l->g.p, l->g.co, &k);
				pt->blocks = ceil_div(l->g.p, k.qpb);
				pt->r = ceil_div(l->g.co, m->banks * k.kpr);
				pt->rho = k.qpb * k.kpr;
			}
		}
	}
	for (i = 0; i < p->nparts; i++)
		if (part_build(&p->part[i], nch, max_gw, i == 0 ? pick0 : pick1) < 0) {
			newton_gen_free(p);
			return -1;
		}
	return 0;
}

void
newton_gen_free(struct ngen_plan *p)
{
	int i;

	for (i = 0; i < 2; i++)
		part_clear(&p->part[i]);
	p->nparts = 0;
}

int64_t
newton_gen_chan_blocks(const struct ngen_part *pt, int64_t ch)
{
	int64_t grp = ch / pt->n, left;

	if (grp >= pt->g)
		return 0;
	left = pt->blocks - grp * pt->chunk;
	if (left < 0)
		return 0;
	return left < pt->chunk ? left : pt->chunk;
}

size_t
newton_gen_chan_units(const struct ngen_part *pt, int64_t ch, int *has_last)
{
	int64_t j = ch % pt->n, u = (int64_t)pt->units;

	if (ch / pt->n >= pt->g || j >= u) {
		*has_last = 0;
		return 0;
	}
	*has_last = (u - 1) % pt->n == j;
	return (size_t)ceil_div(u - j, pt->n);
}

void
newton_gen_chan_block(const struct ngen_part *pt, int64_t ch, struct ngen_chblock *cb)
{
	int last;
	size_t ns = newton_gen_chan_units(pt, ch, &last), s, ng = 0, idx, gi;

	memset(cb, 0, sizeof(*cb));
	cb->off = xcalloc(ns + 1, sizeof(*cb->off));
	cb->unit = xcalloc(ns + 1, sizeof(*cb->unit));
	for (s = 0; s < ns; s++) {
		idx = (size_t)(ch % pt->n) + s * (size_t)pt->n;
		ng += pt->uoff[idx + 1] - pt->uoff[idx];
	}
	cb->grp = xcalloc(ng + 1, sizeof(*cb->grp));
	cb->col = xcalloc(ng + 1, sizeof(*cb->col));
	ng = 0;
	for (s = 0; s < ns; s++) {
		idx = (size_t)(ch % pt->n) + s * (size_t)pt->n;
		cb->unit[s] = idx;
		cb->off[s] = ng;
		for (gi = pt->uoff[idx]; gi < pt->uoff[idx + 1]; gi++) {
			cb->grp[ng] = pt->ucnt[gi];
			cb->col[ng] = pt->ucol[gi];
			ng++;
		}
	}
	cb->off[ns] = ng;
	cb->b.nsets = ns;
	cb->b.off = cb->off;
	cb->b.grp = cb->grp;
}

void
newton_gen_chblock_free(struct ngen_chblock *cb)
{
	free(cb->off);
	free(cb->grp);
	free(cb->col);
	free(cb->unit);
	memset(cb, 0, sizeof(*cb));
}

/* One block of a channel in text; the G_ACT header is the template's (row 0). */
static void
put_block(FILE *fp, const struct ngen_part *pt, const struct ngen_chblock *cb)
{
	size_t s, gi;
	int64_t k;
	int a;

	fprintf(fp, "0x00000000 GWRITE_%lld ", (long long)pt->g);
	if (pt->has_stride)
		fprintf(fp, "%lld %lld %lld", (long long)pt->stride_text[0],
		    (long long)pt->stride_text[1], (long long)pt->stride_text[2]);
	fputc('\n', fp);
	for (s = 0; s < cb->b.nsets; s++) {
		for (a = 0; a < 4; a++)
			fprintf(fp, "0x%08llx G_ACT%d\n",
			    (unsigned long long)a << 27, a);
		for (gi = cb->off[s]; gi < cb->off[s + 1]; gi++) {
			for (k = 0; k < cb->grp[gi]; k++)
				fprintf(fp, "0x%08llx COMP\n",
				    (unsigned long long)(cb->col[gi] + k) << 6);
			fputs("READRES\n", fp);
		}
	}
}

int
newton_gen_write_trace(FILE *fp, const struct ngen_plan *p, int64_t ch,
    int64_t repeat)
{
	struct ngen_chblock cb;
	int64_t r, b, nb;
	int i;

	for (r = 0; r < repeat; r++)
		for (i = 0; i < p->nparts; i++) {
			nb = newton_gen_chan_blocks(&p->part[i], ch);
			newton_gen_chan_block(&p->part[i], ch, &cb);
			for (b = 0; b < nb; b++)
				put_block(fp, &p->part[i], &cb);
			newton_gen_chblock_free(&cb);
		}
	return ferror(fp) ? -1 : 0;
}
