/*
 * The key pim_attach of a PIM config: whether the device sits in the
 * GPU's own channels (partition, PIMFlow's machine) or is added beside
 * the GPU with channels of its own (added; task.h, pf-formats(7)
 * "Machine model").  The key is optional; the PIM engines' loaders
 * check it and pf-split -M reads it as its default for -A.
 */
#ifndef PF_PIM_ATTACH_H
#define PF_PIM_ATTACH_H

#include "conf.h"

/*
 * The attachment the loaded config c (of file path) states: 0 with *a
 * an enum task_attach, or -1 when the key is absent; -2 after reporting
 * "file:line: key 'pim_attach': want partition or added, not '...'".
 */
int pim_attach_conf(struct conf *c, const char *path, int *a);

/*
 * The optional key attach_link_gbs of c: the bandwidth in GB/s (= B/ns)
 * of an added device's link to the GPU, which every hand-off's data also
 * crosses (pim-cycles(1), Hand-off).  0 with *gbs the value (0 when
 * absent), or -1 after reporting "file:line: key 'attach_link_gbs': ...".
 */
int pim_attach_link(struct conf *c, const char *path, double *gbs);

/*
 * The same of the config file at path (resolved by the caller), read
 * for this key alone (the engine's loader checks the rest when
 * pim-cycles opens it): 0 or -1 as above, -2 after a report.
 */
int pim_attach_load(const char *path, int *a);

#endif
