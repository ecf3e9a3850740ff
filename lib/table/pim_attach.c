/*
 * The pim_attach key of a PIM config (pim_attach.h).
 */
#include <stddef.h>

#include "csvio.h"

#include "conf.h"
#include "diag.h"
#include "pim_attach.h"
#include "task.h"

int
pim_attach_conf(struct conf *c, const char *path, int *a)
{
	enum task_attach t;
	const char *s;

	if ((s = conf_str(c, "pim_attach")) == NULL)
		return -1;
	if (task_attach_parse(s, &t) < 0) {
		pf_errl(path, conf_line(c, "pim_attach"), "key 'pim_attach': "
		    "want partition or added, not '%s'", s);
		return -2;
	}
	*a = (int)t;
	return 0;
}

int
pim_attach_load(const char *path, int *a)
{
	struct conf c;
	int rc;

	if (conf_load(path, &c) < 0)
		return -2;
	rc = pim_attach_conf(&c, path, a);
	conf_free(&c);
	return rc;
}

int
pim_attach_link(struct conf *c, const char *path, double *gbs)
{
	const char *s;

	*gbs = 0;
	if ((s = conf_str(c, "attach_link_gbs")) == NULL)
		return 0;
	if (csvio_parse_double(s, gbs) < 0 || !(*gbs > 0) || *gbs > 1e6) {
		pf_errl(path, conf_line(c, "attach_link_gbs"), "key "
		    "'attach_link_gbs': want GB/s above 0, at most 1e6, not "
		    "'%s'", s);
		return -1;
	}
	return 0;
}
