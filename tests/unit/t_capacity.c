/*
 * Unit tests of memory capacity (capacity.h), worked by hand: three layers
 * (a weight layer of 600 bytes, a KV-cache matmul of 300, another weight
 * layer of 100), activations 50, batch 2.  On a partitioned machine every
 * placement needs the sum, 1050, of the card's one pool; on an added one
 * the PIM share of each layer moves to the PIM devices' pool, activations
 * staying on the GPU; the largest batch is each pool's room after its
 * weights over its growing bytes per request, the smaller of the two.
 * The machine is read from config files: pim_attach absent is a
 * partition, added reads channels x memory_bytes_per_channel (-n
 * overriding the channels), a bad pim_attach is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "check.h"

static int64_t weight[3] = { 600, 0, 100 }, kv[3] = { 0, 300, 0 };
static struct cap_layers L = { 3, weight, kv, 50, 2 };

/*
 * A placement of L and what it must give: the model's bytes (the same
 * wherever placed), each pool's need and room, the fit and the largest
 * batch.  pct NULL: all on the GPU (the baseline without the added PIM).
 */
static const unsigned char pct_all[3] = { 100, 100, 50 };
static const unsigned char pct_cache[3] = { 0, 100, 50 };
static const unsigned char pct_weights[3] = { 100, 0, 50 };
static const struct place_case {
	const char		*what;
	struct cap_machine	 m;
	const unsigned char	*pct;
	int64_t			 gpu, pim, gpu_has, pim_has;
	int			 fits;
	int64_t			 max_batch;
} cases[] = {
	/* one pool needs the sum; (1050 - 700) x 2 / (300 + 50) = 2 */
	{ "partition", { 1, 0, 1050, 0, "g" }, NULL,
	    1050, 0, 1050, 0, 1, 2 },
	/* the plan does not matter: one pool */
	{ "partition, a plan", { 1, 0, 1050, 0, "g" }, pct_all,
	    1050, 0, 1050, 0, 1, 2 },
	/* (1049 - 700) x 2 / 350 = 1 */
	{ "partition, a byte short", { 1, 0, 1049, 0, "g" }, pct_all,
	    1050, 0, 1049, 0, 0, 1 },
	/*
	 * The cache and half of layer 2 on PIM.  GPU: 600 + 50 of layer 2
	 * + activations 50; PIM: 300 + 50.  GPU: (700 - 650) x 2 / 50 = 2;
	 * PIM: (400 - 50) x 2 / 300 = 2.
	 */
	{ "added", { 1, 1, 700, 400, "g" }, pct_cache,
	    700, 350, 700, 400, 1, 2 },
	/* PIM: (349 - 50) x 2 / 300 = 1 */
	{ "added, PIM a byte short", { 1, 1, 700, 349, "g" }, pct_cache,
	    700, 350, 700, 349, 0, 1 },
	/* nothing on PIM grows: the GPU bounds it, (700 - 700) -> 0 */
	{ "added, all on the GPU", { 1, 1, 700, 349, "g" }, NULL,
	    1050, 0, 700, 349, 0, 0 },
	/*
	 * Weights alone overfill the PIM pool, where nothing grows: no
	 * batch fits, however roomy the GPU.  GPU: 50 of layer 2 + 300 +
	 * activations 50; PIM: 600 + 50.
	 */
	{ "added, weights overfill PIM", { 1, 1, 1 << 20, 349, "g" },
	    pct_weights, 400, 650, 1 << 20, 349, 0, 0 },
};

static void
placements(void)
{
	struct cap_need n;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct place_case *c = &cases[i];
		int before = check_failures;

		CHECK(capacity_place(&L, &c->m, c->pct, "t", &n) == 0);
		CHECK_EQ_I(n.weights, 700);
		CHECK_EQ_I(n.kv, 300);
		CHECK_EQ_I(n.act, 50);
		CHECK_EQ_I(n.gpu, c->gpu);
		CHECK_EQ_I(n.pim, c->pim);
		CHECK_EQ_I(n.gpu_has, c->gpu_has);
		CHECK_EQ_I(n.pim_has, c->pim_has);
		CHECK_EQ_I(n.fits, c->fits);
		CHECK_EQ_I(n.max_batch, c->max_batch);
		if (check_failures != before)
			fprintf(stderr, "(placement: %s)\n", c->what);
	}
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	fputs(text, fp);
	fclose(fp);
}

static void
configs(void)
{
	char dir[] = "/tmp/t_capacity.XXXXXX", g[64], g0[64], p[64], q[64];
	struct cap_machine m;

	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	snprintf(g, sizeof(g), "%s/g.conf", dir);
	snprintf(g0, sizeof(g0), "%s/g0.conf", dir);
	snprintf(p, sizeof(p), "%s/p.conf", dir);
	snprintf(q, sizeof(q), "%s/q.conf", dir);
	write_file(g, "memory_bytes = 1000\n");
	write_file(g0, "sms = 1\n");
	write_file(p, "channels = 4\npim_attach = added\n"
	    "memory_bytes_per_channel = 100\n");
	write_file(q, "channels = 4\npim_attach = beside\n");
	CHECK(capacity_machine_load(g0, p, 0, &m) == 0);
	CHECK(!m.known);
	CHECK(capacity_machine_load(g, g0, 0, &m) == 0);
	CHECK(m.known && !m.added && m.gpu_bytes == 1000);
	CHECK(capacity_machine_load(g, p, 0, &m) == 0);
	CHECK(m.known && m.added);
	CHECK_EQ_I(m.pim_bytes, 400);
	CHECK(capacity_machine_load(g, p, 8, &m) == 0);
	CHECK_EQ_I(m.pim_bytes, 800);
	fprintf(stderr, "(a refusal follows)\n");
	CHECK(capacity_machine_load(g, q, 0, &m) < 0);
	remove(g);
	remove(g0);
	remove(p);
	remove(q);
	remove(dir);
}

int
main(void)
{
	placements();
	configs();
	return CHECK_DONE();
}
