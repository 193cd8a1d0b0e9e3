/* runtime-spec 1.3's Linux fields as the parser takes them: memoryPolicy
 * (modes, node lists, flags), netDevices (names, the JSON paths of their
 * errors) and intelRdt's schemata and enableMonitoring; the policy file's
 * netDevices list. */
#include "lib/error.h"
#include "oci/config.h"
#include "policy/policy_file.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                                       \
	"{\"ociVersion\":\"1.3.0\",\"root\":{\"path\":\"rootfs\"},"                                \
	"\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"},\"linux\":{"

static struct oci_config *parse_linux(const char *members)
{
	char *j;
	struct oci_config *c;

	if (asprintf(&j, HEAD "%s}}", members) < 0)
		abort();
	werr_clear(err);
	c = oci_config_parse(j, strlen(j), "config.json", err);
	free(j);
	return c;
}

static bool node_set(const struct oci_memory_policy *m, unsigned n)
{
	const size_t bits = 8 * sizeof(unsigned long);

	return (m->nodemask[n / bits] >> (n % bits)) & 1;
}

static void test_memory_policy(void)
{
	struct oci_config *c =
	    parse_linux("\"memoryPolicy\":{\"mode\":\"MPOL_INTERLEAVE\",\"nodes\":\"0-3,7,70-71\","
	                "\"flags\":[\"MPOL_F_STATIC_NODES\",\"MPOL_F_NUMA_BALANCING\"]}");
	const struct oci_memory_policy *m = c ? c->linux->memory_policy : NULL;

	if (!ok(m != NULL, "memoryPolicy parses"))
		diag("%s", werr_msg(err));
	else {
		ok(m->mode_num == 3 && m->flag_bits == ((1u << 15) | (1u << 13)),
		   "MPOL_INTERLEAVE (3) with MPOL_F_STATIC_NODES|MPOL_F_NUMA_BALANCING");
		ok(m->has_nodes && node_set(m, 0) && node_set(m, 3) && !node_set(m, 4) &&
		       node_set(m, 7) && !node_set(m, 8) && node_set(m, 70) && node_set(m, 71) &&
		       !node_set(m, 69) && !node_set(m, 72),
		   "nodes 0-3,7,70-71 as a mask (across words)");
	}
	oci_config_free(c);
	{
		static const struct {
			const char *mode;
			int num;
		} modes[] = {{"MPOL_DEFAULT", 0},
		             {"MPOL_PREFERRED", 1},
		             {"MPOL_BIND", 2},
		             {"MPOL_INTERLEAVE", 3},
		             {"MPOL_LOCAL", 4},
		             {"MPOL_PREFERRED_MANY", 5},
		             {"MPOL_WEIGHTED_INTERLEAVE", 6}};

		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			char j[160];
			bool none = modes[i].num == 0 || modes[i].num == 4;

			snprintf(j, sizeof(j), "\"memoryPolicy\":{\"mode\":\"%s\"%s}",
			         modes[i].mode, none ? "" : ",\"nodes\":\"0\"");
			c = parse_linux(j);
			ok(c && c->linux->memory_policy->mode_num == modes[i].num,
			   "%s is the kernel's %d", modes[i].mode, modes[i].num);
			oci_config_free(c);
		}
	}
	/* MPOL_PREFERRED without nodes is "local allocation" (set_mempolicy(2)). */
	c = parse_linux("\"memoryPolicy\":{\"mode\":\"MPOL_PREFERRED\",\"nodes\":\"\"}");
	ok(c && !c->linux->memory_policy->has_nodes, "MPOL_PREFERRED with no nodes");
	oci_config_free(c);
}

struct err_case {
	const char *linux;
	const char *want; /* the whole message */
};

static const struct err_case errors[] = {
    {"\"memoryPolicy\":{}", "config.json: .linux.memoryPolicy.mode: required field is missing"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_FOO\"}",
     "config.json: .linux.memoryPolicy.mode: unknown mode \"MPOL_FOO\""},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\"}",
     "config.json: .linux.memoryPolicy.nodes: MPOL_BIND needs at least one node"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_INTERLEAVE\",\"nodes\":\"\"}",
     "config.json: .linux.memoryPolicy.nodes: MPOL_INTERLEAVE needs at least one node"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_DEFAULT\",\"nodes\":\"0\"}",
     "config.json: .linux.memoryPolicy.nodes: MPOL_DEFAULT takes no nodes (got \"0\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_LOCAL\",\"nodes\":\"1-2\"}",
     "config.json: .linux.memoryPolicy.nodes: MPOL_LOCAL takes no nodes (got \"1-2\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"3-1\"}",
     "config.json: .linux.memoryPolicy.nodes: a range runs backwards (got \"3-1\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"1024\"}",
     "config.json: .linux.memoryPolicy.nodes: node numbers must be below 1024 (got \"1024\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"0,\"}",
     "config.json: .linux.memoryPolicy.nodes: must be a list of node numbers and ranges such "
     "as \"0-3,7\" (got \"0,\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"-1\"}",
     "config.json: .linux.memoryPolicy.nodes: must be a list of node numbers and ranges such "
     "as \"0-3,7\" (got \"-1\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"0 ,1\"}",
     "config.json: .linux.memoryPolicy.nodes: must be a list of node numbers and ranges such "
     "as \"0-3,7\" (got \"0 ,1\")"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":7}",
     "config.json: .linux.memoryPolicy.nodes: must be a string"},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"0\",\"flags\":[\"MPOL_F_X\"]}",
     "config.json: .linux.memoryPolicy.flags[0]: unknown flag \"MPOL_F_X\""},
    {"\"memoryPolicy\":{\"mode\":\"MPOL_BIND\",\"nodes\":\"0\",\"flags\":"
     "[\"MPOL_F_STATIC_NODES\",\"MPOL_F_RELATIVE_NODES\"]}",
     "config.json: .linux.memoryPolicy.flags: MPOL_F_STATIC_NODES and MPOL_F_RELATIVE_NODES "
     "exclude each other"},
    {"\"netDevices\":[\"eth0\"]",
     "config.json: .linux.netDevices: must be an object of host device names"},
    {"\"netDevices\":{\"eth0\":\"x\"}",
     "config.json: .linux.netDevices[\"eth0\"]: must be an object"},
    {"\"netDevices\":{\"eth0\":{\"name\":3}}",
     "config.json: .linux.netDevices[\"eth0\"].name: must be a non-empty string"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"\"}}",
     "config.json: .linux.netDevices[\"eth0\"].name: must be a non-empty string"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"a234567890123456\"}}",
     "config.json: .linux.netDevices[\"eth0\"].name: a network device name is 1 to 15 bytes (got "
     "\"a234567890123456\")"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"a/b\"}}",
     "config.json: .linux.netDevices[\"eth0\"].name: a network device name has no '/', ':' or "
     "white space (got \"a/b\")"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"..\"}}",
     "config.json: .linux.netDevices[\"eth0\"].name: \"..\" is not a valid network device name"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"e%s\"}}",
     "config.json: .linux.netDevices[\"eth0\"].name: the only template is one \"%d\" (got "
     "\"e%s\")"},
    {"\"netDevices\":{\"et h0\":{}}",
     "config.json: .linux.netDevices[\"et h0\"]: a network device name has no '/', ':' or white "
     "space (got \"et h0\")"},
    {"\"netDevices\":{\"eth%d\":{}}",
     "config.json: .linux.netDevices[\"eth%d\"]: a host device name is no template (got "
     "\"eth%d\")"},
    {"\"netDevices\":{\"eth0\":{\"name\":\"c0\"},\"eth1\":{\"name\":\"c0\"}}",
     "config.json: .linux.netDevices[\"eth1\"]: \"c0\" is also the name of eth0 inside the "
     "container"},
    {"\"netDevices\":{\"eth0\":{},\"eth1\":{\"name\":\"eth0\"}}",
     "config.json: .linux.netDevices[\"eth1\"]: \"eth0\" is also the name of eth0 inside the "
     "container"},
    {"\"intelRdt\":{\"schemata\":[\"L3:0=7f0\",\"MB:0=20\\nL3:0=1\"]}",
     "config.json: .linux.intelRdt.schemata[1]: must not contain a newline (one line each)"},
    {"\"intelRdt\":{\"memBwSchema\":\"L3:0=1\"}",
     "config.json: .linux.intelRdt.memBwSchema: must start with \"MB:\" and have no newline"},
    {"\"intelRdt\":{\"l3CacheSchema\":\"L3:0=1\\nMB:0=1\"}",
     "config.json: .linux.intelRdt.l3CacheSchema: must not contain a newline"},
    {"\"intelRdt\":{\"enableMonitoring\":\"yes\"}",
     "config.json: .linux.intelRdt.enableMonitoring: must be true or false"},
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct oci_config *c = parse_linux(errors[i].linux);

		if (!ok(c == NULL && strcmp(werr_msg(err), errors[i].want) == 0, "refused: %s",
		        errors[i].want))
			diag("got: %s", c ? "(accepted)" : werr_msg(err));
		oci_config_free(c);
	}
}

static void test_net_devices(void)
{
	struct oci_config *c =
	    parse_linux("\"netDevices\":{\"eth0\":{\"name\":\"ctr0\"},\"eth1\":{},\"eth2\":null,"
	                "\"eth3\":{\"name\":\"e%d\",\"future\":1},\"eth4\":{\"name\":\"e%d\"}}");
	const struct oci_net_devices *d = c ? &c->linux->net_devices : NULL;

	if (!ok(d != NULL && d->n == 5, "netDevices: five devices (a template twice is fine)")) {
		diag("%s", werr_msg(err));
		oci_config_free(c);
		return;
	}
	ok(strcmp(d->dev[0].host, "eth0") == 0 && strcmp(oci_netdev_inner(&d->dev[0]), "ctr0") == 0,
	   "eth0 becomes ctr0");
	ok(d->dev[1].name == NULL && strcmp(oci_netdev_inner(&d->dev[1]), "eth1") == 0 &&
	       strcmp(oci_netdev_inner(&d->dev[2]), "eth2") == 0,
	   "no name (or null): the host's");
	ok(strcmp(oci_netdev_inner(&d->dev[3]), "e%d") == 0, "a template, unknown members ignored");
	oci_config_free(c);
	c = parse_linux("\"netDevices\":{}");
	ok(c && c->linux->net_devices.n == 0, "an empty object moves nothing");
	oci_config_free(c);
}

static void test_intel_rdt(void)
{
	struct oci_config *c = parse_linux("\"intelRdt\":{\"closID\":\"g\",\"schemata\":"
	                                   "[\"L3:0=7f0;1=1f\",\"MB:0=20;1=70\"],"
	                                   "\"enableMonitoring\":true}");

	ok(c && c->linux->intel_rdt->enable_monitoring && c->linux->intel_rdt->n_schemata == 2,
	   "intelRdt: schemata and enableMonitoring (1.3) decoded");
	oci_config_free(c);
}

static void test_policy_key(void)
{
	static const char good[] = "{\"netDevices\":[\"eth1\",\"s31c0\"]}";
	static const char *const bad[] = {"{\"netDevices\":[\"eth*\"]}", "{\"netDevices\":[\"\"]}",
	                                  "{\"netDevices\":[\"a23456789012345x\"]}",
	                                  "{\"netDevices\":\"eth1\"}"};
	struct policy *p = policy_parse(good, strlen(good), "policy.json", err);

	ok(p && policy_netdev_listed(p, "s31c0") && !policy_netdev_listed(p, "s31c") &&
	       !policy_netdev_listed(NULL, "eth1"),
	   "policy netDevices: exact names");
	policy_free(p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		werr_clear(err);
		p = policy_parse(bad[i], strlen(bad[i]), "policy.json", err);
		if (!ok(p == NULL && strstr(werr_msg(err), ".netDevices") != NULL,
		        "policy refuses %s", bad[i]))
			diag("got: %s", p ? "(accepted)" : werr_msg(err));
		policy_free(p);
	}
}

int main(void)
{
	test_memory_policy();
	test_errors();
	test_net_devices();
	test_intel_rdt();
	test_policy_key();
	return tap_done();
}
