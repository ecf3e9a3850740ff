/*
 * Measured per-layer times for gpu-cycles -m; see gpu_measured.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gpu_measured.h"
#include "xalloc.h"

const char *const gpu_measured_keys[GPU_NMKEYS + 1] = {
	"batch", "in_c", "in_h", "in_w", "out_c", "out_h", "out_w",
	"kernel_h", "kernel_w", "stride_h", "stride_w", "groups", NULL
};

static void
layer_key(const struct layer *l, int64_t *k)
{
	k[0] = l->batch; k[1] = l->in_c; k[2] = l->in_h; k[3] = l->in_w;
	k[4] = l->out_c; k[5] = l->out_h; k[6] = l->out_w;
	k[7] = l->kernel_h; k[8] = l->kernel_w;
	k[9] = l->stride_h; k[10] = l->stride_w; k[11] = l->groups;
}

/* Order by name, op, geometry (dtype is matched separately). */
static int
cmp_key(const char *na, enum layer_op oa, const int64_t *ka, const char *nb,
    enum layer_op ob, const int64_t *kb)
{
	int c, i;

	if ((c = strcmp(na, nb)) != 0)
		return c;
	if (oa != ob)
		return oa < ob ? -1 : 1;
	for (i = 0; i < GPU_NMKEYS; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static int
cmp_meas(const void *a, const void *b)
{
	const struct gpu_meas *x = a, *y = b;
	int c = cmp_key(x->name, x->op, x->key, y->name, y->op, y->key);

	return c != 0 ? c : strcmp(x->dtype, y->dtype);
}

int
gpu_measured_from_table(const struct table *t, struct gpu_measured *ms)
{
	long name, op, ns, dt, key[GPU_NMKEYS];
	static const char *const need[] = { "name", "op", "ns", NULL };
	long idx[3];
	size_t r, i;
	struct gpu_meas *m;

	memset(ms, 0, sizeof(*ms));
	if (csvio_need(t, need, idx) < 0 ||
	    csvio_need(t, gpu_measured_keys, key) < 0)
		return -1;
	name = idx[0];
	op = idx[1];
	ns = idx[2];
	dt = csvio_col(t, "dtype");
	ms->v = xcalloc(t->nrows ? t->nrows : 1, sizeof(*ms->v));
	for (r = 0; r < t->nrows; r++) {
		long line = csvio_line(t, r);
		const char *s;

		m = &ms->v[ms->n++];
		m->line = line;
		m->name = xstrdup(csvio_get(t, r, (size_t)name));
		if (*m->name == '\0') {
			pf_errl(t->fname, line, "column 'name': empty field");
			goto bad;
		}
		s = csvio_get(t, r, (size_t)op);
		if (layer_opparse(s, &m->op) < 0) {
			pf_errl(t->fname, line, "column 'op': unknown op '%s'", s);
			goto bad;
		}
		for (i = 0; i < GPU_NMKEYS; i++) {
			if (csvio_int(t, r, (size_t)key[i], &m->key[i]) < 0)
				goto bad;
			if (m->key[i] < 1) {
				pf_errl(t->fname, line, "column '%s': must be "
				    "positive, not '%s'", gpu_measured_keys[i],
				    csvio_get(t, r, (size_t)key[i]));
				goto bad;
			}
		}
		if (dt >= 0) {
			s = csvio_get(t, r, (size_t)dt);
			if (*s != '\0' && layer_dtype_bytes(s) == 0) {
				pf_errl(t->fname, line, "column 'dtype': unknown "
				    "type '%s'", s);
				goto bad;
			}
			snprintf(m->dtype, sizeof(m->dtype), "%s", s);
		}
		if (csvio_dbl(t, r, (size_t)ns, &m->ns) < 0)
			goto bad;
		if (!(m->ns >= 0) || !isfinite(m->ns)) {
			pf_errl(t->fname, line, "column 'ns': must be "
			    "non-negative, not '%s'", csvio_get(t, r,
			    (size_t)ns));
			goto bad;
		}
	}
	qsort(ms->v, ms->n, sizeof(*ms->v), cmp_meas);
	for (r = 1; r < ms->n; r++)
		if (cmp_meas(&ms->v[r - 1], &ms->v[r]) == 0) {
			long a = ms->v[r - 1].line, b = ms->v[r].line;

			pf_errl(t->fname, a > b ? a : b, "layer '%s' measured "
			    "twice with the same geometry (also line %ld)",
			    ms->v[r].name, a > b ? b : a);
			goto bad;
		}
	return 0;
bad:
	gpu_measured_free(ms);
	return -1;
}

int
gpu_measured_load(const char *path, struct gpu_measured *ms)
{
	struct table t;
	int rc;

	memset(ms, 0, sizeof(*ms));
	if (csvio_load(path, &t) < 0)
		return -1;
	rc = gpu_measured_from_table(&t, ms);
	csvio_free(&t);
	return rc;
}

void
gpu_measured_free(struct gpu_measured *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		free(ms->v[i].name);
	free(ms->v);
	free(ms->hits);
	free(ms->told);
	memset(ms, 0, sizeof(*ms));
}

const struct gpu_meas *
gpu_measured_find(const struct gpu_measured *ms, const char *name,
    const struct layer *l)
{
	const struct gpu_meas *any = NULL;
	int64_t k[GPU_NMKEYS];
	size_t lo = 0, hi = ms->n, mid, i;
	int c;

	layer_key(l, k);
	/* Lower bound of (name, op, key); dtype variants follow it. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = cmp_key(ms->v[mid].name, ms->v[mid].op, ms->v[mid].key,
		    name, l->op, k);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* An entry for the row's dtype wins over one for any dtype. */
	for (i = lo; i < ms->n && cmp_key(ms->v[i].name, ms->v[i].op,
	    ms->v[i].key, name, l->op, k) == 0; i++) {
		if (strcmp(ms->v[i].dtype, l->dtype) == 0)
			return &ms->v[i];
		if (ms->v[i].dtype[0] == '\0')
			any = &ms->v[i];
	}
	return any;
}

void
gpu_measured_hit(struct gpu_measured *ms, const struct gpu_meas *x)
{
	if (ms->hits == NULL)
		ms->hits = xcalloc(ms->n ? ms->n : 1, sizeof(*ms->hits));
	ms->hits[x - ms->v]++;
}

int
gpu_measured_fallback(struct gpu_measured *ms, const char *name)
{
	size_t lo = 0, hi = ms->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(ms->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ms->n || strcmp(ms->v[lo].name, name) != 0)
		return 0;
	if (ms->told == NULL)
		ms->told = xcalloc(ms->n ? ms->n : 1, sizeof(*ms->told));
	if (ms->told[lo])
		return 0;
	ms->told[lo] = 1;
	return 1;
}

const struct gpu_meas *
gpu_measured_unused(const struct gpu_measured *ms, size_t i)
{
	size_t k;

	for (k = 0; k < ms->n; k++)
		if (ms->hits == NULL || ms->hits[k] == 0) {
			if (i == 0)
				return &ms->v[k];
			i--;
		}
	return NULL;
}
