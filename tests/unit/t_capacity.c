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

static void
partition(void)
{
	struct cap_machine m = { 1, 0, 1050, 0, "g" };
	unsigned char pct[3] = { 100, 100, 50 };
	struct cap_need n;

	CHECK(capacity_place(&L, &m, NULL, "t", &n) == 0);
	CHECK_EQ_I(n.weights, 700);
	CHECK_EQ_I(n.kv, 300);
	CHECK_EQ_I(n.act, 50);
	CHECK_EQ_I(n.gpu, 1050);
	CHECK_EQ_I(n.pim, 0);
	CHECK(n.fits);
	/* (1050 - 700) x 2 / (300 + 50) = 2 */
	CHECK_EQ_I(n.max_batch, 2);
	/* the plan does not matter: one pool */
	CHECK(capacity_place(&L, &m, pct, "t", &n) == 0);
	CHECK_EQ_I(n.gpu, 1050);
	CHECK_EQ_I(n.pim, 0);
	m.gpu_bytes = 1049;
	CHECK(capacity_place(&L, &m, pct, "t", &n) == 0);
	CHECK(!n.fits);
	CHECK_EQ_I(n.max_batch, 1);
}

static void
added(void)
{
	/* the cache and half of layer 2 on PIM */
	struct cap_machine m = { 1, 1, 700, 400, "g" };
	unsigned char pct[3] = { 0, 100, 50 };
	struct cap_need n;

	CHECK(capacity_place(&L, &m, pct, "t", &n) == 0);
	/* GPU: 600 + 50 of layer 2 + activations 50; PIM: 300 + 50 */
	CHECK_EQ_I(n.gpu, 700);
	CHECK_EQ_I(n.pim, 350);
	CHECK_EQ_I(n.gpu_has, 700);
	CHECK_EQ_I(n.pim_has, 400);
	CHECK(n.fits);
	/* GPU: (700 - 650) x 2 / 50 = 2; PIM: (400 - 50) x 2 / 300 = 2 */
	CHECK_EQ_I(n.max_batch, 2);
	m.pim_bytes = 349;
	CHECK(capacity_place(&L, &m, pct, "t", &n) == 0);
	CHECK(!n.fits);
	/* PIM: (349 - 50) x 2 / 300 = 1 */
	CHECK_EQ_I(n.max_batch, 1);
	/* all on the GPU (the baseline without the added PIM) */
	CHECK(capacity_place(&L, &m, NULL, "t", &n) == 0);
	CHECK_EQ_I(n.gpu, 1050);
	CHECK_EQ_I(n.pim, 0);
	CHECK(!n.fits);
	/* nothing on PIM grows: the GPU bounds it, (700 - 700) -> 0 */
	CHECK_EQ_I(n.max_batch, 0);
	/*
	 * Weights alone overfill the PIM pool, where nothing grows: no
	 * batch fits, however roomy the GPU.
	 */
	pct[1] = 0;
	pct[0] = 100;
	m.gpu_bytes = 1 << 20;
	CHECK(capacity_place(&L, &m, pct, "t", &n) == 0);
	CHECK(!n.fits);
	CHECK_EQ_I(n.max_batch, 0);
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
	partition();
	added();
	configs();
	return CHECK_DONE();
}
