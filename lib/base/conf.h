/*
 * Device configuration files: "key = value" lines, '#' comments, the unit
 * in the key name (clock_mhz, bw_gbs_per_channel, ...).  Both cost tools
 * load their device models through this module, each model binding its
 * keys with one table of struct conf_key (conf_read); a key the model
 * does not know is an error (a typo must not fall back to a default
 * silently).
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
 * Whether a key documented in unit `unit` holds a count: "count",
 * "cycles", "elements", "registers", "version", "0/1" and "bytes" are
 * counts.
 */
int conf_unit_is_count(const char *unit);
/*
 * The typed binding of a config file to a struct: one table of keys, each
 * with its name, how its value is read and stored, the offset of its field,
 * its range, its unit and its meaning (the man page of the tool documents
 * the table).  A count (CONF_WHOLE, CONF_I64, CONF_INT) must be a whole
 * decimal number, "32.5" is refused, never truncated; CONF_REAL takes any
 * finite decimal.  The unit says the same: a key is a count exactly when
 * conf_unit_is_count(unit) (the unit tests check every table).
 */
enum conf_type {
	CONF_REAL,	/* double */
	CONF_WHOLE,	/* double holding a whole number */
	CONF_I64,	/* int64_t */
	CONF_INT	/* int */
};

struct conf_key {
	const char	*name;
	enum conf_type	 type;
	size_t		 off;		/* offset of the field in the struct */
	double		 lo, hi;	/* the value's range, inclusive */
	const char	*unit;
	const char	*doc;
};

/* A table entry for field f of struct type st, read under key name. */
#define CONF_KEY(name, type, st, f, lo, hi, unit, doc) \
	{ name, type, offsetof(st, f), lo, hi, unit, doc }

/*
 * Read every key of the table (ended by a NULL name) into the struct at
 * obj.  Every key is required: "file: missing key 'k'", or "file:line:
 * key 'k': ..." for a value that is not a number, not whole, or out of
 * range; -1 after the first report.
 */
int conf_bind(struct conf *c, const struct conf_key *keys, void *obj);
/*
 * conf_load and conf_bind in one: 0 with c loaded for the model's own
 * keys and checks, or -1 after reporting (nothing left to free).
 */
int conf_read(const char *path, const struct conf_key *keys, void *obj,
    struct conf *c);
/*
 * The end of a loader: with rc 0 the first key nothing asked for is
 * reported (conf_check_unused); frees c; returns 0, or -1 when rc was
 * not 0 or a key was unknown.
 */
int conf_done(struct conf *c, int rc);
/*
 * A device model's whole load, the one every model's loader is: the
 * config at path read into obj through keys (conf_read), then check
 * (NULL: none) with the loaded c for the model's string keys and its own
 * checks, 0 or -1 after reporting; then the first key nothing asked for
 * is reported (conf_done).  0, or -1 after the first report; nothing is
 * left to free.
 */
int conf_load_model(const char *path, const struct conf_key *keys, void *obj,
    int (*check)(struct conf *c, const char *path, void *obj));
/* The line of key in the file, 0 when absent (for a model's own checks). */
long conf_line(const struct conf *c, const char *key);
/* A required string: NULL after reporting "file: missing key 'k'". */
const char *conf_str_req(struct conf *c, const char *key);
/*
 * The config's name: the last component of path without ".conf", cut to
 * size - 1 bytes.
 */
void conf_name(const char *path, char *buf, size_t size);
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
char *conf_sharedir(void);

#endif
