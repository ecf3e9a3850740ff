/*
 * "key = value" device configuration files and their search path.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "xalloc.h"

#ifndef SHAREDIR
#define SHAREDIR "/usr/local/share/pimflow"
#endif

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
	    e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int
conf_load(const char *path, struct conf *c)
{
	FILE *fp;
	char buf[1024], *line, *eq, *key, *val, *hash;
	struct stat st;
	long lineno = 0;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
	if ((fp = fopen(path, "r")) == NULL) {
		pf_err(path, "%s", strerror(errno));
		conf_free(c);
		return -1;
	}
	/* a folder opens for reading on Linux and fails at the first read */
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		pf_err(path, "is a folder, not a config file");
		goto bad;
	}
	while (fgets(buf, sizeof(buf), fp) != NULL) {
		lineno++;
		if (strchr(buf, '\n') == NULL && !feof(fp)) {
			pf_errl(path, lineno, "line too long");
			goto bad;
		}
		if ((hash = strchr(buf, '#')) != NULL)
			*hash = '\0';
		line = trim(buf);
		if (*line == '\0')
			continue;
		if ((eq = strchr(line, '=')) == NULL) {
			pf_errl(path, lineno, "expected 'key = value': '%s'", line);
			goto bad;
		}
		*eq = '\0';
		key = trim(line);
		val = trim(eq + 1);
		if (*key == '\0' || *val == '\0') {
			pf_errl(path, lineno, "empty key or value");
			goto bad;
		}
		for (i = 0; i < c->n; i++)
			if (strcmp(c->ent[i].key, key) == 0) {
				pf_errl(path, lineno, "duplicate key '%s'", key);
				goto bad;
			}
		c->ent = xreallocarray(c->ent, c->n + 1, sizeof(*c->ent));
		c->ent[c->n].key = xstrdup(key);
		c->ent[c->n].val = xstrdup(val);
		c->ent[c->n].line = lineno;
		c->ent[c->n].used = 0;
		c->n++;
	}
	if (ferror(fp)) {
		pf_err(path, "read error: %s", strerror(errno));
		goto bad;
	}
	fclose(fp);
	return 0;
bad:
	fclose(fp);
	conf_free(c);
	return -1;
}

void
conf_free(struct conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->ent[i].key);
		free(c->ent[i].val);
	}
	free(c->ent);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

static struct conf_ent *
lookup(struct conf *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->ent[i].key, key) == 0) {
			c->ent[i].used = 1;
			return &c->ent[i];
		}
	return NULL;
}

/* A value by the number rule of pf-formats(7); isint: a count. */
static int
getnum(struct conf *c, struct conf_ent *e, int isint, double lo, double hi,
    double *v)
{
	int64_t iv;

	if (isint && csvio_parse_int64(e->val, &iv) < 0) {
		pf_errl(c->path, e->line, "key '%s': not a whole number: '%s'",
		    e->key, e->val);
		return -1;
	}
	if (csvio_parse_double(e->val, v) < 0) {
		pf_errl(c->path, e->line, "key '%s': not a number: '%s'",
		    e->key, e->val);
		return -1;
	}
	if (*v < lo || *v > hi) {
		pf_errl(c->path, e->line, "key '%s': %s out of range [%g, %g]",
		    e->key, e->val, lo, hi);
		return -1;
	}
	return 0;
}

int
conf_bind(struct conf *c, const struct conf_key *keys, void *obj)
{
	const struct conf_key *k;
	struct conf_ent *e;
	char *f;
	double v;

	for (k = keys; k->name != NULL; k++) {
		if ((e = lookup(c, k->name)) == NULL) {
			pf_err(c->path, "missing key '%s'", k->name);
			return -1;
		}
		if (getnum(c, e, k->type != CONF_REAL, k->lo, k->hi, &v) < 0)
			return -1;
		f = (char *)obj + k->off;
		switch (k->type) {
		case CONF_REAL:
		case CONF_WHOLE:
			memcpy(f, &v, sizeof(v));
			break;
		case CONF_I64: {
			int64_t i = (int64_t)v;

			memcpy(f, &i, sizeof(i));
			break;
		}
		case CONF_INT: {
			int i = (int)v;

			memcpy(f, &i, sizeof(i));
			break;
		}
		}
	}
	return 0;
}

int
conf_read(const char *path, const struct conf_key *keys, void *obj,
    struct conf *c)
{
	if (conf_load(path, c) < 0)
		return -1;
	if (conf_bind(c, keys, obj) < 0) {
		conf_free(c);
		return -1;
	}
	return 0;
}

int
conf_done(struct conf *c, int rc)
{
	if (rc == 0 && conf_check_unused(c) < 0)
		rc = -1;
	conf_free(c);
	return rc == 0 ? 0 : -1;
}

int
conf_load_model(const char *path, const struct conf_key *keys, void *obj,
    int (*check)(struct conf *c, const char *path, void *obj))
{
	struct conf c;

	if (conf_read(path, keys, obj, &c) < 0)
		return -1;
	return conf_done(&c, check != NULL ? check(&c, path, obj) : 0);
}

long
conf_line(const struct conf *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->ent[i].key, key) == 0)
			return c->ent[i].line;
	return 0;
}

int
conf_unit_is_count(const char *unit)
{
	static const char *const counts[] = { "count", "cycles", "elements",
	    "registers", "version", "0/1", "bytes", NULL };
	int i;

	for (i = 0; counts[i] != NULL; i++)
		if (strcmp(unit, counts[i]) == 0)
			return 1;
	return 0;
}

const char *
conf_str(struct conf *c, const char *key)
{
	struct conf_ent *e = lookup(c, key);

	return e != NULL ? e->val : NULL;
}

const char *
conf_str_req(struct conf *c, const char *key)
{
	const char *s = conf_str(c, key);

	if (s == NULL)
		pf_err(c->path, "missing key '%s'", key);
	return s;
}

int
conf_check_unused(const struct conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!c->ent[i].used) {
			pf_errl(c->path, c->ent[i].line, "unknown key '%s'",
			    c->ent[i].key);
			return -1;
		}
	return 0;
}

static int
isdir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *
conf_sharedir(void)
{
	char exe[PATH_MAX], *slash, *p;
	const char *env;
	ssize_t n;
	size_t len;

	if ((env = getenv("PIMFLOW_SHARE")) != NULL && *env != '\0')
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			len = strlen(exe) + sizeof("/../share/pimflow");
			p = xmalloc(len);
			snprintf(p, len, "%s/../share/pimflow", exe);
			if (isdir(p))
				return p;
			free(p);
		}
	}
	if (isdir(SHAREDIR))
		return xstrdup(SHAREDIR);
	return NULL;
}

char *
conf_resolve(const char *kind, const char *name)
{
	char *share, *p;
	size_t len;

	if (strchr(name, '/') != NULL)
		return xstrdup(name);
	if ((share = conf_sharedir()) == NULL) {
		pf_err(NULL, "cannot find the pimflow share directory for "
		    "config '%s' (set PIMFLOW_SHARE or give a path)", name);
		return NULL;
	}
	len = strlen(share) + strlen(kind) + strlen(name) + 8;
	p = xmalloc(len);
	snprintf(p, len, "%s/%s/%s.conf", share, kind, name);
	free(share);
	if (access(p, R_OK) != 0) {
		pf_err(NULL, "no %s config named '%s' (%s: %s)", kind, name, p,
		    strerror(errno));
		free(p);
		return NULL;
	}
	return p;
}
