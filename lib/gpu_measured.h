/*
 * Measured per-layer GPU times (gpu-cycles -m): a CSV of layers timed on
 * real hardware, matched to tasks by layer name AND geometry, so a piece
 * of a split layer (same name, other shape) never takes the whole
 * layer's time.  Columns: name, op, the key geometry columns of
 * gpu_measured_keys[], ns; dtype optional (absent or empty matches any).
 */
#ifndef PF_GPU_MEASURED_H
#define PF_GPU_MEASURED_H

#include <stddef.h>
#include <stdint.h>

#include "csvio.h"
#include "layer.h"

#define GPU_NMKEYS 12

/* The integer geometry columns a measurement is matched on. */
extern const char *const gpu_measured_keys[GPU_NMKEYS + 1];

struct gpu_meas {
	char		*name;
	enum layer_op	 op;
	int64_t		 key[GPU_NMKEYS];
	char		 dtype[12];	/* "" matches any dtype */
	double		 ns;
	long		 line;
};

struct gpu_measured {
	struct gpu_meas	*v;	/* sorted for lookup */
	size_t		 n;
};

/*
 * Take the measurements of a table already read.  Reports "file:line:
 * ..." for a missing column, a bad or negative value, an unknown op or a
 * duplicate (same name and geometry) and returns -1.
 */
int gpu_measured_from_table(const struct table *t, struct gpu_measured *ms);
/* table_load + gpu_measured_from_table. */
int gpu_measured_load(const char *path, struct gpu_measured *ms);
void gpu_measured_free(struct gpu_measured *ms);

/* The measurement of layer l named name, or NULL. */
const struct gpu_meas *gpu_measured_find(const struct gpu_measured *ms,
    const char *name, const struct layer *l);

#endif
