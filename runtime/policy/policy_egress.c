/* The egress part of the policy (issue 26; runtime/policy/ward-policy.7, EGRESS):
 * what a container may connect to, as the plan create enforces with the
 * cgroup programs (net/egress_bpf.c).
 *
 *  - compat: nothing (no programs).
 *  - baseline: the policy's egress.baseline.allow list, or everything; the
 *    cloud metadata endpoints closed unless the opt-out egress-metadata.
 *  - strict: the policy's egress.strict.allow list, or nothing; the
 *    metadata endpoints closed alike.
 *  - loopback is always allowed; the annotation org.ward.egress may only
 *    narrow the list (a destination outside it is ignored, with a note).
 *  - where the programs cannot be attached (rootless, a cgroup v1 host):
 *    baseline runs unfiltered with a note saying so, strict is refused
 *    unless the container's own network namespace leaves it loopback only
 *    and no allow-list was asked for (unenforced below). */
#include "policy/rules.h"
#include "lib/error.h"
#include "oci/config.h"

#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANN_FIELD ".annotations[\"" ANN_EGRESS "\"]"

/* The cloud metadata endpoints (runtime/policy/ward-policy.7 says whose each is). */
static const char *const metadata[] = {
    "169.254.169.254:*", /* AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, ... */
    "169.254.170.2:*",   /* AWS ECS task metadata and credentials */
    "169.254.170.23:*",  /* AWS EKS Pod Identity agent */
    "100.100.100.200:*", /* Alibaba Cloud */
    "192.0.0.192:*",     /* Oracle Cloud (older instances) */
    "[fd00:ec2::254]:*", /* AWS, IPv6 */
    "[fd00:ec2::23]:*",  /* AWS EKS Pod Identity agent, IPv6 */
    "[fd20:ce::254]:*",  /* GCP, IPv6 */
    NULL};

static const char *const loopback[] = {"127.0.0.0/8:*", "[::1]:*", NULL};

/* Add each rule of a built-in list, for every protocol. */
static int add_builtin(struct egress_plan *p, bool deny, const char *const *list,
                       struct werror *err)
{
	for (size_t i = 0; list[i]; i++) {
		struct egress_rule r;
		char why[160];

		if (egress_rule_parse(list[i], &r, why, sizeof(why)) < 0)
			return werr(err, EINVAL, "built-in egress rule %s: %s", list[i], why);
		r.protos = EGRESS_ANY;
		if (egress_plan_add(p, deny, &r, err) < 0)
			return -1;
		/* An IPv4 endpoint is also reachable through a NAT64 gateway at
		 * 64:ff9b::a.b.c.d (RFC 6052's well-known prefix). */
		if (deny && r.prefix == 128 && r.addr[10] == 0xff && r.addr[11] == 0xff) {
			memset(r.addr, 0, 12);
			r.addr[1] = 0x64;
			r.addr[2] = 0xff;
			r.addr[3] = 0x9b;
			if (egress_plan_add(p, true, &r, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* The policy's list for the profile (NULL: the profile's default). */
static const struct policy_egress_list *policy_list(const struct policy_ctx *x)
{
	const struct policy_egress *e = x->pol ? x->pol->egress : NULL;
	const struct policy_egress_list *l = e == NULL                      ? NULL
	                                     : x->profile == PROFILE_STRICT ? e->strict
	                                                                    : e->baseline;

	return l && l->has_allow ? l : NULL;
}

/* The list the annotation narrows: the policy's, or the default (baseline:
 * every destination; strict: none). */
static int base_list(const struct policy_ctx *x, struct egress_plan *b, struct werror *err)
{
	const struct policy_egress_list *l = policy_list(x);
	struct egress_rule r;
	char why[160];

	if (l == NULL) {
		static const char *const everything[] = {"[::/0]:*", NULL};

		return x->profile == PROFILE_BASELINE ? add_builtin(b, false, everything, err) : 0;
	}
	for (size_t i = 0; i < l->n_allow; i++) {
		if (egress_rule_parse(l->allow[i], &r, why, sizeof(why)) < 0)
			return werr(err, EINVAL, "policy file: egress: %s",
			            why); /* checked at load */
		if (egress_plan_add(b, false, &r, err) < 0)
			return -1;
	}
	return 0;
}

static bool within_any(const struct egress_rule *r, const struct egress_plan *b)
{
	for (size_t i = 0; i < b->n_allow; i++)
		if (egress_rule_within(r, &b->allow[i]))
			return true;
	return false;
}

/* The annotation's destinations (comma-separated) that lie within the base
 * list; -1 only on an internal error (a malformed one is refused). */
static int narrow(struct policy_ctx *x, const char *ann, const struct egress_plan *b,
                  struct werror *err)
{
	char *copy = strdup(ann), *save = NULL;
	int r = 0;

	if (copy == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (char *t = strtok_r(copy, ", ", &save); r == 0 && t; t = strtok_r(NULL, ", ", &save)) {
		struct egress_rule e;
		char why[160];

		if (egress_rule_parse(t, &e, why, sizeof(why)) < 0)
			r = policy_refuse(x, ANN_FIELD, NULL, "%s", why);
		else if (!within_any(&e, b))
			r = policy_note(
			    x, ANN_FIELD,
			    "\"%s\" ignored: the %s profile's egress list does not include "
			    "it (an annotation may only narrow)",
			    t, profile_name(x->profile));
		else
			r = egress_plan_add(&x->egress, false, &e, err);
	}
	free(copy);
	return r;
}

/* Why the programs cannot be attached on this host (NULL: they can). Kept
 * short: a finding's reason holds 255 bytes. */
static const char *no_programs(const struct host_facts *h)
{
	if (h->rootless)
		return "rootless ward cannot load the egress programs (the kernel wants CAP_BPF "
		       "and CAP_NET_ADMIN in the host's user namespace)";
	if (!h->userns_host)
		return "ward is not root in the host's user namespace (rootless Podman's?), where "
		       "the kernel wants CAP_BPF and CAP_NET_ADMIN for the egress programs";
	if (!h->cgroup2)
		return "no cgroup2 hierarchy to attach the egress programs to (a cgroup v1 host)";
	return NULL;
}

/* The plan cannot be enforced (why). A network namespace of the
 * container's own has loopback only, so nothing needs filtering; strict
 * never runs a joined network unfiltered, nor accepts an allow-list it
 * cannot enforce; baseline runs, saying what stays open (rootless Podman
 * joins the namespace slirp4netns or pasta serves). */
static int unenforced(struct policy_ctx *x, bool listed, const char *why)
{
	const struct oci_namespace *n = oci_config_namespace(x->cfg, CLONE_NEWNET);
	bool own = n && (n->path == NULL || n->path[0] == '\0');

	x->egress.enforce = x->egress.tcp_udp_only = false;
	if (x->profile == PROFILE_STRICT && listed)
		return policy_refuse(x, ".linux.namespaces", NULL,
		                     "strict never runs unfiltered, and its egress allow-list "
		                     "cannot be enforced: %s",
		                     why);
	if (own)
		return policy_note(x, ".linux.namespaces",
		                   "egress rules not needed (own network namespace, loopback "
		                   "only): %s",
		                   why);
	if (x->profile == PROFILE_STRICT)
		return policy_refuse(x, ".linux.namespaces", NULL,
		                     "strict never runs a joined network unfiltered: %s", why);
	return policy_note(x, ".linux.namespaces",
	                   "egress not filtered: the cloud metadata endpoints%s stay reachable: %s",
	                   listed ? " and what the egress list leaves out" : "", why);
}

/* A strict container with an allow-list in a network namespace of its own
 * (none from an engine: run by hand) would have loopback only: pasta
 * connects it to the host's network, which the programs then filter. */
static int pasta(struct policy_ctx *x)
{
	const struct oci_namespace *n = oci_config_namespace(x->cfg, CLONE_NEWNET);

	if (n == NULL || (n->path && n->path[0]) || x->facts == NULL)
		return 0;
	if (!x->facts->pasta)
		return policy_note(
		    x, ".linux.namespaces",
		    "no network for the egress allow-list: %s is not installed (passt), "
		    "the container's own network namespace has loopback only",
		    PASTA_PATH);
	x->egress.pasta = true;
	return policy_note(x, ".linux.namespaces",
	                   "pasta connects the container's own network namespace to the host's "
	                   "(the egress allow-list filters it)");
}

/* CAP_NET_RAW also opens packet sockets (AF_PACKET), which no cgroup
 * program judges, and lets a datagram carry IPv4 source-route options as
 * ancillary data (IP_RETOPTS in sendmsg's control message: the sendmsg
 * programs see only the address; an attacker's review reached the
 * metadata endpoint this way with the opt-out): kept only by the
 * operator's opt-out (baseline caps it, strict refuses it), and then said
 * where an allow-list is in force. */
static int packet_sockets(struct policy_ctx *x)
{
	const struct oci_caps *c = x->cfg->process ? x->cfg->process->capabilities : NULL;

	if (!x->egress.enforce || !x->egress.tcp_udp_only || c == NULL ||
	    !(c->bounding & (1ULL << CAP_NET_RAW)) || !policy_optout(x, "cap.NET_RAW"))
		return 0;
	return policy_note(x, ".process.capabilities",
	                   "CAP_NET_RAW kept (opt-out cap.NET_RAW): its packet sockets (AF_PACKET) "
	                   "bypass the egress allow-list, and so do IPv4 source-route options "
	                   "sent as a datagram's ancillary data (IP_RETOPTS), which only "
	                   "CAP_NET_RAW may send");
}

int policy_egress(struct policy_ctx *x, struct werror *err)
{
	const char *ann = oci_config_annotation(x->cfg, ANN_EGRESS);
	struct egress_plan base = {0};
	bool open_default, listed;
	const char *why;
	int r;

	egress_plan_free(&x->egress);
	if (x->profile == PROFILE_COMPAT)
		return ann ? policy_note(x, ANN_FIELD,
		                         "ignored: the compat profile filters nothing")
		           : 0;
	if (base_list(x, &base, err) < 0) {
		egress_plan_free(&base);
		return -1;
	}
	open_default = x->profile == PROFILE_BASELINE && policy_list(x) == NULL && ann == NULL;
	r = ann ? narrow(x, ann, &base, err) : 0;
	for (size_t i = 0; r == 0 && !ann && i < base.n_allow; i++)
		r = egress_plan_add(&x->egress, false, &base.allow[i], err);
	egress_plan_free(&base);
	/* An allow-list in force besides loopback (added next): baseline's
	 * even when the annotation left it empty. */
	listed = !open_default && (x->profile == PROFILE_BASELINE || x->egress.n_allow > 0);
	if (r < 0 || add_builtin(&x->egress, false, loopback, err) < 0 ||
	    (!policy_optout(x, "egress-metadata") &&
	     add_builtin(&x->egress, true, metadata, err) < 0))
		return -1;
	/* baseline's everything, with the metadata opt-out: nothing to filter. */
	x->egress.enforce = !(open_default && x->egress.n_deny == 0);
	x->egress.tcp_udp_only = x->profile == PROFILE_STRICT || listed;
	if (x->egress.enforce && x->facts && (why = no_programs(x->facts)) != NULL)
		return unenforced(x, listed, why);
	if (x->profile == PROFILE_STRICT && listed && x->egress.enforce && pasta(x) < 0)
		return -1;
	return packet_sockets(x);
}
