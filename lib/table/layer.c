/*
 * Layer geometry: the columns shared by layers.csv and tasks.csv.
 */
#include <stddef.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "layer.h"
#include "nametab.h"

static const char *const opnames[OP_NOPS] = {
	"conv", "gemm", "matmul", "pool", "eltwise", "act", "softmax",
	"norm", "reduce", "concat", "transpose", "resize", "embed", "other"
};

const char *const layer_colnames[] = {
	"layer", "name", "op", "onnx_op", "preds",
	"batch", "in_c", "in_h", "in_w", "out_c", "out_h", "out_w",
	"kernel_h", "kernel_w", "stride_h", "stride_w",
	"pad_top", "pad_left", "pad_bottom", "pad_right",
	"dil_h", "dil_w", "groups",
	"gemm_m", "gemm_n", "gemm_k", "gemm_batch",
	"act", "macs", "in_bytes", "weight_bytes", "out_bytes", "dtype",
	NULL
};

/* The numeric geometry columns: name, offset in the structs, minimum. */
static const struct numcol {
	const char	*name;
	size_t		 loff;	/* offset in struct layer */
	size_t		 coff;	/* offset in struct layer_cols */
	int64_t		 min;
} numcols[] = {
#define NC(f, m) { #f, offsetof(struct layer, f), offsetof(struct layer_cols, f), m }
	NC(id, 0),
	NC(batch, 1), NC(in_c, 1), NC(in_h, 1), NC(in_w, 1),
	NC(out_c, 1), NC(out_h, 1), NC(out_w, 1),
	NC(kernel_h, 1), NC(kernel_w, 1), NC(stride_h, 1), NC(stride_w, 1),
	NC(pad_top, 0), NC(pad_left, 0), NC(pad_bottom, 0), NC(pad_right, 0),
	NC(dil_h, 1), NC(dil_w, 1), NC(groups, 1),
	NC(gemm_m, 0), NC(gemm_n, 0), NC(gemm_k, 0), NC(gemm_batch, 0),
	NC(macs, 0), NC(in_bytes, 0), NC(weight_bytes, 0), NC(out_bytes, 0),
#undef NC
};
#define NNUM (sizeof(numcols) / sizeof(numcols[0]))

/* The optional depth columns (all present or none), after the others. */
static const struct numcol dcols[] = {
#define NC(f, m) { #f, offsetof(struct layer, f), offsetof(struct layer_cols, f), m }
	NC(in_d, 1), NC(out_d, 1), NC(kernel_d, 1), NC(stride_d, 1),
	NC(pad_front, 0), NC(pad_back, 0), NC(dil_d, 1),
#undef NC
};
#define NDCOL (sizeof(dcols) / sizeof(dcols[0]))

#define LFIELD(l, nc) ((int64_t *)(void *)((char *)(l) + (nc)->loff))
#define CFIELD(c, nc) ((long *)(void *)((char *)(c) + (nc)->coff))

static const struct {
	const char	*name;
	int		 bytes;
} dtypes[] = {
	{ "fp16", 2 }, { "bf16", 2 }, { "fp32", 4 }, { "fp64", 8 },
	{ "fp8", 1 }, { "int8", 1 }, { "uint8", 1 }, { "int16", 2 },
	{ "int32", 4 }, { "int64", 8 }, { "bool", 1 },
};

NAMETAB_PAIR(enum layer_op, opnames, OP_NOPS, layer_opname, layer_opparse)

int
layer_dtype_bytes(const char *dtype)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (strcmp(dtype, dtypes[i].name) == 0)
			return dtypes[i].bytes;
	return 0;
}

void
layer_init(struct layer *l)
{
	memset(l, 0, sizeof(*l));
	l->op = OP_OTHER;
	l->batch = l->in_c = l->in_h = l->in_w = 1;
	l->out_c = l->out_h = l->out_w = 1;
	l->kernel_h = l->kernel_w = l->stride_h = l->stride_w = 1;
	l->dil_h = l->dil_w = l->groups = 1;
	l->in_d = l->out_d = l->kernel_d = l->stride_d = l->dil_d = 1;
	strcpy(l->act, "none");
	strcpy(l->dtype, "fp16");
}

int
layer_cols_find(const struct table *t, struct layer_cols *lc)
{
	static const char *const strcols[] = { "op", "act", "dtype" };
	long *sidx[3];
	size_t i;

	sidx[0] = &lc->op;
	sidx[1] = &lc->act;
	sidx[2] = &lc->dtype;
	for (i = 0; i < NNUM; i++) {
		const char *name = i == 0 ? "layer" : numcols[i].name;

		if ((*CFIELD(lc, &numcols[i]) = csvio_col(t, name)) < 0) {
			pf_errl(t->fname, 1, "missing column '%s'", name);
			return -1;
		}
	}
	lc->resident = csvio_col(t, "resident");
	lc->transposed = csvio_col(t, "transposed");
	lc->kv_seq = csvio_col(t, "kv_seq");
	for (i = 0; i < NDCOL; i++)
		*CFIELD(lc, &dcols[i]) = csvio_col(t, dcols[i].name);
	for (i = 0; i < NDCOL; i++)
		if ((*CFIELD(lc, &dcols[i]) < 0) != (lc->in_d < 0)) {
			pf_errl(t->fname, 1, "column '%s': the depth columns "
			    "come all together or not at all", dcols[i].name);
			return -1;
		}
	for (i = 0; i < 3; i++)
		if ((*sidx[i] = csvio_col(t, strcols[i])) < 0) {
			pf_errl(t->fname, 1, "missing column '%s'", strcols[i]);
			return -1;
		}
	return 0;
}

void
layer_cols_add(struct table *t, struct layer_cols *lc)
{
	size_t i;

	for (i = 0; layer_colnames[i] != NULL; i++)
		csvio_addcol(t, layer_colnames[i]);
	(void)layer_cols_find(t, lc);
}

/*
 * The cells of layer_seen: the numbers, then the depth numbers, then
 * the text cells in layer_get's order.
 */
enum { S_OP = NNUM + NDCOL, S_ACT, S_DTYPE, S_RESIDENT, S_KV, S_TRANS,
	S_N };
_Static_assert(S_N == LAYER_SEEN_CELLS, "layer_seen has a cell per column");
#define SEEN_NONE	0xff	/* no text kept (too long) */

/* Whether cell text s is that of slot k (s unread past its NUL). */
static inline int
seen(const struct layer_seen *m, size_t k, const char *s)
{
	const unsigned char *p;
	size_t i, n;

	if (m == NULL || !m->have || (n = (p = m->text[k])[0]) == SEEN_NONE)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] != p[1 + i])
			return 0;
	return s[n] == '\0';
}

/* Keep cell text s in slot k. */
static inline void
keep(struct layer_seen *m, size_t k, const char *s)
{
	size_t n;

	if (m == NULL)
		return;
	n = strlen(s);
	if (n >= LAYER_SEEN_TEXT - 1)
		m->text[k][0] = SEEN_NONE;
	else {
		m->text[k][0] = (unsigned char)n;
		memcpy(m->text[k] + 1, s, n);
	}
}

/*
 * A text cell into dst (n bytes, cleared first and given init, as
 * layer_init leaves it, so that equal cells give equal bytes).
 */
static int
getstr(const struct table *t, size_t row, long col, char *dst, size_t n,
    const char *init)
{
	const char *s = csvio_get(t, row, (size_t)col);

	if (*s == '\0') {
		pf_errl(t->fname, csvio_line(t, row), "column '%s': empty field",
		    t->cols[col]);
		return -1;
	}
	if (strlen(s) >= n) {
		pf_errl(t->fname, csvio_line(t, row),
		    "column '%s': value too long: '%s'", t->cols[col], s);
		return -1;
	}
	memset(dst, 0, n);
	strcpy(dst, init);
	strcpy(dst, s);
	return 0;
}

/*
 * The n numeric columns nc of row, each at least its minimum, into l;
 * a cell whose text is slot base + i of m keeps l's value.
 */
static int
getnums(const struct table *t, size_t row, const struct layer_cols *lc,
    const struct numcol *nc, size_t n, struct layer *l,
    struct layer_seen *m, size_t base)
{
	size_t i, col;
	int64_t *v;

	for (i = 0; i < n; i++) {
		col = (size_t)*CFIELD(lc, &nc[i]);
		if (seen(m, base + i, csvio_get(t, row, col)))
			continue;
		v = LFIELD(l, &nc[i]);
		if (csvio_int(t, row, col, v) < 0)
			return -1;
		if (*v < nc[i].min) {
			pf_errl(t->fname, csvio_line(t, row), "column '%s': "
			    "must be %s, not '%s'", t->cols[col], nc[i].min > 0 ?
			    "positive" : "non-negative", csvio_get(t, row, col));
			return -1;
		}
		keep(m, base + i, csvio_get(t, row, col));
	}
	return 0;
}

/*
 * Optional column col of row (absent: empty): empty or one of the two
 * words ok (okmsg says which, in the report), checked only when slot k
 * of m has not seen it.  1 with its text in *s when new, 0 when seen,
 * -1 after a report.
 */
static int
getword(const struct table *t, size_t row, long col, struct layer_seen *m,
    size_t k, const char *const ok[2], const char *okmsg, const char **s)
{
	*s = col >= 0 ? csvio_get(t, row, (size_t)col) : "";
	if (seen(m, k, *s))
		return 0;
	if (**s != '\0' && nametab_find(ok, 2, *s) < 0) {
		pf_errl(t->fname, csvio_line(t, row), "column '%s': must be "
		    "%s, not '%s'", t->cols[col], okmsg, *s);
		return -1;
	}
	keep(m, k, *s);
	return 1;
}

/* The optional depth columns, all present or none (layer_init's then). */
static int
getdepth(const struct table *t, size_t row, const struct layer_cols *lc,
    struct layer *l, struct layer_seen *m)
{
	size_t i;

	if (lc->in_d >= 0)
		return getnums(t, row, lc, dcols, NDCOL, l, m, NNUM);
	for (i = 0; i < NDCOL; i++) {
		/* layer_init's: 1, pads 0 (each column's minimum) */
		*LFIELD(l, &dcols[i]) = dcols[i].min;
		if (m != NULL)
			m->text[NNUM + i][0] = SEEN_NONE;
	}
	return 0;
}

/*
 * The optional columns past the geometry's: resident, the depth, kv_seq,
 * transposed (an absent one: what layer_init leaves, as empty).
 */
static int
getflags(const struct table *t, const struct layer_cols *lc, size_t row,
    struct layer *l, struct layer_seen *m)
{
	static const char *const res[2] = { "weights", "kv" };
	static const char *const kv[2] = { "k", "n" };
	static const char *const bit[2] = { "0", "1" };
	const char *s;
	int k;

	if ((k = getword(t, row, lc->resident, m, S_RESIDENT, res,
	    "empty, 'weights' or 'kv'", &s)) < 0)
		return -1;
	if (k) {
		memset(l->resident, 0, sizeof(l->resident));
		strcpy(l->resident, s);
	}
	if (getdepth(t, row, lc, l, m) < 0)
		return -1;
	if ((k = getword(t, row, lc->kv_seq, m, S_KV, kv,
	    "empty, 'k' or 'n'", &s)) < 0)
		return -1;
	if (k)
		l->kv_seq = *s;
	if ((k = getword(t, row, lc->transposed, m, S_TRANS, bit,
	    "empty, 0 or 1", &s)) < 0)
		return -1;
	if (k)
		l->transposed = *s == '1';
	return 0;
}

/* The checks of layer_get past the numbers, each cell only when new. */
static int
getrest(const struct table *t, const struct layer_cols *lc, size_t row,
    struct layer *l, struct layer_seen *m)
{
	long line = csvio_line(t, row);
	const char *ops = csvio_get(t, row, (size_t)lc->op);
	const char *dts = csvio_get(t, row, (size_t)lc->dtype);
	const char *acts = csvio_get(t, row, (size_t)lc->act);
	int newop = !seen(m, S_OP, ops), newdt = !seen(m, S_DTYPE, dts);
	char op[24];

	if (newop && getstr(t, row, lc->op, op, sizeof(op), "") < 0)
		return -1;
	if (!seen(m, S_ACT, acts)) {
		if (getstr(t, row, lc->act, l->act, sizeof(l->act), "none") < 0)
			return -1;
		keep(m, S_ACT, acts);
	}
	if (newdt && getstr(t, row, lc->dtype, l->dtype, sizeof(l->dtype),
	    "fp16") < 0)
		return -1;
	if (getflags(t, lc, row, l, m) < 0)
		return -1;
	if (newop) {
		if (layer_opparse(op, &l->op) < 0) {
			pf_errl(t->fname, line, "column 'op': unknown op '%s'",
			    op);
			return -1;
		}
		keep(m, S_OP, ops);
	}
	if (newdt) {
		if (layer_dtype_bytes(l->dtype) == 0) {
			pf_errl(t->fname, line, "column 'dtype': unknown type "
			    "'%s'", l->dtype);
			return -1;
		}
		keep(m, S_DTYPE, dts);
	}
	if (l->op == OP_CONV &&
	    (l->in_c % l->groups != 0 || l->out_c % l->groups != 0)) {
		pf_errl(t->fname, line,
		    "column 'groups': %lld does not divide in_c %lld and out_c %lld",
		    (long long)l->groups, (long long)l->in_c,
		    (long long)l->out_c);
		return -1;
	}
	return 0;
}

int
layer_get(const struct table *t, const struct layer_cols *lc, size_t row,
    struct layer *l)
{
	return layer_get_seen(t, lc, row, l, NULL);
}

int
layer_get_seen(const struct table *t, const struct layer_cols *lc,
    size_t row, struct layer *l, struct layer_seen *m)
{
	if (m != NULL && m->have)
		memcpy(l, &m->l, sizeof(*l));
	else
		layer_init(l);
	if (getnums(t, row, lc, numcols, NNUM, l, m, 0) < 0 ||
	    getrest(t, lc, row, l, m) < 0) {
		if (m != NULL)
			m->have = 0;
		return -1;
	}
	if (m != NULL) {
		memcpy(&m->l, l, sizeof(*l));
		m->have = 1;
	}
	return 0;
}

_Static_assert(NNUM == LAYER_NNUM, "LAYER_NNUM counts numcols");

/* The cells of layer_put after the numbers. */
static void
put_rest(struct table *t, const struct layer_cols *lc, size_t row,
    const struct layer *l);

void
layer_put(struct table *t, const struct layer_cols *lc, size_t row,
    const struct layer *l)
{
	size_t i;

	for (i = 0; i < NNUM; i++)
		csvio_setint(t, row, (size_t)*CFIELD(lc, &numcols[i]),
		    *LFIELD(l, &numcols[i]));
	put_rest(t, lc, row, l);
}

_Static_assert(NNUM + NDCOL == LAYER_NMEMO,
    "struct layer_memo has a slot per number");

/*
 * Number i of the memo into (row, col), a copy of the last row's: kept
 * when it is the last row's, shared when it is the one before, else
 * written.
 */
static inline void
put_num(struct table *t, size_t row, size_t col, int64_t v,
    struct layer_memo *m, size_t i)
{
	if (csvio_memo_changed(t, row, col, &m->num[i], v, !m->have))
		csvio_setint(t, row, col, v);
}

/* A text cell, scanned once for quoting: later rows share it as it is. */
static void
put_text(struct table *t, size_t row, long col, const char *s)
{
	csvio_setscan(t, row, (size_t)col, s, strlen(s));
}

void
layer_put_memo(struct table *t, const struct layer_cols *lc, size_t row,
    const struct layer *l, struct layer_memo *m)
{
	const struct layer *p = &m->last;
	size_t i;

	for (i = 0; i < NNUM; i++)
		put_num(t, row, (size_t)*CFIELD(lc, &numcols[i]),
		    *LFIELD(l, &numcols[i]), m, i);
	/* the text cells (put_rest's) stay, or are all written anew */
	if (!m->have || p->op != l->op || p->kv_seq != l->kv_seq ||
	    p->transposed != l->transposed ||
	    memcmp(p->act, l->act, sizeof(l->act)) != 0 ||
	    memcmp(p->dtype, l->dtype, sizeof(l->dtype)) != 0 ||
	    memcmp(p->resident, l->resident, sizeof(l->resident)) != 0) {
		put_text(t, row, lc->op, layer_opname(l->op));
		put_text(t, row, lc->act, l->act);
		put_text(t, row, lc->dtype, l->dtype);
		if (lc->resident >= 0)
			put_text(t, row, lc->resident, l->resident);
		if (lc->kv_seq >= 0)
			put_text(t, row, lc->kv_seq, l->kv_seq == 'k' ? "k" :
			    l->kv_seq == 'n' ? "n" : "");
		if (lc->transposed >= 0)
			put_text(t, row, lc->transposed, l->op == OP_CONV ?
			    (l->transposed ? "1" : "0") : "");
		m->last = *l;
	}
	for (i = 0; lc->in_d >= 0 && i < NDCOL; i++)
		put_num(t, row, (size_t)*CFIELD(lc, &dcols[i]),
		    *LFIELD(l, &dcols[i]), m, NNUM + i);
	m->have = 1;
}

static void
put_rest(struct table *t, const struct layer_cols *lc, size_t row,
    const struct layer *l)
{
	size_t i;

	csvio_set(t, row, (size_t)lc->op, layer_opname(l->op));
	csvio_set(t, row, (size_t)lc->act, l->act);
	csvio_set(t, row, (size_t)lc->dtype, l->dtype);
	if (lc->resident >= 0)
		csvio_set(t, row, (size_t)lc->resident, l->resident);
	if (lc->kv_seq >= 0)
		csvio_set(t, row, (size_t)lc->kv_seq, l->kv_seq == 'k' ? "k" :
		    l->kv_seq == 'n' ? "n" : "");
	if (lc->transposed >= 0)
		csvio_set(t, row, (size_t)lc->transposed, l->op == OP_CONV ?
		    (l->transposed ? "1" : "0") : "");
	for (i = 0; lc->in_d >= 0 && i < NDCOL; i++)
		csvio_setint(t, row, (size_t)*CFIELD(lc, &dcols[i]),
		    *LFIELD(l, &dcols[i]));
}

void
layer_cols_add_depth(struct table *t, struct layer_cols *lc)
{
	size_t i;

	for (i = 0; i < NDCOL; i++)
		*CFIELD(lc, &dcols[i]) = (long)csvio_addcol(t, dcols[i].name);
}

int
layer_is_kv(const struct layer *l)
{
	return l->op == OP_MATMUL && strcmp(l->resident, "kv") == 0;
}

/* A convolution's GEMM view and weights, e bytes an element. */
static int
derive_conv(struct layer *l, int64_t e)
{
	int64_t cpg = l->in_c / l->groups, v[6];

	/* A 3-D conv: depth is one more spatial axis (D = 1 in 2-D). */
	if (l->transposed) {
		/*
		 * col2im: every input pixel meets every weight once, a GEMM
		 * of the input pixels by the weight's columns whose
		 * products are scattered into the output.
		 */
		v[0] = l->batch; v[1] = l->in_h; v[2] = l->in_w;
		v[3] = l->in_d;
		if (ck_prod(v, 4, &l->gemm_m) < 0)
			return -1;
		v[0] = l->out_c / l->groups; v[1] = l->kernel_h;
		v[2] = l->kernel_w; v[3] = l->kernel_d;
		if (ck_prod(v, 4, &l->gemm_n) < 0)
			return -1;
		l->gemm_k = cpg;
	} else {
		v[0] = l->batch; v[1] = l->out_h; v[2] = l->out_w;
		v[3] = l->out_d;
		if (ck_prod(v, 4, &l->gemm_m) < 0)
			return -1;
		l->gemm_n = l->out_c / l->groups;
		v[0] = cpg; v[1] = l->kernel_h; v[2] = l->kernel_w;
		v[3] = l->kernel_d;
		if (ck_prod(v, 4, &l->gemm_k) < 0)
			return -1;
	}
	l->gemm_batch = l->groups;
	v[0] = l->out_c; v[1] = cpg; v[2] = l->kernel_h;
	v[3] = l->kernel_w; v[4] = e; v[5] = l->kernel_d;
	return ck_prod(v, 6, &l->weight_bytes);
}

/* A fully connected layer's GEMM view and weights. */
static int
derive_gemm(struct layer *l, int64_t e)
{
	int64_t v[3];

	v[0] = l->batch; v[1] = l->in_h; v[2] = l->in_w;
	if (ck_prod(v, 3, &l->gemm_m) < 0)
		return -1;
	l->gemm_n = l->out_c;
	l->gemm_k = l->in_c;
	l->gemm_batch = 1;
	v[0] = l->in_c; v[1] = l->out_c; v[2] = e;
	return ck_prod(v, 3, &l->weight_bytes);
}

/*
 * A matmul's bytes: both operands are activations, A (m x k) and B (k x
 * n); a KV cache is B, resident like weights, and A is streamed.
 */
static int
derive_matmul(struct layer *l, int64_t e)
{
	int64_t a, b, v[4];

	v[0] = l->gemm_batch; v[1] = l->gemm_m; v[2] = l->gemm_k; v[3] = e;
	if (ck_prod(v, 4, &a) < 0)
		return -1;
	v[1] = l->gemm_k; v[2] = l->gemm_n;
	if (ck_prod(v, 4, &b) < 0)
		return -1;
	if (layer_is_kv(l)) {
		l->in_bytes = a;
		l->weight_bytes = b;
		return 0;
	}
	return ck_add(a, b, &l->in_bytes);
}

int
layer_derive(struct layer *l)
{
	int64_t e = layer_dtype_bytes(l->dtype), v[6];

	if (e == 0)
		e = 2;
	switch (l->op) {
	case OP_CONV:
		if (derive_conv(l, e) < 0)
			return -1;
		break;
	case OP_GEMM:
		if (derive_gemm(l, e) < 0)
			return -1;
		break;
	case OP_MATMUL:
		/* The GEMM view is given by the producer; only counts follow. */
		l->weight_bytes = 0;
		break;
	default:
		return 0;
	}
	v[0] = l->gemm_batch; v[1] = l->gemm_m; v[2] = l->gemm_n;
	v[3] = l->gemm_k;
	if (ck_prod(v, 4, &l->macs) < 0)
		return -1;
	v[0] = l->batch; v[1] = l->in_c; v[2] = l->in_h; v[3] = l->in_w;
	v[4] = e; v[5] = l->in_d;
	if (ck_prod(v, 6, &l->in_bytes) < 0)
		return -1;
	v[0] = l->batch; v[1] = l->out_c; v[2] = l->out_h; v[3] = l->out_w;
	v[5] = l->out_d;
	if (ck_prod(v, 6, &l->out_bytes) < 0)
		return -1;
	return l->op == OP_MATMUL ? derive_matmul(l, e) : 0;
}
