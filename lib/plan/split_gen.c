/*
 * Candidate generation: layers.csv rows -> tasks.csv pieces (split_gen.h).
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "layer.h"
#include "split_pipe.h"
#include "split_gen.h"
#include "task.h"
#include "textpool.h"
#include "xalloc.h"

/*
 * The cells whose values change from one piece to the next are written,
 * the rest kept: each row starts as a copy of the one before it in the
 * block (csvio_setsamerow), sharing its texts.  What the last row holds,
 * by the key of each cell.
 */
#define KEY_EMPTY	INT64_MIN	/* a cell left empty */
struct cellkey {
	int64_t		 v;		/* the last row's */
	int64_t		 v1;		/* the value before, in row r1 */
	size_t		 r1;
	int		 have1;
};
struct rowmemo {
	int		 have;		/* the block has a row */
	struct cellkey	 head[TT_NHEAD], tail[TT_NPIM];
	int64_t		 src;		/* the layer of name, onnx_op, preds */
	struct task_cand cand;		/* of the cand cell */
	struct layer_memo geom;		/* the piece's geometry */
};


/*
 * The parsed input: geometry, producers, input line and the text cells
 * the pieces carry (name, onnx_op, preds, the extra columns: ntxt of
 * them) of every layer read so far.  Layers come a table at a time (a
 * block of rows, or the whole table): in is the current one, its row 0
 * layer base.
 */
struct gen {
	const struct table	*in;
	size_t			 base;
	const char		*fname;
	const struct split_opts	*o;
	struct table		*out;
	struct layer_cols	 lc, olc;
	struct layer_seen	 seen;
	long			 head[TT_NHEAD], tail[TT_NPIM];
	long			 attach;	/* pim_attach, -1: none */
	long			 name_in, onnx_in, preds_in;
	long			 name_out, onnx_out, preds_out;
	size_t			*extra_in, *extra_out, nextra, ntxt;
	struct layer		*l;
	int64_t			**preds;
	int			*npreds;
	long			*line;
	const char		**txt;		/* [layer * ntxt + k] */
	struct textpool		 chunks;	/* the text cells' copies */
	size_t			 n, cap;	/* layers read, room */
	size_t			 next;		/* the first layer not generated */
	/* a layer whose pieces do not fit (toobig), reported at the end */
	int			 big;
	size_t			 big_layer;
	const char		*big_what;
	struct rowmemo		 rm;
};

static int
parse_preds(struct gen *g, size_t i)
{
	size_t row = i - g->base;
	const char *s = csvio_get(g->in, row, (size_t)g->preds_in);
	char *buf = xstrdup(s), *p, *save = NULL;
	int64_t v;
	int rc = 0, n = 0;

	g->preds[i] = xcalloc(strlen(s) / 2 + 1, sizeof(int64_t));
	for (p = strtok_r(buf, " ", &save); p != NULL;
	    p = strtok_r(NULL, " ", &save)) {
		if (csvio_parse_int64(p, &v) < 0 || v < 0 || v >= (int64_t)i) {
			pf_errl(g->in->fname, csvio_line(g->in, row),
			    "column 'preds': bad producer '%s'", p);
			rc = -1;
			break;
		}
		g->preds[i][n++] = v;
	}
	g->npreds[i] = n;
	free(buf);
	return rc;
}

/*
 * Whether cell (r, col), a copy of the last row's, must be written for
 * key v: not when v is the last row's key, nor when it is the one before
 * (a piece alternating between two values, as a split's GPU and PIM
 * pieces do): then the cell shares the text of the row that had it.
 */
static inline int
changed(struct table *t, const struct rowmemo *m, struct cellkey *k,
    size_t r, long col, int64_t v)
{
	int64_t last = k->v;

	k->v = v;
	if (!m->have)
		return 1;
	if (last == v)
		return 0;
	if (k->have1 && k->v1 == v) {
		csvio_setsame(t, r, (size_t)col, k->r1);
		v = 0;
	} else
		v = 1;
	k->v1 = last;
	k->r1 = r - 1;
	k->have1 = 1;
	return (int)v;
}

/* For the cells of struct rowmemo's cellkeys: changed() of column col. */
#define CHANGED(k, col, v)	changed(t, m, (k), r, (col), (v))

/* A text cell, scanned once for quoting: later rows share it as it is. */
static inline void
put_text(struct table *out, size_t r, long col, const char *s)
{
	csvio_setscan(out, r, (size_t)col, s, strlen(s));
}

/* A number cell, or an empty one for KEY_EMPTY. */
static inline void
put_opt(struct table *out, size_t r, long col, int64_t v)
{
	if (v == KEY_EMPTY)
		(void)csvio_setplain(out, r, (size_t)col, 0);
	else
		csvio_setint(out, r, (size_t)col, v);
}

/*
 * Append one piece row of candidate c; axis is the letter of the column
 * (0: none), ratio the GPU's share.
 */
static void
emit(struct gen *g, const struct task_cand *c, char axis, int ratio,
    const struct piece *pc, int64_t gw, int64_t hide)
{
	struct table *t = g->out;
	struct rowmemo *m = &g->rm;
	struct cellkey *h = m->head, *tl = m->tail;
	size_t r = csvio_addrow(t), src = (size_t)pc->l.id, k;
	char ax[2] = { axis, '\0' }, id[64];
	enum task_dev dev = pc->dev == DEV_GPU ? TASK_GPU : TASK_PIM;

	if (m->have)
		csvio_setsamerow(t, r, r - 1);
	/* a candidate's pieces are rows in a row: its id is made once */
	if (!m->have || memcmp(&m->cand, c, sizeof(*c)) != 0) {
		task_cand_id(c, id, sizeof(id));
		put_text(t, r, g->head[TT_CAND], id);
		m->cand = *c;
	}
	if (CHANGED(&h[TT_FIRST], g->head[TT_FIRST], c->first))
		csvio_setint(t, r, (size_t)g->head[TT_FIRST], c->first);
	if (CHANGED(&h[TT_LAST], g->head[TT_LAST], c->last))
		csvio_setint(t, r, (size_t)g->head[TT_LAST], c->last);
	if (CHANGED(&h[TT_KIND], g->head[TT_KIND], c->kind))
		put_text(t, r, g->head[TT_KIND], task_kind_name(c->kind));
	if (CHANGED(&h[TT_AXIS], g->head[TT_AXIS], axis))
		put_text(t, r, g->head[TT_AXIS], ax);
	if (CHANGED(&h[TT_RATIO], g->head[TT_RATIO], ratio))
		csvio_setint(t, r, (size_t)g->head[TT_RATIO], ratio);
	if (CHANGED(&h[TT_STEP], g->head[TT_STEP], pc->step))
		csvio_setint(t, r, (size_t)g->head[TT_STEP], pc->step);
	if (CHANGED(&h[TT_DEVICE], g->head[TT_DEVICE], dev))
		put_text(t, r, g->head[TT_DEVICE], task_dev_name(dev));
	/* the layer's own text */
	if (!m->have || m->src != (int64_t)src) {
		const char *const *x = &g->txt[src * g->ntxt];

		m->src = (int64_t)src;
		put_text(t, r, g->name_out, x[0]);
		put_text(t, r, g->onnx_out, x[1]);
		put_text(t, r, g->preds_out, x[2]);
		for (k = 0; k < g->nextra; k++)
			put_text(t, r, (long)g->extra_out[k], x[3 + k]);
	}
	layer_put_memo(t, &g->olc, r, &pc->l, &m->geom);
	/* the PIM share travels on every piece; each cost tool derives its side */
	if (CHANGED(&tl[TT_PIM_CHANNELS], g->tail[TT_PIM_CHANNELS],
	    g->o->pim_channels)) {
		if (g->o->pim_channels > 0)
			csvio_setint(t, r, (size_t)g->tail[TT_PIM_CHANNELS],
			    g->o->pim_channels);
		else
			put_text(t, r, g->tail[TT_PIM_CHANNELS], TASK_PIM_AUTO);
	}
	/* the machine's attachment, when stated: the same on every piece */
	if (!m->have && g->attach >= 0)
		put_text(t, r, g->attach, task_attach_name(
		    (enum task_attach)g->o->attach));
	/* a GPU piece's PIM settings are empty */
	if (pc->dev != DEV_PIM)
		gw = hide = KEY_EMPTY;
	if (CHANGED(&tl[TT_PIM_GWRITE], g->tail[TT_PIM_GWRITE], gw))
		put_opt(t, r, g->tail[TT_PIM_GWRITE], gw);
	if (CHANGED(&tl[TT_PIM_HIDING], g->tail[TT_PIM_HIDING], hide))
		put_opt(t, r, g->tail[TT_PIM_HIDING], hide);
	m->have = 1;
}

static void
whole(struct gen *g, size_t i)
{
	const struct layer *l = &g->l[i];
	struct task_cand c;
	struct piece pc;

	memset(&pc, 0, sizeof(pc));
	memset(&c, 0, sizeof(c));
	pc.l = *l;
	pc.dev = DEV_GPU;
	c.first = c.last = l->id;
	c.kind = TK_BASE;
	emit(g, &c, 0, 100, &pc, 0, 0);
	c.kind = TK_GPU;
	emit(g, &c, 0, 100, &pc, 0, 0);
	if (!split_pim_eligible(l, &g->o->rules))
		return;
	pc.dev = DEV_PIM;
	c.kind = TK_PIM;
	emit(g, &c, 0, 0, &pc, g->o->gwrite, 1);
	/* the newton+ policy: one GWRITE group, no latency hiding (§8) */
	strcpy(c.tag, "g1");
	emit(g, &c, 0, 0, &pc, 1, 0);
}

/*
 * Layer i's candidates of one kind do not fit 64 bits: reported once
 * every layer is read and none is bad (toobig_report), as when the layers
 * were all checked first.
 */
static int
toobig(struct gen *g, size_t i, const char *what)
{
	g->big = 1;
	g->big_layer = i;
	g->big_what = what;
	return -1;
}

static void
toobig_report(const struct gen *g)
{
	pf_errl(g->fname, g->line[g->big_layer], "layer %zu: its %s pieces "
	    "do not fit pf-split's arithmetic (rows past 2^31 or counts past "
	    "2^63)", g->big_layer, g->big_what);
}

static int
splits(struct gen *g, size_t i)
{
	const struct layer *l = &g->l[i];
	const struct split_axis_def *ax;
	struct task_cand c;
	struct piece pc[2];
	int64_t units, prev;
	int a, r, e;

	memset(&c, 0, sizeof(c));
	c.kind = TK_SPLIT;
	c.first = c.last = l->id;
	for (a = 0; a < TA_NAXIS; a++) {
		ax = &split_axes[a];
		if (!(g->o->axes & 1 << a) || !ax->eligible(l, &g->o->rules))
			continue;
		c.axis = (enum task_axis)a;
		prev = -1;
		for (r = g->o->r_from; r <= g->o->r_to; r += g->o->r_step) {
			/* a ratio giving the pieces of the previous one adds nothing */
			if ((e = ax->divide(l, r, pc, &units)) == SPLIT_TOOBIG)
				return toobig(g, i, "split");
			if (e < 0 || units == prev)
				continue;
			prev = units;
			c.ratio = r;
			emit(g, &c, ax->letter, r, &pc[0], 0, 0);
			emit(g, &c, ax->letter, r, &pc[1], g->o->gwrite, 1);
		}
	}
	return 0;
}

/* Emit the pipeline candidates of chain i..i+L-1 with layer i on dev0. */
static int
chain(struct gen *g, size_t i, int L, enum split_dev dev0, const char *tag)
{
	struct piece pc[PIPE_MAXLEN * PIPE_MAXSTAGE];
	const struct layer *c = &g->l[i];
	/* a chain is pipelined along a conv's rows or a gemm's tokens */
	enum task_axis axis = c->op == OP_CONV ? TA_H : TA_M;
	struct task_cand id;
	int k, s, n;

	if (!(g->o->axes & 1 << axis))
		return 0;
	memset(&id, 0, sizeof(id));
	id.kind = TK_PIPE;
	id.first = c[0].id;
	id.last = c[L - 1].id;
	snprintf(id.tag, sizeof(id.tag), "%s", tag);
	for (k = 0; k < L; k++)
		if (((k % 2 == 0) == (dev0 == DEV_PIM)) &&
		    !split_pim_eligible(&c[k], &g->o->rules))
			return 0;
	for (s = 2; s <= PIPE_MAXSTAGE; s++) {
		if (!(g->o->stages & 1 << s))
			continue;
		if ((n = split_pipe_chain(c, L, s, dev0, pc)) == SPLIT_TOOBIG)
			return toobig(g, i, "pipeline");
		if (n < 0)
			continue;
		id.stages = s;
		for (k = 0; k < n; k++)
			emit(g, &id, task_axis_letter(axis), 100 / s, &pc[k],
			    g->o->gwrite, 1);
	}
	return 0;
}

static int
pipes(struct gen *g, size_t i)
{
	char tag[16];
	int L, t, ok;

	for (L = 2; L <= PIPE_MAXLEN && i + (size_t)L <= g->n; L++) {
		size_t k;

		ok = 1;
		for (k = i + 1; ok && k < i + (size_t)L; k++)
			ok = split_pipe_link_ok(&g->l[k - 1], &g->l[k], g->preds[k],
			    g->npreds[k], &g->o->rules);
		if (!ok)
			break;
		t = split_pipe_type(&g->l[i], L);
		if (t == PIPE_FC && (g->o->types & 1 << t)) {
			/* the MLP pair, both device orders */
			if (chain(g, i, L, DEV_GPU, "fcg") < 0 ||
			    chain(g, i, L, DEV_PIM, "fcp") < 0)
				return -1;
		} else if (t != 0 && (g->o->types & 1 << t)) {
			snprintf(tag, sizeof(tag), "t%d", t);
			if (chain(g, i, L, t == 2 ? DEV_GPU : DEV_PIM, tag) < 0)
				return -1;
		}
		if (g->o->chains & 1 << L) {
			/* generic chains, both device orders (a typed one is not repeated) */
			snprintf(tag, sizeof(tag), "c%dg", L);
			if (!((t == 2 || t == PIPE_FC) && (g->o->types & 1 << t)) &&
			    chain(g, i, L, DEV_GPU, tag) < 0)
				return -1;
			snprintf(tag, sizeof(tag), "c%dp", L);
			if (!((t == 1 || t == 3 || t == PIPE_FC) &&
			    (g->o->types & 1 << t)) &&
			    chain(g, i, L, DEV_PIM, tag) < 0)
				return -1;
		}
	}
	return 0;
}

/* The columns, from the header (g->in's): 0, or -1 after a report. */
static int
setup_cols(struct gen *g)
{
	static const char *const strcols[] = { "name", "onnx_op", "preds", NULL };
	long sidx[3];
	size_t i, k;

	if (layer_cols_find(g->in, &g->lc) < 0 ||
	    csvio_need(g->in, strcols, sidx) < 0)
		return -1;
	g->fname = g->in->fname;
	g->name_in = sidx[0];
	g->onnx_in = sidx[1];
	g->preds_in = sidx[2];
	for (i = 0; task_head_cols[i] != NULL; i++)
		g->head[i] = (long)csvio_addcol(g->out, task_head_cols[i]);
	layer_cols_add(g->out, &g->olc);
	/*
	 * The optional geometry columns are the pieces' own (a depth piece
	 * has its own in_d and pads), written from the piece, not copied.
	 */
	if (g->lc.in_d >= 0)
		layer_cols_add_depth(g->out, &g->olc);
	if (g->lc.transposed >= 0)
		g->olc.transposed = (long)csvio_addcol(g->out, "transposed");
	g->name_out = csvio_col(g->out, "name");
	g->onnx_out = csvio_col(g->out, "onnx_op");
	g->preds_out = csvio_col(g->out, "preds");
	for (i = 0; task_pim_cols[i] != NULL; i++)
		g->tail[i] = (long)csvio_addcol(g->out, task_pim_cols[i]);
	g->attach = g->o->attach >= 0 ? (long)csvio_addcol(g->out,
	    TASK_COL_PIM_ATTACH) : -1;
	/* unknown layer columns travel after ours, in input order */
	g->extra_in = xcalloc(g->in->ncols, sizeof(size_t));
	g->extra_out = xcalloc(g->in->ncols, sizeof(size_t));
	for (k = 0; k < g->in->ncols; k++) {
		if (csvio_col(g->out, g->in->cols[k]) >= 0)
			continue;
		g->extra_in[g->nextra] = k;
		g->extra_out[g->nextra++] = csvio_addcol(g->out,
		    g->in->cols[k]);
	}
	g->ntxt = 3 + g->nextra;
	return 0;
}

/*
 * The rows of g->in, layers g->n on, read and checked: 0, or -1 after
 * reporting the first bad one.
 */
static int
add_rows(struct gen *g)
{
	size_t r, k, i;
	const char **t;

	g->base = g->n;
	if (g->n + g->in->nrows + 1 > g->cap) {
		size_t cap = g->cap ? g->cap : 1024;

		while (cap < g->n + g->in->nrows + 1)
			cap *= 2;
		g->l = xreallocarray(g->l, cap, sizeof(*g->l));
		g->preds = xreallocarray(g->preds, cap, sizeof(*g->preds));
		g->npreds = xreallocarray(g->npreds, cap, sizeof(*g->npreds));
		g->line = xreallocarray(g->line, cap, sizeof(*g->line));
		g->txt = xreallocarray(g->txt, cap * g->ntxt, sizeof(*g->txt));
		g->cap = cap;
	}
	for (r = 0; r < g->in->nrows; r++) {
		i = g->n;
		if (layer_get_seen(g->in, &g->lc, r, &g->l[i], &g->seen) < 0)
			return -1;
		if (g->l[i].id != (int64_t)i) {
			pf_errl(g->in->fname, csvio_line(g->in, r),
			    "column 'layer': expected %zu, not '%s'", i,
			    csvio_get(g->in, r, (size_t)g->lc.id));
			return -1;
		}
		g->preds[i] = NULL;
		g->n++;
		if (parse_preds(g, i) < 0)
			return -1;
		g->line[i] = csvio_line(g->in, r);
		t = &g->txt[i * g->ntxt];
		t[0] = textpool_dup(&g->chunks, csvio_get(g->in, r,
		    (size_t)g->name_in));
		t[1] = textpool_dup(&g->chunks, csvio_get(g->in, r,
		    (size_t)g->onnx_in));
		t[2] = textpool_dup(&g->chunks, csvio_get(g->in, r,
		    (size_t)g->preds_in));
		for (k = 0; k < g->nextra; k++)
			t[3 + k] = textpool_dup(&g->chunks, csvio_get(g->in, r,
			    g->extra_in[k]));
	}
	return 0;
}

/* Rows of output assembled before they go to w (a few MB of cells). */
#define SPLIT_BLOCK	4096

/* Write and drop the rows assembled so far: 0, or -1 after reporting. */
static int
flush(struct gen *g, struct table_out *w)
{
	if (csvio_out_rows(w, g->out) < 0) {
		pf_write_error(NULL);
		return -1;
	}
	csvio_droprows(g->out);
	/* the rows the memo points to are gone */
	memset(&g->rm, 0, sizeof(g->rm));
	return 0;
}

/*
 * The candidates of layers g->next .. upto-1 into out; with w, written
 * to it a block of rows at a time (out then holds at most one block),
 * the last one once the last layer (of last) is done.  0, or -1: a
 * layer too big (g->big, not reported yet) or a write error (reported).
 */
static int
generate(struct gen *g, size_t upto, size_t last, struct table_out *w)
{
	for (; g->next < upto; g->next++) {
		size_t i = g->next;

		whole(g, i);
		if (splits(g, i) < 0 || pipes(g, i) < 0)
			return -1;
		if (w != NULL && (g->out->nrows >= SPLIT_BLOCK ||
		    i + 1 == last) && flush(g, w) < 0)
			return -1;
	}
	return 0;
}

static void
gen_free(struct gen *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->preds[i]);
	free(g->preds);
	free(g->npreds);
	free(g->l);
	free(g->line);
	free(g->txt);
	textpool_free(&g->chunks);
	free(g->extra_in);
	free(g->extra_out);
}

/*
 * A whole layers table: every layer read and checked before the first
 * row is made; with w, the rows written to it.
 */
static int
whole_table(const struct table *layers, const struct split_opts *o,
    struct table *out, struct table_out *w)
{
	struct gen g;
	int rc = 0;

	memset(&g, 0, sizeof(g));
	g.in = layers;
	g.o = o;
	g.out = out;
	if (setup_cols(&g) < 0 || add_rows(&g) < 0)
		rc = -1;
	else if (w != NULL && csvio_out_header(w, out) < 0) {
		pf_write_error(NULL);
		rc = -1;
	} else if (generate(&g, g.n, g.n, w) < 0) {
		if (g.big)
			toobig_report(&g);
		rc = -1;
	}
	gen_free(&g);
	return rc;
}

int
split_gen_tasks(const struct table *layers, const struct split_opts *o,
    struct table *out)
{
	csvio_init(out, "<stdout>");
	return whole_table(layers, o, out, NULL);
}

int
split_gen_write(const struct table *layers, const struct split_opts *o,
    struct table_out *w)
{
	struct table out;
	int rc;

	csvio_init(&out, "<stdout>");
	rc = whole_table(layers, o, &out, w);
	csvio_free(&out);
	return rc;
}

int
split_gen_stream(struct table_reader *r, const struct split_opts *o,
    struct table_out *w)
{
	struct table out;
	struct gen g;
	int rc = -1, n, gen_ok = 1;

	memset(&g, 0, sizeof(g));
	csvio_init(&out, "<stdout>");
	g.in = csvio_reader_table(r);
	g.o = o;
	g.out = &out;
	if (setup_cols(&g) < 0)
		goto done;
	if (csvio_out_header(w, &out) < 0) {
		pf_write_error(NULL);
		goto done;
	}
	while ((n = csvio_reader_next(r)) > 0) {
		g.in = csvio_reader_table(r);
		if (add_rows(&g) < 0)
			goto done;
		/* the layers a chain from layer i may take are in */
		if (gen_ok && g.n >= PIPE_MAXLEN && generate(&g,
		    g.n - PIPE_MAXLEN + 1, (size_t)-1, w) < 0) {
			if (!g.big)
				goto done;
			gen_ok = 0;	/* the layers still read and checked */
		}
	}
	if (n < 0)
		goto done;
	if (gen_ok && generate(&g, g.n, g.n, w) < 0 && !g.big)
		goto done;
	if (g.big) {
		toobig_report(&g);
		goto done;
	}
	rc = 0;
done:
	gen_free(&g);
	csvio_free(&out);
	return rc;
}
