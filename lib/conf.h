/*
 * Device configuration files: "key = value" lines, '#' comments, the unit
 * in the key name (clock_mhz, bw_gbs_per_channel, ...).  Both cost tools
 * load their device models through this module; a key the model does not
 * know is an error (a typo must not fall back to a default silently).
 */
#ifndef PF_CONF_H
#define PF_CONF_H

#include <stddef.h>

struct conf_ent {
	char	*key;
	char	*val;
	long	 line;
	int	 used;
};

struct conf {
	char		*path;
	struct conf_ent	*ent;
	size_t		 n;
};

/*
 * Load a config file.  Reports "file:line: ..." for a malformed line or a
 * duplicate key, "file: <errno text>" when unreadable; returns -1.
 */
int conf_load(const char *path, struct conf *c);
void conf_free(struct conf *c);

/*
 * Required number in [lo, hi], a finite decimal (no hexadecimal, inf or
 * nan: the number rule of pf-formats(7)): reports "file: missing key 'k'"
 * or "file:line: key 'k': ..." and returns -1.
 */
int conf_num(struct conf *c, const char *key, double lo, double hi, double *v);
/*
 * The same for a count (channels, SMs, cycles, elements): the value must
 * be a whole decimal number, "32.5" or "2.9" is an error, never truncated.
 */
int conf_count(struct conf *c, const char *key, double lo, double hi,
    double *v);
/*
 * Whether a key documented in unit `unit` holds a count: "count",
 * "cycles", "elements", "registers", "version" and "0/1" are counts.
 */
int conf_unit_is_count(const char *unit);
/* Optional number: *v = def when the key is absent. */
int conf_num_opt(struct conf *c, const char *key, double lo, double hi,
    double def, double *v);
/* String value or NULL when absent (marks the key used). */
const char *conf_str(struct conf *c, const char *key);
/* Report the first key nothing asked for; -1 if there is one. */
int conf_check_unused(const struct conf *c);

/*
 * Resolve a config name to a path: a name containing '/' is a path;
 * otherwise <share>/<kind>/<name>.conf where <share> is $PIMFLOW_SHARE,
 * then ../share/pimflow beside the running executable, then the installed
 * SHAREDIR.  Returns an allocated path, or NULL after reporting.
 */
char *conf_resolve(const char *kind, const char *name);

/* The share directory as resolved above (allocated), or NULL. */
char *pf_sharedir(void);

#endif
