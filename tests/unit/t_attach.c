/*
 * Unit tests of the machine's attachment (task.h, pim_attach.h): the
 * names read back, the GPU's channels of every kind of piece on a
 * partitioned and on an added machine (all of them on the added one,
 * auto included; total - N otherwise), cells refused with their line, and
 * the optional config keys pim_attach and attach_link_gbs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "pim_attach.h"
#include "task.h"
#include "check.h"

/* A table of kind, pim_channels, pim_attach rows. */
static void
mktable(struct table *t, const char *const rows[][3], size_t n)
{
	size_t r, k;

	csvio_init(t, "t.csv");
	for (k = 0; k < 3; k++)
		csvio_addcol(t, k == 0 ? "kind" : k == 1 ? "pim_channels" :
		    "pim_attach");
	for (r = 0; r < n; r++) {
		csvio_addrow(t);
		for (k = 0; k < 3; k++)
			csvio_set(t, r, k, rows[r][k]);
	}
}

static void
names(void)
{
	enum task_attach a;

	CHECK(task_attach_parse("partition", &a) == 0 && a == TASK_PARTITION);
	CHECK(task_attach_parse("added", &a) == 0 && a == TASK_ADDED);
	CHECK(strcmp(task_attach_name(TASK_ADDED), "added") == 0);
	CHECK(strcmp(task_attach_name(TASK_PARTITION), "partition") == 0);
	CHECK(task_attach_parse("Added", &a) < 0);
	CHECK(task_attach_parse("", &a) < 0);
}

static void
channels(void)
{
	static const char *const rows[][3] = {
		{ "base", "16", "partition" },	/* all 80 */
		{ "gpu", "16", "partition" },	/* 64 */
		{ "split", "16", "" },		/* empty: partition, 64 */
		{ "base", "16", "added" },	/* 80 */
		{ "gpu", "16", "added" },	/* 80 */
		{ "pipe", "200", "added" },	/* 80: N not bounded */
		{ "gpu", "auto", "added" },	/* 80 */
		{ "gpu", "80", "partition" },	/* refused: no channel left */
		{ "gpu", "auto", "partition" },	/* refused: not resolved */
		{ "gpu", "16", "beside" },	/* refused */
		{ "gpu", "0", "added" },	/* refused */
	};
	static const int64_t want[] = { 80, 64, 64, 80, 80, 80, 80, -1, -1,
	    -1, -1 };
	struct table t;
	int64_t ch;
	size_t r;

	mktable(&t, rows, sizeof(rows) / sizeof(rows[0]));
	for (r = 0; r < t.nrows; r++) {
		int rc = task_gpu_channels(&t, r, 0, 1, 2, 80, "a100", &ch);

		if (want[r] < 0)
			CHECK_EQ_I(rc, -1);
		else {
			CHECK_EQ_I(rc, 0);
			CHECK_EQ_I(ch, want[r]);
		}
	}
	/* no column: partition, as before the column existed */
	CHECK(task_gpu_channels(&t, 4, 0, 1, -1, 80, "a100", &ch) == 0 &&
	    ch == 64);
	/* auto is resolved on partitioned rows only */
	task_pim_resolve(&t, 1, 2, 80);
	CHECK(strcmp(csvio_get(&t, 6, 1), "auto") == 0);
	CHECK(strcmp(csvio_get(&t, 8, 1), "16") == 0);
	csvio_free(&t);
}

/* A config file of the given text, loaded, and its two keys read. */
static void
keys(const char *text, int want_attach, int rc_attach, double want_gbs,
    int rc_link)
{
	char path[] = "/tmp/t_attach.XXXXXX";
	struct conf c;
	double gbs = -1;
	int fd = mkstemp(path), a = -1;
	FILE *fp;

	if (fd < 0 || (fp = fdopen(fd, "w")) == NULL) {
		check_failures++;
		return;
	}
	fputs(text, fp);
	fclose(fp);
	CHECK(conf_load(path, &c) == 0);
	CHECK_EQ_I(pim_attach_conf(&c, path, &a), rc_attach);
	if (rc_attach == 0)
		CHECK_EQ_I(a, want_attach);
	CHECK_EQ_I(pim_attach_link(&c, path, &gbs), rc_link);
	if (rc_link == 0)
		CHECK(gbs == want_gbs);
	conf_free(&c);
	a = -1;
	CHECK_EQ_I(pim_attach_load(path, &a), rc_attach);
	unlink(path);
}

int
main(void)
{
	pf_setprogname("t_attach");
	names();
	channels();
	keys("pim_attach = added\nattach_link_gbs = 600\n", TASK_ADDED, 0,
	    600, 0);
	keys("pim_attach = partition\n", TASK_PARTITION, 0, 0, 0);
	keys("arch = hbm-pim\n", 0, -1, 0, 0);
	keys("pim_attach = beside\nattach_link_gbs = -1\n", 0, -2, 0, -1);
	keys("attach_link_gbs = fast\n", 0, -1, 0, -1);
	return CHECK_DONE();
}
