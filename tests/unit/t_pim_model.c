/*
 * Unit tests of the PIM model configs: newton-gddr6.conf holds exactly the
 * published values of pim_model_newton(), aim-gddr6.conf loads, and a
 * config with a missing or unknown key is refused with the one line that
 * names the file (and line) and the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "pim_model.h"
#include "check.h"

/* a shipped PIM config */
#define share(rel)	check_top("share/pimflow/pim/" rel)

int
main(int argc, char **argv)
{
	const struct conf_key *k;
	struct pim_model a, b;
	char tmp[] = "/tmp/t_pim_modelXXXXXX", line[512], err[1024];
	char want[1024];
	struct capture cap;
	FILE *in, *out;
	int fd, nl = 0;

	(void)argc;
	pf_setprogname(argv[0]);
	pim_model_newton(&b);
	CHECK(pim_model_load(share("newton-gddr6.conf"), &a) == 0);
	CHECK(strcmp(a.name, "newton-gddr6") == 0);
	/* every key of the binding table, value for value */
	for (k = pim_model_keys; k->name != NULL; k++) {
		size_t sz = k->type == CONF_I64 ? sizeof(int64_t) :
		    k->type == CONF_INT ? sizeof(int) : sizeof(double);

		if (memcmp((char *)&a + k->off, (char *)&b + k->off, sz) != 0) {
			fprintf(stderr, "newton-gddr6.conf: key '%s' is not "
			    "pim_model_newton()'s\n", k->name);
			check_failures++;
		}
	}
	CHECK(a.clock_mhz == b.clock_mhz);
	CHECK_EQ_I(a.t_gwrite_hide, b.t_gwrite_hide);
	CHECK_EQ_I(pim_model_c(&a, 0), 64);
	CHECK_EQ_I(pim_model_c(&a, 1), 1);
	CHECK_EQ_I(a.t_gwrite_comp, 51);
	CHECK_EQ_I(a.t_faw, b.t_faw);
	CHECK_EQ_I(a.t_rcd, b.t_rcd);
	CHECK_EQ_I(a.t_comp_readres, b.t_comp_readres);
	CHECK_EQ_I(a.t_readres_gwrite, b.t_readres_gwrite);
	CHECK_EQ_I(a.t_rp, b.t_rp);
	CHECK_EQ_I(a.t_rfc, b.t_rfc);
	CHECK_EQ_I(a.t_refi, b.t_refi);
	CHECK_EQ_I(a.t_readres_latency, b.t_readres_latency);
	CHECK_EQ_I(a.gbuf_elems, b.gbuf_elems);
	CHECK_EQ_I(a.comp_elems, b.comp_elems);
	CHECK_EQ_I(a.banks, b.banks);
	CHECK_EQ_I(a.channels, 16);
	CHECK_EQ_I(a.max_gwrite, 4);
	CHECK_EQ_I(a.hiding, 1);
	CHECK(a.e_dram_read_nj == b.e_dram_read_nj);
	CHECK(a.e_mul_nj == b.e_mul_nj && a.e_add_nj == b.e_add_nj);
	CHECK(a.e_io_pj_per_bit == b.e_io_pj_per_bit);
	CHECK(a.static_mw_per_channel == b.static_mw_per_channel);
	/* Controller.h: per COMP 16 x (16 mul + sram rd + 16 add) + 16/32 dram rd. */
	CHECK(pim_model_comp_nj(&a) > 3.7811 && pim_model_comp_nj(&a) < 3.7812);

	CHECK(pim_model_load(share("aim-gddr6.conf"), &a) == 0);
	CHECK(a.clock_mhz == 1000);
	CHECK_EQ_I(a.t_ccd_s, 1);

	/* Drop the last key: refused; add an unknown one: refused. */
	if ((fd = mkstemp(tmp)) < 0)
		return 1;
	out = fdopen(fd, "w");
	in = fopen(share("newton-gddr6.conf"), "r");
	CHECK(in != NULL && out != NULL);
	while (in != NULL && fgets(line, sizeof(line), in) != NULL)
		if (strncmp(line, "mac_lanes", 9) != 0) {
			fputs(line, out);
			nl++;
		}
	if (in != NULL)
		fclose(in);
	fflush(out);
	CHECK(capture_start(&cap) == 0);
	CHECK(pim_model_load(tmp, &a) == -1);
	capture_end(&cap, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: %s: missing key 'mac_lanes'\n",
	    pf_progname(), tmp);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "missing key: stderr '%s', want '%s'\n", err,
		    want);
	CHECK(strcmp(err, want) == 0);
	fputs("mac_lanes = 16\nbogus_key = 1\n", out);
	fflush(out);
	CHECK(capture_start(&cap) == 0);
	CHECK(pim_model_load(tmp, &a) == -1);
	capture_end(&cap, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: %s:%d: unknown key 'bogus_key'\n",
	    pf_progname(), tmp, nl + 2);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "unknown key: stderr '%s', want '%s'\n", err,
		    want);
	CHECK(strcmp(err, want) == 0);
	fclose(out);
	unlink(tmp);
	return CHECK_DONE();
}
