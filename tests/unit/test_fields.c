/* The field table (runtime/policy/fields.c) is total: every field of
 * config-schema/config.schema.json and of oci/config.c's decoding tables has
 * a class per profile, the table names no field the schema lacks, and
 * ward-policy(7)'s FIELDS section is the table's. Also: unknown fields are
 * collected at parse time, and strict's generic rule refuses from the table.
 *
 * `test_fields --man` prints the FIELDS section (runtime/policy/fields-man.sh). */
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"
#include "policy/fields.h"
#include "policy/policy.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

static const char *srcdir(void)
{
	const char *s = getenv("WARD_SRCDIR");

	return s ? s : ".";
}

/* --- the schema's fields --------------------------------------------------- */

static char *schema_paths[1024];
static size_t n_schema;

static yajl_val get(yajl_val obj, const char *key)
{
	const char *path[] = {key, NULL};

	return obj ? yajl_tree_get(obj, path, yajl_t_any) : NULL;
}

static void add_path(const char *p)
{
	for (size_t i = 0; i < n_schema; i++)
		if (strcmp(schema_paths[i], p) == 0)
			return;
	if (n_schema < sizeof(schema_paths) / sizeof(schema_paths[0]))
		schema_paths[n_schema++] = strdup(p);
}

static void walk(yajl_val root, yajl_val node, const char *path, int depth)
{
	yajl_val ref = get(node, "$ref"), props, pats, items;
	char sub[512];

	if (depth > 32 || node == NULL)
		return;
	if (ref && YAJL_IS_STRING(ref) && strncmp(ref->u.string, "#/$defs/", 8) == 0)
		walk(root, get(get(root, "$defs"), ref->u.string + 8), path, depth + 1);
	if ((props = get(node, "properties")) && YAJL_IS_OBJECT(props))
		for (size_t i = 0; i < props->u.object.len; i++) {
			const char *k = props->u.object.keys[i];

			if (strchr(k, '.'))
				snprintf(sub, sizeof(sub), "%s[\"%s\"]", path, k);
			else
				snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", k);
			add_path(sub);
			walk(root, props->u.object.values[i], sub, depth + 1);
		}
	/* "^org\\.ward\\.allow\\." -> annotations["org.ward.allow.*"] */
	if ((pats = get(node, "patternProperties")) && YAJL_IS_OBJECT(pats))
		for (size_t i = 0; i < pats->u.object.len; i++) {
			const char *k = pats->u.object.keys[i];
			char name[256];
			size_t n = 0;

			for (k += *k == '^'; *k && n + 2 < sizeof(name); k++)
				if (*k != '\\')
					name[n++] = *k;
			name[n] = '\0';
			snprintf(sub, sizeof(sub), "%s[\"%s*\"]", path, name);
			add_path(sub);
		}
	if ((items = get(node, "items")) && YAJL_IS_OBJECT(items)) {
		snprintf(sub, sizeof(sub), "%s[]", path);
		walk(root, items, sub, depth + 1);
	}
}

static bool in_schema(const char *p)
{
	for (size_t i = 0; i < n_schema; i++)
		if (strcmp(schema_paths[i], p) == 0)
			return true;
	return false;
}

/* --- oci/config.c's decoding tables ---------------------------------------- */

static size_t jmissing;

static void walk_jschema(const struct jschema *s, const char *path, int depth)
{
	char sub[512];

	for (size_t i = 0; depth < 16 && i < s->n_fields; i++) {
		const struct jfield *f = &s->fields[i];

		snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", f->key);
		if (policy_field(sub) == NULL) {
			jmissing++;
			ok(0, "oci/config.c decodes %s: it has a class in the field table", sub);
		}
		if (f->kind == JK_OBJ)
			walk_jschema(f->sub, sub, depth + 1);
		if (f->kind == JK_ARR) {
			strncat(sub, "[]", sizeof(sub) - strlen(sub) - 1);
			walk_jschema(f->sub, sub, depth + 1);
		}
	}
}

/* --- ward-policy(7) ----------------------------------------------------------- */

static void man_text(FILE *o, const char *s)
{
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\e", o);
		else if (*s == '-')
			fputs("\\-", o);
		else
			fputc(*s, o);
}

static void man_section(FILE *o)
{
	static const char *const prof[] = {"compat", "baseline", "strict"};

	fputs(".SH FIELDS\n"
	      "Every field of config.json ward reads has, in each profile, exactly one class:\n"
	      "\\fBaccept\\fR (as is; values a cited rule refuses excepted), \\fBadjust\\fR\n"
	      "(ward changes or fills it), \\fBhost\\fR (decided on the opened host object)\n"
	      "or \\fBrefuse\\fR. Under strict a field without a rule is refused: a field\n"
	      "the table refuses and no rule judges is refused by the table itself, naming\n"
	      "the field. \\fBward check\\fR shows the class of each field a config sets, and\n"
	      "lists the fields ward does not know (strict refuses those inside\n"
	      "\\fBprocess\\fR, \\fBlinux\\fR, \\fBmounts\\fR and \\fBroot\\fR). Arrays are\n"
	      "written \\fB[]\\fR. Generated from runtime/policy/fields.c\n"
	      "(runtime/policy/fields\\-man.sh).\n",
	      o);
	for (size_t i = 0; i < policy_n_fields; i++) {
		const struct field_rule *r = &policy_fields[i];

		fputs(".TP\n.B ", o);
		man_text(o, r->path);
		fputc('\n', o);
		for (int p = 0; p < 3; p++)
			fprintf(o, "%s%s \\fI%s\\fR", p ? ", " : "", prof[p],
			        field_class_name((enum field_class)r->cls[p]));
		if (r->why) {
			fputs(": ", o);
			man_text(o, r->why);
		}
		if (r->optout) {
			fputs("; opt\\-out \\fB", o);
			man_text(o, r->optout);
			fputs("\\fR", o);
		}
		fputs(" (", o);
		man_text(o, r->rule ? r->rule : "the table");
		fputs(")\n", o);
	}
}

static void check_man(void)
{
	char path[4096], *man = NULL, *want = NULL, *start, *end;
	size_t len, wlen;
	FILE *m = open_memstream(&want, &wlen);

	man_section(m);
	fclose(m);
	snprintf(path, sizeof(path), "%s/runtime/policy/ward-policy.7", srcdir());
	if (!ok(read_file(path, 1 << 22, &man, &len, err) == 0, "read %s", path))
		goto out;
	start = strstr(man, "\n.SH FIELDS\n");
	end = start ? strstr(start + 1, "\n.SH ") : NULL;
	if (!ok(start && end, "ward-policy(7) has a FIELDS section"))
		goto out;
	*++end = '\0';
	if (!ok(strcmp(start + 1, want) == 0,
	        "ward-policy(7) FIELDS is the field table's (run runtime/policy/fields-man.sh)")) {
		size_t i = 0, line = 0;

		for (; start[1 + i] && start[1 + i] == want[i]; i++)
			line = want[i] == '\n' ? i + 1 : line;
		diag("first difference: the table says \"%.*s\"", (int)strcspn(want + line, "\n"),
		     want + line);
	}
out:
	free(man);
	free(want);
}

/* --- unknown and present fields ---------------------------------------------- */

static bool has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

#define BASE                                                                                       \
	"{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\",\"readOnly\":true},"              \
	"\"process\":{\"user\":{\"uid\":0,\"gid\":0,\"uidd\":1},\"args\":[\"sh\"],\"cwd\":\"/\","  \
	"\"oomScoreAdj\":%d,\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1,\"soft\":1,"       \
	"\"sofft\":2}]},\"mounts\":[{\"destination\":\"/a\",\"type\":\"tmpfs\"},"                  \
	"{\"destination\":\"/b\",\"type\":\"tmpfs\",\"opts\":[\"ro\"],\"options\":[\"nosuid\"]}]," \
	"\"annotations\":{\"x.y\":\"1\",\"org.ward.allow.a\":\"true\",\"org.ward.allow.b\":\"1\"}" \
	","                                                                                        \
	"\"extension\":{\"a\":1},\"hostname\":null,"                                               \
	"\"linux\":{\"namespaces\":[{\"type\":\"mount\"}],\"timeOffsets\":{},"                     \
	"\"resources\":{\"memory\":{\"limt\":1}%s}%s}}"

static struct oci_config *cfg(int oom, const char *res, const char *lin)
{
	char buf[4096];
	struct oci_config *c;

	snprintf(buf, sizeof(buf), BASE, oom, res, lin);
	c = oci_config_parse(buf, strlen(buf), "config.json", err);
	if (c == NULL)
		diag("%s", werr_msg(err));
	return c;
}

static size_t refusals(struct policy_ctx *x, const char *field)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n_f; i++)
		n += x->f[i].kind == FIND_REFUSE && strcmp(x->f[i].field, field) == 0;
	return n;
}

static void check_collect(void)
{
	struct oci_config *c =
	    cfg(0, "", ",\"intelRdt\":{\"closID\":\"x\"},\"sysctl\":{\"a.b\":\"1\"}");
	struct policy_ctx x;

	if (!ok(c != NULL, "a config with unknown fields parses"))
		return;
	ok(c->seen.n_unknown == 6, "6 unknown fields (%zu)", c->seen.n_unknown);
	ok(has(c->seen.unknown, c->seen.n_unknown, ".root.readOnly"), ".root.readOnly");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".process.user.uidd"), ".process.user.uidd");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".process.rlimits[0].sofft"),
	   "in arrays of objects: .process.rlimits[0].sofft");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".mounts[1].opts"), ".mounts[1].opts");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".extension"), "top level: .extension");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".linux.resources.memory.limt"),
	   ".linux.resources.memory.limt");
	ok(has(c->seen.unknown, c->seen.n_unknown, ".linux.intelRdt.closID") == false &&
	       !has(c->seen.unknown, c->seen.n_unknown, ".annotations.x.y") &&
	       !has(c->seen.unknown, c->seen.n_unknown, ".linux.sysctl.a.b"),
	   "not inside maps, nor known fields");
	ok(has(c->seen.present, c->seen.n_present, "mounts[].options") &&
	       has(c->seen.present, c->seen.n_present, "linux.intelRdt.closID") &&
	       has(c->seen.present, c->seen.n_present, "process.rlimits[].soft"),
	   "present fields in the table's notation");
	ok(!has(c->seen.present, c->seen.n_present, "hostname") &&
	       !has(c->seen.present, c->seen.n_present, "linux.timeOffsets") &&
	       !has(c->seen.present, c->seen.n_present, "linux.resources.memory.limit"),
	   "null and empty values are absent");

	memset(&x, 0, sizeof(x));
	x.cfg = c;
	x.profile = PROFILE_STRICT;
	ok(policy_fields_unknown(&x) == 0 && refusals(&x, ".root.readOnly") == 1 &&
	       refusals(&x, ".process.rlimits[0].sofft") == 1 &&
	       refusals(&x, ".mounts[1].opts") == 1 && refusals(&x, ".extension") == 0 &&
	       x.n_refused == 5,
	   "strict refuses unknown fields in process, linux, mounts and root");
	ok(policy_fields_refuse(&x) == 0 && refusals(&x, ".linux.intelRdt") == 1 &&
	       refusals(&x, ".linux.intelRdt.closID") == 0 && refusals(&x, ".linux.sysctl") == 0,
	   "strict: the generic rule refuses .linux.intelRdt once (not its fields again)");
	ok(refusals(&x, ".process.oomScoreAdj") == 0, "strict: oomScoreAdj 0 passes");
	policy_ctx_free(&x);
	memset(&x, 0, sizeof(x));
	x.cfg = c;
	x.profile = PROFILE_BASELINE;
	ok(policy_fields_unknown(&x) == 0 && policy_fields_refuse(&x) == 0 && x.n_refused == 0,
	   "baseline ignores unknown fields, and the generic rule is strict's");
	policy_ctx_free(&x);
	oci_config_free(c);

	/* oomScoreAdj and unified have rules of their own now (policy_caps.c,
	 * refuse_devices.c: test_policy_rules): the generic rule leaves them;
	 * net_cls's class id has none and is the table's to refuse. */
	c = cfg(-500, ",\"unified\":{\"memory.max\":\"max\"},\"network\":{\"classID\":7}", "");
	memset(&x, 0, sizeof(x));
	x.cfg = c;
	x.profile = PROFILE_STRICT;
	ok(c && policy_fields_refuse(&x) == 0 && refusals(&x, ".process.oomScoreAdj") == 0 &&
	       refusals(&x, ".linux.resources.unified") == 0 &&
	       refusals(&x, ".linux.resources.network.classID") == 1,
	   "strict: the generic rule refuses a field no rule judges (classID), not those a rule "
	   "judges (oomScoreAdj, unified)");
	/* A rule that refused the field already: no second refusal. */
	policy_ctx_free(&x);
	memset(&x, 0, sizeof(x));
	x.cfg = c;
	x.profile = PROFILE_STRICT;
	policy_refuse(&x, ".linux.resources", NULL, "a rule's own");
	ok(c && policy_fields_refuse(&x) == 0 && x.n_refused == 1 &&
	       refusals(&x, ".linux.resources.network.classID") == 0,
	   "no generic refusal below a field a rule refused");
	policy_ctx_free(&x);
	oci_config_free(c);
}

int main(int argc, char **argv)
{
	char path[4096], *buf = NULL, perr[256];
	size_t len, missing = 0, extra = 0;
	yajl_val root;

	if (argc == 2 && strcmp(argv[1], "--man") == 0) {
		man_section(stdout);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/config-schema/config.schema.json", srcdir());
	if (!ok(read_file(path, 1 << 22, &buf, &len, err) == 0, "read %s", path))
		return tap_done();
	root = yajl_tree_parse(buf, perr, sizeof(perr));
	free(buf);
	if (!ok(root != NULL, "config.schema.json parses (%s)", root ? "" : perr))
		return tap_done();
	walk(root, root, "", 0);
	yajl_tree_free(root);
	ok(n_schema > 100, "the schema names %zu fields", n_schema);
	for (size_t i = 0; i < n_schema; i++)
		if (policy_field(schema_paths[i]) == NULL) {
			missing++;
			ok(0, "schema field %s has a class in the field table", schema_paths[i]);
		}
	ok(missing == 0, "every schema field has a class for each profile (%zu missing)", missing);
	for (size_t i = 0; i < policy_n_fields; i++) {
		const struct field_rule *r = &policy_fields[i];
		bool plain = true;

		if (!in_schema(r->path)) {
			extra++;
			ok(0, "the table's %s is a schema field", r->path);
		}
		for (int p = 0; p < 3; p++) {
			plain = plain && r->cls[p] == FC_ACCEPT;
			if (r->cls[p] > FC_REFUSE)
				ok(0, "%s: a class for profile %d", r->path, p);
		}
		if (!plain && (r->why == NULL || r->why[0] == '\0'))
			ok(0, "%s: a non-accept class gives its reason", r->path);
		for (size_t j = 0; j < i; j++)
			if (strcmp(policy_fields[j].path, r->path) == 0)
				ok(0, "%s: once in the table", r->path);
	}
	ok(extra == 0, "the table names no field the schema lacks (%zu)", extra);
	walk_jschema(oci_config_schema(), "", 0);
	ok(jmissing == 0, "every field oci/config.c decodes has a class (%zu missing)", jmissing);
	{
		size_t n[3][4] = {{0}};

		for (size_t i = 0; i < policy_n_fields; i++)
			for (int p = 0; p < 3; p++)
				n[p][policy_fields[i].cls[p]]++;
		for (int p = 0; p < 3; p++)
			diag("%s: %zu accept, %zu adjust, %zu host, %zu refuse (of %zu)",
			     p == 0   ? "compat"
			     : p == 1 ? "baseline"
			              : "strict",
			     n[p][0], n[p][1], n[p][2], n[p][3], policy_n_fields);
	}
	check_man();
	check_collect();
	for (size_t i = 0; i < n_schema; i++)
		free(schema_paths[i]);
	return tap_done();
}
