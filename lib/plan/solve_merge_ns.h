/*
 * The times of pf-merge's and pf-solve's tables as integer picoseconds: a
 * piece's ns read exactly, a sum written back as ns (solve_merge_ns.c).
 * Below pf-merge (solve_merge.h) and the band (solve_band.h), which both
 * read these cells.
 */
#ifndef PF_SOLVE_MERGE_NS_H
#define PF_SOLVE_MERGE_NS_H

#include <stddef.h>

#include "csvio.h"

/*
 * Bounds of the picosecond arithmetic: a piece's (and pf-merge -y's) ns at
 * most MERGE_PIECE_MAX_NS (9000 s); every sum is checked against the
 * 64-bit range, about 9.2e15 ns, and one that passes it is an error.
 */
#define MERGE_PIECE_MAX_NS 9e12
#define MERGE_MAX_NS "9.2e15"

/*
 * Parse a decimal ns value as integer picoseconds; 0, or -1 when it is not
 * a number from 0 to MERGE_PIECE_MAX_NS.
 */
int merge_ns_to_ps(const char *s, long long *ps);
/*
 * The time in the optional cell of row r, column col (an ns decimal; col
 * < 0 or an empty cell: 0), as ps into *ps: 0, or -1 after reporting
 * "file:line: column 'NAME': bad time '...'".
 */
int merge_cell_ps(const struct table *t, size_t r, long col,
    long long *ps);
/* Write ps as a decimal ns value with three fractional digits. */
void merge_ps_to_ns(long long ps, char *buf, size_t n);

#endif
