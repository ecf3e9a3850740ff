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
	size_t		*hits;	/* rows each measurement was used for */
	unsigned char	*told;	/* a fallback of that name was reported */
};

/*
 * Take the measurements of a table already read.  Reports "file:line:
 * ..." for a missing column, a bad or negative value, an unknown op or a
 * duplicate (same name and geometry) and returns -1.
 */
int gpu_measured_from_table(const struct table *t, struct gpu_measured *ms);
/* csvio_load + gpu_measured_from_table. */
int gpu_measured_load(const char *path, struct gpu_measured *ms);
void gpu_measured_free(struct gpu_measured *ms);

/* The measurement of layer l named name, or NULL. */
const struct gpu_meas *gpu_measured_find(const struct gpu_measured *ms,
    const char *name, const struct layer *l);
/* Count a use of measurement x (from gpu_measured_find on ms). */
void gpu_measured_hit(struct gpu_measured *ms, const struct gpu_meas *x);
/*
 * A row named name found no measurement: 1 the first time for a name
 * that has measurements of other geometries (its pieces fall back to the
 * model, which the caller says once), else 0.
 */
int gpu_measured_fallback(struct gpu_measured *ms, const char *name);
/* The i-th measurement no row used, or NULL past the last. */
const struct gpu_meas *gpu_measured_unused(const struct gpu_measured *ms,
    size_t i);

#endif
