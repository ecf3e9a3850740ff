/*
 * The policy table pimflow prints, written by pf-solve -t from the same
 * figures as its summary (solve_io.h), so that the driver needs no JSON
 * processor to show it.  pf-formats(7) "Policy table" describes it.
 */
#ifndef PF_SOLVE_TEXT_H
#define PF_SOLVE_TEXT_H

#include <stdio.h>

#include "solve_io.h"

/*
 * The table of the policies of res (enum policy order; attn-pim only
 * where in has a KV cache) to fp: the heading line, one row per policy,
 * the decode lines of a decoder model and the notes.  Every figure is
 * the summary's value as solve_io_summary writes it (its decimals), then
 * rounded half away from zero to the table's.  Returns 0 or -1 on a
 * write error.
 */
int solve_text_table(FILE *fp, const struct solve_in *in, const char *model,
    double gpu_mhz, const struct objective *o, const struct solve_result *res);

#endif
