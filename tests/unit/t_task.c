/*
 * Unit tests of the tasks/costs vocabulary (task.h): the axis table (h, n,
 * m in that order, each letter read back by task_axis_parse), candidate
 * ids made and read back exactly, malformed ids refused, every id pf-split
 * writes for the chains and mbv2block fixtures read back into the
 * candidate its own columns state, pf-split's output written in blocks
 * the same as made whole, the costs.csv column tables, and the
 * by-hand number and id formatting held to printf's, byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "diag.h"
#include "split_gen.h"
#include "task.h"
#include "check.h"

static void
roundtrip(const char *id)
{
	struct task_cand c;
	char buf[64];

	if (task_cand_parse(id, &c) < 0) {
		fprintf(stderr, "id '%s' not read\n", id);
		check_failures++;
		return;
	}
	task_cand_id(&c, buf, sizeof(buf));
	if (strcmp(buf, id) != 0) {
		fprintf(stderr, "id '%s' made back as '%s'\n", id, buf);
		check_failures++;
	}
}

static void
refused(const char *id)
{
	struct task_cand c;

	if (task_cand_parse(id, &c) == 0) {
		fprintf(stderr, "id '%s' read, want refused\n", id);
		check_failures++;
	}
}

/* pf-split on a fixture: every row's id names what its columns say. */
static void
generated(const char *fixture, const char *axes, const char *types)
{
	const char *top = getenv("TOP");
	char path[4096], ax[2];
	struct split_opts o;
	struct table in, out;
	struct task_cand c;
	enum task_kind k;
	long col[6];
	static const char *const cols[] = { "cand", "first", "last", "kind",
	    "axis", "ratio", NULL };
	size_t r;
	int64_t v;

	snprintf(path, sizeof(path), "%s/tests/pf-split/%s/in",
	    top != NULL ? top : ".", fixture);
	split_opts_init(&o);
	CHECK(split_opt_axes(&o, axes) == 0);
	CHECK(split_opt_types(&o, types) == 0);
	CHECK(split_opt_stages(&o, "2,3") == 0);
	CHECK(csvio_load(path, &in) == 0);
	CHECK(split_gen_tasks(&in, &o, &out) == 0);
	CHECK(csvio_need(&out, cols, col) == 0);
	CHECK(out.nrows > 10);
	for (r = 0; r < out.nrows; r++) {
		const char *id = csvio_get(&out, r, (size_t)col[0]);

		roundtrip(id);
		if (task_cand_parse(id, &c) < 0)
			continue;
		CHECK(csvio_int(&out, r, (size_t)col[1], &v) == 0 &&
		    v == c.first);
		CHECK(csvio_int(&out, r, (size_t)col[2], &v) == 0 &&
		    v == c.last);
		CHECK(task_kind_parse(csvio_get(&out, r, (size_t)col[3]),
		    &k) == 0 && k == c.kind);
		if (c.kind == TK_SPLIT) {
			ax[0] = task_axis_letter(c.axis);
			ax[1] = '\0';
			CHECK(strcmp(csvio_get(&out, r, (size_t)col[4]), ax) ==
			    0);
			CHECK(csvio_int(&out, r, (size_t)col[5], &v) == 0 &&
			    v == c.ratio);
		}
	}
	csvio_free(&in);
	csvio_free(&out);
}

/*
 * pf-split's output written a block of rows at a time (split_gen_write: the
 * rows' shared cells restart with each block) is the table split_gen_tasks
 * makes whole, byte for byte, over several blocks of a chain whose
 * layers change shape every few layers.
 */
static void
blocks(void)
{
	static const char *const geo[] = {
	    "16,14,14,16,14,14,3,3,1,1,1,1,1,1,1,1,1,196,16,144,1,relu,"
	    "451584,6272,4608,6272",
	    "16,14,14,32,7,7,3,3,2,2,1,1,1,1,1,1,1,49,32,144,1,none,"
	    "225792,6272,9216,3136",
	    "32,7,7,32,7,7,1,1,1,1,0,0,0,0,1,1,1,49,32,32,1,relu,"
	    "50176,3136,2048,3136" };
	struct split_opts o;
	struct table in, whole;
	struct table_out *w;
	char *csv = NULL, *a = NULL, *b = NULL;
	size_t n, na, nb;
	FILE *fp;
	int i;

	fp = open_memstream(&csv, &n);
	fprintf(fp, "layer,name,op,onnx_op,preds,batch,in_c,in_h,in_w,out_c,"
	    "out_h,out_w,kernel_h,kernel_w,stride_h,stride_w,pad_top,"
	    "pad_left,pad_bottom,pad_right,dil_h,dil_w,groups,gemm_m,gemm_n,"
	    "gemm_k,gemm_batch,act,macs,in_bytes,weight_bytes,out_bytes,"
	    "dtype\n");
	for (i = 0; i < 400; i++) {
		fprintf(fp, "%d,l%d,conv,Conv,", i, i / 3);
		if (i > 0)
			fprintf(fp, "%d", i - 1);
		fprintf(fp, ",1,%s,fp16\n", geo[i / 5 % 3]);
	}
	fclose(fp);
	fp = fmemopen(csv, n, "r");
	CHECK(csvio_read(fp, "blocks.csv", &in) == 0);
	fclose(fp);
	split_opts_init(&o);
	o.pim_channels = 16;
	fp = open_memstream(&a, &na);
	w = csvio_out_open(fp, 0);
	CHECK(split_gen_write(&in, &o, w) == 0);
	CHECK(csvio_out_close(w, 1) == 0);
	fclose(fp);
	CHECK(split_gen_tasks(&in, &o, &whole) == 0);
	CHECK(whole.nrows > 3 * 4096);
	fp = open_memstream(&b, &nb);
	CHECK(csvio_write(fp, &whole) == 0);
	fclose(fp);
	CHECK(na == nb && memcmp(a, b, na) == 0);
	csvio_free(&in);
	csvio_free(&whole);
	free(csv);
	free(a);
	free(b);
}

int
main(int argc, char **argv)
{
	struct task_cand c;
	enum task_axis a;
	int i;

	(void)argc;
	pf_setprogname(argv[0]);

	/* The axes, in column order, each letter read back. */
	CHECK(task_axis_letter(TA_H) == 'h' && task_axis_letter(TA_N) == 'n' &&
	    task_axis_letter(TA_M) == 'm' && task_axis_letter(TA_D) == 'd');
	for (i = 0; i < TA_NAXIS; i++) {
		char s[2] = { task_axis_letter(i), '\0' };

		CHECK(task_axis_parse(s, &a) == 0 && a == (enum task_axis)i);
		/* The plan wing's table of each axis agrees with its letter. */
		CHECK(split_axes[i].letter == task_axis_letter(i));
		CHECK(split_axes[i].eligible != NULL &&
		    split_axes[i].divide != NULL);
	}
	CHECK(task_axis_parse("", &a) < 0 && task_axis_parse("hn", &a) < 0 &&
	    task_axis_parse("x", &a) < 0);

	/* Ids: every form made back exactly. */
	roundtrip("0:base");
	roundtrip("12:gpu");
	roundtrip("7:pim");
	roundtrip("7:pim:g1");
	roundtrip("3:split:h:40");
	roundtrip("3:split:n:5");
	roundtrip("3:split:m:99");
	roundtrip("2-4:pipe:t1:s2");
	roundtrip("10-12:pipe:c3g:s3");
	CHECK(task_cand_parse("3:split:m:40", &c) == 0 && c.kind == TK_SPLIT &&
	    c.first == 3 && c.last == 3 && c.axis == TA_M && c.ratio == 40);
	CHECK(task_cand_parse("2-4:pipe:t2:s3", &c) == 0 &&
	    c.kind == TK_PIPE && c.first == 2 && c.last == 4 &&
	    c.stages == 3 && strcmp(c.tag, "t2") == 0);
	CHECK(task_cand_parse("5:pim:g1", &c) == 0 && c.kind == TK_PIM &&
	    strcmp(c.tag, "g1") == 0);
	/* ... and what is not an id refused. */
	refused("");
	refused("x:base");
	refused("3");
	refused("3:");
	refused("-3:base");
	refused("3:bogus");
	refused("3:base:x");
	refused("3:gpu:");
	refused("3:pim:");
	refused("3:pim:G1");
	refused("3:split:q:40");
	refused("3:split:h:0");
	refused("3:split:h:100");
	refused("3:split:h:40x");
	refused("3:split:h");
	refused("3:pipe:t1:s2");
	refused("4-4:pipe:t1:s2");
	refused("4-3:pipe:t1:s2");
	refused("3-4:split:h:40");
	refused("3-4:pipe:t1:s1");
	refused("3-4:pipe:t1:2");
	refused("3-4:pipe::s2");
	refused("99999999999999999999:base");

	/* What the generator writes is what the ids say. */
	generated("chains", "h", "1,2,3,c2,c3");
	generated("mbv2block", "h,n,m", "1,2,3,c2");
	blocks();

	/* costs.csv: the columns pf-solve needs, then the optional ones. */
	CHECK_EQ_I(TC_NNEED, 11);
	CHECK(task_cost_cols[TC_NNEED] == NULL);
	CHECK(task_cost_opt[TC_NCOL - TC_NNEED] == NULL);
	CHECK(strcmp(task_cost_cols[TC_CAND], "cand") == 0);
	CHECK(strcmp(task_cost_cols[TC_NS], "ns") == 0);
	CHECK(strcmp(task_cost_opt[TC_GPU_CLOCK - TC_NNEED],
	    "gpu_clock_mhz") == 0);
	CHECK(strcmp(task_cost_opt[TC_PIM_STATIC - TC_NNEED],
	    "pim_static_w") == 0);
	CHECK(strcmp(task_cost_opt[TC_GPU_TENSOR - TC_NNEED],
	    "gpu_tensor") == 0);
	/* task_ps_to_ns by hand is "%lld.%03lld" byte for byte */
	{
		static const long long fixed[] = { 0, 1, 9, 10, 999, 1000, 1001,
		    123456789, 9223372036854775807LL, -1, -1000, -123456 };
		char a[64], b[64];
		int k;

		for (k = 0; k < 200000; k++) {
			long long v = k < (int)(sizeof(fixed) / sizeof(fixed[0])) ?
			    fixed[k] : (long long)(rnd(0, INT64_MAX / 2) >> rnd(0, 62));

			task_ps_to_ns(v, a, sizeof(a));
			snprintf(b, sizeof(b), "%lld.%03lld", v / 1000, v % 1000);
			if (strcmp(a, b) != 0) {
				CHECK(strcmp(a, b) == 0);
				fprintf(stderr, "%lld: '%s', printf '%s'\n", v, a, b);
				break;
			}
		}
	}
	/* task_cand_id by hand is the printf forms byte for byte, cut to n */
	{
		static const char *const tags[] = { "", "g1", "t1", "c3g",
		    "fcp", "abcdefghijklmno" };
		struct task_cand c;
		char a[64], b[128];
		int k, kind;
		size_t n;

		for (k = 0; k < 100000; k++) {
			memset(&c, 0, sizeof(c));
			kind = (int)rnd(0, TK_NKIND - 1);
			c.kind = (enum task_kind)kind;
			c.first = rnd(0, 3) == 0 ? rnd(-INT64_MAX / 4, INT64_MAX / 4) :
			    rnd(0, 999999);
			c.last = c.first + rnd(0, 7);
			c.axis = (enum task_axis)rnd(0, TA_NAXIS - 1);
			c.ratio = (int)rnd(-5, 120);
			c.stages = (int)rnd(-2, 12);
			strcpy(c.tag, tags[rnd(0, 5)]);
			n = (size_t)rnd(1, 64);
			if (c.kind == TK_SPLIT)
				snprintf(b, sizeof(b), "%lld:split:%c:%d",
				    (long long)c.first,
				    task_axis_letter(c.axis), c.ratio);
			else if (c.kind == TK_PIPE)
				snprintf(b, sizeof(b), "%lld-%lld:pipe:%s:s%d",
				    (long long)c.first, (long long)c.last,
				    c.tag, c.stages);
			else
				snprintf(b, sizeof(b), "%lld:%s%s%s",
				    (long long)c.first, task_kind_name(c.kind),
				    c.tag[0] != '\0' ? ":" : "", c.tag);
			b[n - 1] = '\0';	/* what snprintf(b, n, ...) keeps */
			memset(a, 'x', sizeof(a));
			task_cand_id(&c, a, n);
			if (strcmp(a, b) != 0) {
				CHECK(strcmp(a, b) == 0);
				fprintf(stderr, "id '%s', printf '%s'\n", a, b);
				break;
			}
		}
	}
	return CHECK_DONE();
}
