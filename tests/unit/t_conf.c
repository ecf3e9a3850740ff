/*
 * Unit tests of the typed config binding (conf.h): conf_bind stores each
 * type, refuses a fractional count, a value out of range, a non-number
 * and a missing key with exactly the diagnostics the tools print; every
 * binding table of the device models is well formed (unique names, a
 * range, a doc, a count exactly when its unit is a count); and every key
 * of every table is documented in its tool's manual page as
 * ".It Cm NAME Pq UNIT" followed by the table's doc, so the page and the
 * table cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "diag.h"
#include "gpu_build.h"
#include "gpu_energy.h"
#include "gpu_model.h"
#include "hbmpim_model.h"
#include "pim_model.h"
#include "check.h"

struct obj {
	double	r, w;
	int64_t	i;
	int	b;
};

static const struct conf_key keys[] = {
	CONF_KEY("r", CONF_REAL, struct obj, r, 0, 10, "ratio", "a decimal"),
	CONF_KEY("w", CONF_WHOLE, struct obj, w, 1, 64, "count", "a count"),
	CONF_KEY("i", CONF_I64, struct obj, i, 0, 1e12, "cycles", "a time"),
	CONF_KEY("b", CONF_INT, struct obj, b, 0, 1, "0/1", "a switch"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static char path[] = "/tmp/t_confXXXXXX";

/*
 * Write text as the config and bind it; err gets what was reported on
 * stderr (the program name and path replaced by "P").
 */
static int
bind_text(const char *text, struct obj *o, char *err, size_t errsz)
{
	struct conf c;
	struct capture cap;
	char raw[1024], pre[128], *p;
	FILE *fp;
	int rc;

	memset(o, 0, sizeof(*o));
	if ((fp = fopen(path, "w")) == NULL)
		return -2;
	fputs(text, fp);
	fclose(fp);
	if (capture_start(&cap) < 0)
		return -2;
	rc = conf_load(path, &c);
	if (rc == 0) {
		rc = conf_bind(&c, keys, o);
		if (rc == 0)
			rc = conf_check_unused(&c);
		conf_free(&c);
	}
	capture_end(&cap, raw, sizeof(raw));
	snprintf(pre, sizeof(pre), "%s: %s", pf_progname(), path);
	p = strstr(raw, pre);
	if (p == raw)
		snprintf(err, errsz, "P%s", raw + strlen(pre));
	else
		snprintf(err, errsz, "%s", raw);
	return rc;
}

#define BINDS(text, want_err) do { \
	struct obj o_; \
	char e_[1024]; \
	CHECK(bind_text(text, &o_, e_, sizeof(e_)) == -1); \
	if (strcmp(e_, want_err) != 0) { \
		fprintf(stderr, "%s:%d: stderr '%s', want '%s'\n", __FILE__, \
		    __LINE__, e_, want_err); \
		check_failures++; \
	} \
} while (0)

/* A table's own rules; what names the table in reports. */
static void
lint(const char *what, const struct conf_key *t)
{
	const struct conf_key *k, *j;

	for (k = t; k->name != NULL; k++) {
		if (k->lo > k->hi || k->unit == NULL || *k->unit == '\0' ||
		    k->doc == NULL || *k->doc == '\0') {
			fprintf(stderr, "%s: key '%s': range, unit or doc "
			    "missing\n", what, k->name);
			check_failures++;
		}
		if ((k->type != CONF_REAL) != conf_unit_is_count(k->unit)) {
			fprintf(stderr, "%s: key '%s': unit '%s' but %s\n",
			    what, k->name, k->unit, k->type == CONF_REAL ?
			    "read as a decimal" : "read as a count");
			check_failures++;
		}
		for (j = t; j < k; j++)
			if (strcmp(j->name, k->name) == 0) {
				fprintf(stderr, "%s: key '%s' twice\n", what,
				    k->name);
				check_failures++;
			}
	}
}

/*
 * Every key of the table is an item ".It Cm NAME Pq UNIT" of the page,
 * the next line its doc with a capital and a full stop.
 */
static void
documented(const char *page, const struct conf_key *t)
{
	const char *top = getenv("TOP");
	char file[4096], line[4096], it[512], doc[4096];
	const struct conf_key *k;
	FILE *fp;
	int found;

	snprintf(file, sizeof(file), "%s/share/man/man1/%s.1",
	    top != NULL ? top : ".", page);
	for (k = t; k->name != NULL; k++) {
		snprintf(it, sizeof(it), ".It Cm %s Pq %s\n", k->name, k->unit);
		snprintf(doc, sizeof(doc), "%c%s.\n", k->doc[0] >= 'a' &&
		    k->doc[0] <= 'z' ? k->doc[0] - 'a' + 'A' : k->doc[0],
		    k->doc + 1);
		if ((fp = fopen(file, "r")) == NULL) {
			fprintf(stderr, "%s: cannot open\n", file);
			check_failures++;
			return;
		}
		found = 0;
		/* A key of two engines (t_rp) has an item in each list. */
		while (!found && fgets(line, sizeof(line), fp) != NULL)
			if (strcmp(line, it) == 0)
				found = fgets(line, sizeof(line), fp) != NULL &&
				    strcmp(line, doc) == 0;
		fclose(fp);
		if (!found) {
			fprintf(stderr, "%s(1): key '%s': want the item\n%s%s",
			    page, k->name, it, doc);
			check_failures++;
		}
	}
}

int
main(int argc, char **argv)
{
	struct obj o;
	char err[1024];
	int fd;

	(void)argc;
	pf_setprogname(argv[0]);
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);

	/* Every type lands in its field. */
	CHECK(bind_text("r = 2.5\nw = 32\ni = 123456789012\nb = 1\n", &o, err,
	    sizeof(err)) == 0);
	CHECK(o.r == 2.5 && o.w == 32 && o.b == 1);
	CHECK_EQ_I(o.i, 123456789012LL);
	CHECK(strcmp(err, "") == 0);
	/* The bounds are inclusive. */
	CHECK(bind_text("r = 0\nw = 64\ni = 0\nb = 0\n", &o, err,
	    sizeof(err)) == 0);
	/* A fractional count is refused, never truncated, on every type. */
	BINDS("r = 1\nw = 32.5\ni = 1\nb = 1\n",
	    "P:2: key 'w': not a whole number: '32.5'\n");
	BINDS("r = 1\nw = 2\ni = 2.9\nb = 1\n",
	    "P:3: key 'i': not a whole number: '2.9'\n");
	BINDS("r = 1\nw = 2\ni = 2\nb = 0.5\n",
	    "P:4: key 'b': not a whole number: '0.5'\n");
	/* The number rule: no hexadecimal, inf or nan. */
	BINDS("r = 0x1p2\nw = 2\ni = 2\nb = 1\n",
	    "P:1: key 'r': not a number: '0x1p2'\n");
	BINDS("r = nan\nw = 2\ni = 2\nb = 1\n",
	    "P:1: key 'r': not a number: 'nan'\n");
	/* Ranges, with the line of the key. */
	BINDS("r = 10.5\nw = 2\ni = 2\nb = 1\n",
	    "P:1: key 'r': 10.5 out of range [0, 10]\n");
	BINDS("r = 1\nw = 0\ni = 2\nb = 1\n",
	    "P:2: key 'w': 0 out of range [1, 64]\n");
	BINDS("r = 1\nw = 2\ni = 2\nb = 2\n",
	    "P:4: key 'b': 2 out of range [0, 1]\n");
	/* Missing and unknown keys. */
	BINDS("r = 1\nw = 2\nb = 1\n", "P: missing key 'i'\n");
	BINDS("r = 1\nw = 2\ni = 2\nb = 1\nx = 3\n", "P:5: unknown key 'x'\n");

	lint("gpu_model_keys", gpu_model_keys);
	lint("gpu_build_keys", gpu_build_keys);
	lint("gpu_energy_keys", gpu_energy_keys);
	lint("pim_model_keys", pim_model_keys);
	lint("hbmpim_model_keys", hbmpim_model_keys);
	documented("gpu-cycles", gpu_model_keys);
	documented("gpu-cycles", gpu_build_keys);
	documented("gpu-cycles", gpu_energy_keys);
	documented("pim-cycles", pim_model_keys);
	documented("pim-cycles", hbmpim_model_keys);

	unlink(path);
	return CHECK_DONE();
}
