/*
 * Timing engine of one PIM channel: the command stream of PIMFlow's
 * Ramulator-Newton model issued in order, at most one command per clock,
 * under the rank-level constraints of share/doc/newton-timing.md §4, with a refresh
 * injected every tREFI and served (PREA, REF after tRP) on the clock after
 * a READRES; the result is the last READRES + CL + nBL.
 *
 * Streams are given compactly, never as text: a block is one GWRITE
 * followed by G_ACT sets, a set is G_ACT0..3 followed by READRES groups,
 * a group is some COMPs and one READRES.  Runs of identical blocks are
 * timed by closed form between refreshes (the block's duration measured
 * once), so the cost of a channel is about the number of refreshes times a
 * few blocks, not the number of commands.
 */
#ifndef PF_NEWTON_TIME_H
#define PF_NEWTON_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "pim_model.h"

/* One block: GWRITE, then nsets sets; set s holds groups grp[off[s]..off[s+1]). */
struct nt_block {
	size_t		 nsets;
	const size_t	*off;		/* nsets + 1 offsets into grp */
	const int64_t	*grp;		/* COMPs per READRES group (>= 0) */
};

/* count copies of one block, back to back. */
struct nt_seg {
	const struct nt_block	*b;
	int64_t			 count;
};

/* Command counts and the result of one channel. */
struct nt_stats {
	int64_t	cycles;		/* reported Cycle (PIM clocks) */
	int64_t	gwrite, gact, comp, readres, ref;
};

/* Single commands, for hand-built streams. */
enum nt_cmd { NT_GWRITE, NT_GACT0, NT_GACT1, NT_GACT2, NT_GACT3, NT_COMP,
	NT_READRES };

/*
 * Refresh periods (t_refi) below this have their repeating periods added
 * in closed form; with a longer one a stream is simulated refresh by
 * refresh (newton_time.c).
 */
#define NT_MAXPHASE	65536

/*
 * Time a channel stream: the nseg segments in order, the whole list
 * repeated `repeat` times (>= 0).  hiding selects c (pim_model_c).  exact
 * != 0 disables the closed-form skipping (every command is issued; for
 * testing the fast path).  Fills *st.
 */
void newton_time_run(const struct pim_model *m, int hiding, const struct nt_seg *seg,
    size_t nseg, int64_t repeat, int exact, struct nt_stats *st);

/*
 * Time an explicit command list; issue[i] receives the issue clock of
 * cmd[i] when issue is not NULL.  Same rules as newton_time_run.
 */
void newton_time_run_cmds(const struct pim_model *m, int hiding, const enum nt_cmd *cmd,
    size_t n, int64_t *issue, struct nt_stats *st);

/* Commands a block issues (GWRITE, 4 per set, COMPs, READRESs). */
int64_t newton_time_block_cmds(const struct nt_block *b);

#endif
