/*
 * Memory capacity of a plan (capacity.h): the model's bytes from
 * layers.csv placed on the machine's pools as the plan runs its layers,
 * checked against the configs' memory, and the largest batch that fits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "capacity.h"
#include "conf.h"
#include "diag.h"
#include "solve.h"
#include "xalloc.h"

void
capacity_layers_free(struct cap_layers *l)
{
	free(l->weight);
	free(l->kv);
	memset(l, 0, sizeof(*l));
}

/* Cell (row, col) as a count >= 0; col < 0: 0. */
static int
cell(const struct table *t, size_t row, long col, const char *name,
    int64_t *v)
{
	*v = 0;
	if (col < 0 || *csvio_get(t, row, (size_t)col) == '\0')
		return 0;
	if (csvio_int(t, row, (size_t)col, v) < 0)
		return -1;
	if (*v < 0) {
		pf_errl(t->fname, csvio_line(t, row), "column '%s': '%s' is "
		    "below 0", name, csvio_get(t, row, (size_t)col));
		return -1;
	}
	return 0;
}

int
capacity_read_layers(const struct table *t, struct cap_layers *l)
{
	long wc = csvio_col(t, "weight_bytes"), ic = csvio_col(t, "in_bytes");
	long oc = csvio_col(t, "out_bytes"), rc = csvio_col(t, "resident");
	long opc = csvio_col(t, "op"), bc = csvio_col(t, "batch");
	size_t i, n = t->nrows;
	int64_t w, in, out, a;

	memset(l, 0, sizeof(*l));
	l->n = (int64_t)n;
	l->weight = xcalloc(n + 1, sizeof(int64_t));
	l->kv = xcalloc(n + 1, sizeof(int64_t));
	l->batch = 1;
	for (i = 0; i < n; i++) {
		if (cell(t, i, wc, "weight_bytes", &w) < 0 ||
		    cell(t, i, ic, "in_bytes", &in) < 0 ||
		    cell(t, i, oc, "out_bytes", &out) < 0)
			return -1;
		/*
		 * An attention matmul over the cache counts the cache as
		 * its weight operand (pf-formats(7), resident); the cache's
		 * Concat (the append) has no weight bytes.
		 */
		if (rc >= 0 && opc >= 0 &&
		    strcmp(csvio_get(t, i, (size_t)rc), "kv") == 0 &&
		    strcmp(csvio_get(t, i, (size_t)opc), "matmul") == 0)
			l->kv[i] = w;
		else
			l->weight[i] = w;
		if (ck_add(in, out, &a) < 0) {
			pf_errl(t->fname, csvio_line(t, i), "in_bytes + "
			    "out_bytes overflow");
			return -1;
		}
		if (a > l->act)
			l->act = a;
	}
	if (bc >= 0 && n > 0 && (cell(t, 0, bc, "batch", &l->batch) < 0 ||
	    l->batch < 1)) {
		if (l->batch < 1)
			pf_errl(t->fname, csvio_line(t, 0), "column 'batch': "
			    "want a count from 1");
		return -1;
	}
	return 0;
}

/* A byte count from config key `key` (absent: *v = -1). */
static int
conf_bytes(struct conf *c, const char *key, int64_t *v)
{
	const char *s = conf_str(c, key);

	*v = -1;
	if (s == NULL)
		return 0;
	if (csvio_parse_int64(s, v) < 0 || *v < 1) {
		pf_errl(c->path, conf_line(c, key), "key '%s': '%s': want a "
		    "whole number of bytes from 1", key, s);
		return -1;
	}
	return 0;
}

int
capacity_machine_load(const char *gpu, const char *pim, int64_t pim_channels,
    struct cap_machine *m)
{
	struct conf c;
	char *path;
	const char *s;
	int64_t per, ch;
	int rc;

	memset(m, 0, sizeof(*m));
	if ((path = conf_resolve("gpu", gpu)) == NULL)
		return -1;
	conf_name(path, m->gpu, sizeof(m->gpu));
	rc = conf_load(path, &c);
	free(path);
	if (rc < 0)
		return -1;
	rc = conf_bytes(&c, "memory_bytes", &m->gpu_bytes);
	conf_free(&c);
	if (rc < 0)
		return -1;
	if (m->gpu_bytes < 0)
		return 0;	/* no capacity stated: nothing to check */
	m->known = 1;
	if ((path = conf_resolve("pim", pim != NULL ? pim : "newton-gddr6")) ==
	    NULL)
		return -1;
	rc = conf_load(path, &c);
	free(path);
	if (rc < 0)
		return -1;
	rc = -1;
	if ((s = conf_str(&c, "pim_attach")) != NULL &&
	    strcmp(s, "partition") != 0 && strcmp(s, "added") != 0) {
		pf_errl(c.path, conf_line(&c, "pim_attach"), "key 'pim_attach': "
		    "'%s': want partition or added", s);
		goto done;
	}
	m->added = s != NULL && strcmp(s, "added") == 0;
	if (!m->added) {
		rc = 0;
		goto done;
	}
	if (conf_bytes(&c, "memory_bytes_per_channel", &per) < 0)
		goto done;
	ch = pim_channels;
	if (ch == 0 && ((s = conf_str(&c, "channels")) == NULL ||
	    csvio_parse_int64(s, &ch) < 0 || ch < 1)) {
		pf_err(c.path, "key 'channels': want a count of PIM channels");
		goto done;
	}
	if (per < 0) {
		pf_err(c.path, "missing key 'memory_bytes_per_channel' (an "
		    "added PIM device needs its capacity)");
		goto done;
	}
	if (ck_mul(per, ch, &m->pim_bytes) < 0) {
		pf_err(c.path, "memory_bytes_per_channel x %lld channels "
		    "overflows", (long long)ch);
		goto done;
	}
	rc = 0;
done:
	conf_free(&c);
	return rc;
}

/*
 * floor(free * batch / grow): 0 when what does not grow already fills the
 * pool (free < 0; free 0 with something growing), else -1 when nothing
 * grows (no bound).
 */
static int64_t
batch_bound(int64_t free_b, int64_t batch, int64_t grow)
{
	double b;

	if (free_b < 0 || (free_b == 0 && grow > 0))
		return 0;
	if (grow == 0)
		return -1;
	/* whole bytes well below 2^53: the quotient is exact enough */
	b = floor((double)free_b * (double)batch / (double)grow);
	return b > 9e15 ? (int64_t)9e15 : (int64_t)b;
}

int
capacity_place(const struct cap_layers *l, const struct cap_machine *m,
    const unsigned char *pim_pct, const char *where, struct cap_need *need)
{
	int64_t i, w, kv, pw, pkv, gw = 0, gkv = 0, ow = 0, okv = 0, b1, b2;

	memset(need, 0, sizeof(*need));
	for (i = 0; i < l->n; i++) {
		int pct = pim_pct != NULL ? pim_pct[i] : 0;

		w = l->weight[i];
		kv = l->kv[i];
		/* w and kv are below 2^63 / 100 for any real model */
		if (w > INT64_MAX / 100 || kv > INT64_MAX / 100)
			goto overflow;
		pw = w * pct / 100;
		pkv = kv * pct / 100;
		if (ck_add(need->weights, w, &need->weights) < 0 ||
		    ck_add(need->kv, kv, &need->kv) < 0 ||
		    ck_add(gw, w - pw, &gw) < 0 ||
		    ck_add(gkv, kv - pkv, &gkv) < 0 ||
		    ck_add(ow, pw, &ow) < 0 || ck_add(okv, pkv, &okv) < 0)
			goto overflow;
	}
	need->act = l->act;
	need->gpu_has = m->gpu_bytes;
	if (!m->added) {
		/* one pool: the PIM channels are the card's own */
		gw += ow, gkv += okv, ow = okv = 0;
	} else
		need->pim_has = m->pim_bytes;
	if (ck_add(gw, gkv, &need->gpu) < 0 ||
	    ck_add(need->gpu, l->act, &need->gpu) < 0 ||
	    ck_add(ow, okv, &need->pim) < 0 ||
	    ck_add(gkv, l->act, &b1) < 0)
		goto overflow;
	need->fits = need->gpu <= need->gpu_has && need->pim <= need->pim_has;
	/*
	 * The KV cache and the activations grow with the batch (the cache
	 * exactly), the weights do not: the largest batch is each pool's
	 * room after its weights over its bytes per request.
	 */
	b1 = batch_bound(need->gpu_has - gw, l->batch, b1);
	b2 = m->added ? batch_bound(need->pim_has - ow, l->batch, okv) : -1;
	need->max_batch = b1 < 0 ? b2 : b2 < 0 ? b1 : b1 < b2 ? b1 : b2;
	return 0;
overflow:
	pf_err(where, "the model's bytes overflow 64 bits");
	return -1;
}

void
capacity_report(const char *where, const char *policy,
    const struct cap_machine *m, const struct cap_need *need)
{
	if (need->gpu > need->gpu_has)
		pf_err(where, "policy '%s' does not fit: needs %lld bytes of "
		    "%s memory (weights, KV cache, activations: %lld, %lld, "
		    "%lld%s), %s has %lld", policy, (long long)need->gpu,
		    m->added ? "GPU" : "the card's", (long long)need->weights,
		    (long long)need->kv, (long long)need->act,
		    m->added ? "; the part on PIM aside" : "", m->gpu,
		    (long long)need->gpu_has);
	else
		pf_err(where, "policy '%s' does not fit: needs %lld bytes of "
		    "the added PIM devices' memory, they have %lld", policy,
		    (long long)need->pim, (long long)need->pim_has);
}

void
capacity_plan_pct(const struct cand *c, int64_t nlayers,
    const struct plan *pl, unsigned char *pct)
{
	size_t k;
	int64_t j;

	memset(pct, 0, (size_t)nlayers);
	for (k = 0; k < pl->nseg; k++) {
		const struct cand *x = &c[pl->seg[k]];

		for (j = x->first; j <= x->last && j < nlayers; j++)
			switch (x->kind) {
			case K_PIM:
				pct[j] = 100;
				break;
			case K_SPLIT:
			case K_PIPE:
				pct[j] = (unsigned char)(100 - x->ratio);
				break;
			case K_DAG:
				pct[j] = x->dev[j - x->first] ? 100 : 0;
				break;
			default:
				break;
			}
	}
}
