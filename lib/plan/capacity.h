/*
 * Memory capacity: whether a plan's weights, KV cache and activations fit
 * the machine's memory, and the largest batch that would.  The machine's
 * memory comes from the configs (memory_bytes of the GPU config,
 * memory_bytes_per_channel and pim_attach of the PIM config, pf-formats(7)),
 * the bytes from layers.csv, the placement from the plan: a layer's
 * weights (and, on an attention matmul over the cache, its KV cache) lie
 * where the plan runs it, split by the plan's ratio.
 *
 * Two machines: partition (PIMFlow's): the PIM channels are some of the
 * card's own, so everything shares the card's one pool, whatever the plan;
 * added: PIM devices beside the GPU, the GPU's pool holding what runs on
 * the GPU and the activations, the PIM devices' pool what runs on PIM.
 */
#ifndef PF_CAPACITY_H
#define PF_CAPACITY_H

#include <stdint.h>

#include "csvio.h"

/* Per-layer bytes of layers.csv. */
struct cap_layers {
	int64_t		 n;
	int64_t		*weight;	/* weight_bytes of a layer with weights */
	int64_t		*kv;		/* the cache an attention matmul reads */
	int64_t		 act;		/* the largest in_bytes + out_bytes */
	int64_t		 batch;		/* batch of layer 0 */
};

struct cap_machine {
	int		 known;		/* the GPU config states memory_bytes */
	int		 added;		/* pim_attach = added */
	int64_t		 gpu_bytes;	/* the card's memory */
	int64_t		 pim_bytes;	/* the added PIM devices' (added only) */
	char		 gpu[64];	/* the configs' names, for messages */
};

/* What one plan needs of each pool. */
struct cap_need {
	int64_t		 weights, kv, act;	/* the model's, wherever placed */
	int64_t		 gpu, pim;		/* needed in each pool */
	int64_t		 gpu_has, pim_has;	/* pim 0 on a partitioned machine */
	int		 fits;
	int64_t		 max_batch;		/* -1: no bound (nothing grows) */
};

void capacity_layers_free(struct cap_layers *l);

/*
 * The bytes of every layer of a layers.csv table (columns weight_bytes,
 * in_bytes, out_bytes; resident and batch when present; a table without
 * the byte columns gives zeros).  Returns 0, or -1 after a report of a
 * bad number.
 */
int capacity_read_layers(const struct table *t, struct cap_layers *l);

/*
 * The machine of GPU config gpu and PIM config pim (names or paths as
 * conf_resolve takes them; pim NULL: newton-gddr6) with pim_channels PIM
 * channels (0: the PIM config's channels).  A GPU config without
 * memory_bytes leaves m->known 0 (no check).  Returns 0, or -1 after a
 * report (unreadable config, a bad or missing value).
 */
int capacity_machine_load(const char *gpu, const char *pim, int64_t pim_channels,
    struct cap_machine *m);

/*
 * Place the layers: pim_pct[i] is the percentage of layer i that the plan
 * runs on PIM (0 to 100; NULL: all on the GPU).  Fills *need; returns 0,
 * or -1 on an overflow (reported against where).
 */
int capacity_place(const struct cap_layers *l, const struct cap_machine *m,
    const unsigned char *pim_pct, const char *where, struct cap_need *need);

/*
 * The percentage of each of the nlayers layers that plan pl (segments
 * indexing the candidates c) runs on PIM, for capacity_place: pct[0..
 * nlayers-1] (caller's array): pim 100, a split or a pipeline 100 - ratio
 * (its PIM share), a DAG window each layer's device, else 0.
 */
struct cand;
struct plan;
void capacity_plan_pct(const struct cand *c, int64_t nlayers,
    const struct plan *pl, unsigned char *pct);

/*
 * One line on stderr for a plan that does not fit: "where: policy 'p'
 * does not fit: needs N bytes of ... memory (...), has M".
 */
void capacity_report(const char *where, const char *policy,
    const struct cap_machine *m, const struct cap_need *need);

#endif
