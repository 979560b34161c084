/*
 * test_sim_schema.c - the JSON of `astray sim` and `astray sim-report`
 * against docs/sim.schema.json, and the table's words against the column
 * names docs/sim.md maps them to.  A small JSON reader and a validator
 * for the part of JSON Schema the file uses (type, enum, properties,
 * required, additionalProperties, items, $ref to #/$defs/NAME); a keyword
 * outside that part fails the test rather than pass unchecked.  Runs the
 * real binary (ASTRAY_BIN); skips when it is not set.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run_capture.h"
#include "sim.h"

/* ---- a JSON reader ------------------------------------------------------ */

enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct jval {
	enum jtype type;
	bool integer;          /* J_NUMBER written without fraction or exponent */
	bool b;
	double num;
	char *str;             /* J_STRING */
	struct jval *items;    /* J_ARRAY: n values; J_OBJECT: n values, keys[] */
	char **keys;
	int n;
};

struct jreader {
	const char *p;
	char err[160];
};

static void jfree(struct jval *v)
{
	free(v->str);
	for (int i = 0; i < v->n; i++) {
		jfree(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof *v);
}

static void skip_ws(struct jreader *r)
{
	while (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')
		r->p++;
}

static bool jfail(struct jreader *r, const char *what)
{
	if (!r->err[0])
		snprintf(r->err, sizeof r->err, "%s at '%.20s'", what, r->p);
	return false;
}

static bool parse_value(struct jreader *r, struct jval *v, int depth);

static bool parse_string(struct jreader *r, char **out)
{
	if (*r->p != '"')
		return jfail(r, "expected a string");
	r->p++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	while (s && *r->p != '"') {
		if (!*r->p || (unsigned char)*r->p < 0x20) {
			free(s);
			return jfail(r, "bad string");
		}
		char c = *r->p++;
		if (c == '\\') {
			c = *r->p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)r->p[i])) {
						free(s);
						return jfail(r, "bad \\u escape");
					}
				r->p += 4;
				c = '?'; /* the text of an escape is not needed here */
			} else if (!strchr("\"\\/bfnrt", c)) {
				free(s);
				return jfail(r, "bad escape");
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);
			if (!t)
				free(s);
			s = t;
		}
		if (s)
			s[n++] = c;
	}
	if (!s)
		return jfail(r, "out of memory");
	s[n] = '\0';
	r->p++;
	*out = s;
	return true;
}

static bool push(struct jval *v, struct jval *item, char *key)
{
	struct jval *items = realloc(v->items, (size_t)(v->n + 1) * sizeof *items);
	if (!items)
		return false;
	v->items = items;
	if (v->type == J_OBJECT) {
		char **keys = realloc(v->keys, (size_t)(v->n + 1) * sizeof *keys);
		if (!keys)
			return false;
		v->keys = keys;
		keys[v->n] = key;
	}
	v->items[v->n++] = *item;
	return true;
}

static bool parse_value(struct jreader *r, struct jval *v, int depth)
{
	memset(v, 0, sizeof *v);
	skip_ws(r);
	if (depth > 64)
		return jfail(r, "too deep");
	if (*r->p == '{' || *r->p == '[') {
		bool obj = *r->p == '{';
		v->type = obj ? J_OBJECT : J_ARRAY;
		r->p++;
		skip_ws(r);
		if (*r->p == (obj ? '}' : ']')) {
			r->p++;
			return true;
		}
		for (;;) {
			char *key = NULL;
			struct jval item;
			skip_ws(r);
			if (obj) {
				if (!parse_string(r, &key))
					return false;
				skip_ws(r);
				if (*r->p++ != ':') {
					free(key);
					return jfail(r, "expected ':'");
				}
			}
			if (!parse_value(r, &item, depth + 1) || !push(v, &item, key)) {
				free(key);
				return jfail(r, "bad member");
			}
			skip_ws(r);
			if (*r->p == ',') {
				r->p++;
				continue;
			}
			if (*r->p++ != (obj ? '}' : ']'))
				return jfail(r, "expected ',' or a closing bracket");
			return true;
		}
	}
	if (*r->p == '"') {
		v->type = J_STRING;
		return parse_string(r, &v->str);
	}
	static const struct {
		const char *word;
		enum jtype type;
		bool b;
	} words[] = { { "null", J_NULL, false }, { "true", J_BOOL, true }, { "false", J_BOOL, false } };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strncmp(r->p, words[i].word, strlen(words[i].word)) == 0) {
			r->p += strlen(words[i].word);
			v->type = words[i].type;
			v->b = words[i].b;
			return true;
		}
	/* a number as JSON writes it: -?digits(.digits)?([eE][+-]?digits)? */
	const char *s = r->p;
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return jfail(r, "unexpected character");
	if (*s == '0' && isdigit((unsigned char)s[1]))
		return jfail(r, "leading zero");
	while (isdigit((unsigned char)*s))
		s++;
	v->integer = *s != '.' && *s != 'e' && *s != 'E';
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return jfail(r, "bad fraction");
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return jfail(r, "bad exponent");
		while (isdigit((unsigned char)*s))
			s++;
	}
	v->type = J_NUMBER;
	v->num = strtod(r->p, NULL);
	r->p = s;
	return true;
}

/* The whole text as one value; false with the reason in err. */
static bool jparse(const char *text, struct jval *v, char *err, size_t errlen)
{
	struct jreader r = { .p = text };
	bool ok = parse_value(&r, v, 0);
	if (ok) {
		skip_ws(&r);
		ok = *r.p == '\0' || jfail(&r, "text after the value");
	}
	if (!ok) {
		snprintf(err, errlen, "%s", r.err);
		jfree(v);
	}
	return ok;
}

static const struct jval *jget(const struct jval *obj, const char *key)
{
	if (obj->type != J_OBJECT)
		return NULL;
	for (int i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

/* ---- the validator -------------------------------------------------------- */

struct vctx {
	const struct jval *root;   /* the schema, for $ref */
	char err[512];
};

static bool vfail(struct vctx *c, const char *path, const char *what)
{
	if (!c->err[0])
		snprintf(c->err, sizeof c->err, "%s: %s", path, what);
	return false;
}

static bool type_is(const struct jval *v, const char *t)
{
	if (strcmp(t, "null") == 0)
		return v->type == J_NULL;
	if (strcmp(t, "boolean") == 0)
		return v->type == J_BOOL;
	if (strcmp(t, "number") == 0)
		return v->type == J_NUMBER;
	if (strcmp(t, "integer") == 0)
		return v->type == J_NUMBER && v->integer;
	if (strcmp(t, "string") == 0)
		return v->type == J_STRING;
	if (strcmp(t, "array") == 0)
		return v->type == J_ARRAY;
	if (strcmp(t, "object") == 0)
		return v->type == J_OBJECT;
	return false;
}

static bool jequal(const struct jval *a, const struct jval *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case J_NULL:
		return true;
	case J_BOOL:
		return a->b == b->b;
	case J_NUMBER:
		return a->num == b->num;
	case J_STRING:
		return strcmp(a->str, b->str) == 0;
	default:
		return false; /* the schema's enums hold no arrays or objects */
	}
}

static bool validate(struct vctx *c, const struct jval *schema, const struct jval *v, const char *path)
{
	static const char *const known[] = { "$schema", "$id", "title", "description", "$defs", "type", "enum",
					      "properties", "required", "additionalProperties", "items", "$ref" };
	if (schema->type != J_OBJECT)
		return vfail(c, path, "schema is not an object");
	for (int i = 0; i < schema->n; i++) {
		bool ok = false;
		for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
			ok |= strcmp(schema->keys[i], known[k]) == 0;
		if (!ok)
			return vfail(c, path, "the schema uses a keyword this validator does not know");
	}
	const struct jval *ref = jget(schema, "$ref");
	if (ref) {
		if (ref->type != J_STRING || strncmp(ref->str, "#/$defs/", 8) != 0)
			return vfail(c, path, "a $ref other than #/$defs/NAME");
		const struct jval *defs = jget(c->root, "$defs"), *target = defs ? jget(defs, ref->str + 8) : NULL;
		if (!target)
			return vfail(c, path, "a $ref to nothing");
		if (!validate(c, target, v, path))
			return false;
	}
	const struct jval *type = jget(schema, "type");
	if (type) {
		bool ok = false;
		if (type->type == J_STRING)
			ok = type_is(v, type->str);
		for (int i = 0; type->type == J_ARRAY && i < type->n; i++)
			ok |= type_is(v, type->items[i].str);
		if (!ok)
			return vfail(c, path, "wrong type");
	}
	const struct jval *en = jget(schema, "enum");
	if (en) {
		bool ok = false;
		for (int i = 0; i < en->n; i++)
			ok |= jequal(&en->items[i], v);
		if (!ok)
			return vfail(c, path, "not one of the enum's values");
	}
	char sub[512];
	const struct jval *items = jget(schema, "items");
	if (items && v->type == J_ARRAY)
		for (int i = 0; i < v->n; i++) {
			snprintf(sub, sizeof sub, "%.400s[%d]", path, i);
			if (!validate(c, items, &v->items[i], sub))
				return false;
		}
	if (v->type != J_OBJECT)
		return true;
	const struct jval *req = jget(schema, "required");
	for (int i = 0; req && i < req->n; i++)
		if (!jget(v, req->items[i].str)) {
			snprintf(sub, sizeof sub, "no required key \"%.60s\"", req->items[i].str);
			return vfail(c, path, sub);
		}
	const struct jval *props = jget(schema, "properties"), *extra = jget(schema, "additionalProperties");
	for (int i = 0; i < v->n; i++) {
		snprintf(sub, sizeof sub, "%.400s.%.60s", path, v->keys[i]);
		const struct jval *ps = props ? jget(props, v->keys[i]) : NULL;
		if (ps) {
			if (!validate(c, ps, &v->items[i], sub))
				return false;
		} else if (extra && extra->type == J_BOOL && !extra->b) {
			return vfail(c, sub, "a key the schema does not list");
		} else if (extra && extra->type == J_OBJECT && !validate(c, extra, &v->items[i], sub)) {
			return false;
		}
	}
	return true;
}

/* ---- the tests ------------------------------------------------------------ */

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	size_t got;
	while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *t = realloc(s, cap *= 2);
			if (!t)
				free(s);
			s = t;
		}
	}
	fclose(f);
	if (s)
		s[n] = '\0';
	return s;
}

static struct jval schema;

static int setup(void **state)
{
	(void)state;
	char *text = read_all("docs/sim.schema.json");
	char err[200];
	if (!text || !jparse(text, &schema, err, sizeof err)) {
		fprintf(stderr, "docs/sim.schema.json: %s\n", text ? err : "cannot read");
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	jfree(&schema);
	return 0;
}

#define BIN_SKIP()                                                       \
	do {                                                             \
		if (!getenv("ASTRAY_BIN")) {                             \
			print_message("skipped: ASTRAY_BIN is not set\n"); \
			skip();                                          \
		}                                                        \
	} while (0)

/* Whether text is valid against the schema; the reason printed when not. */
static bool valid(const char *what, const char *text)
{
	struct jval v;
	char err[200];
	if (!jparse(text, &v, err, sizeof err)) {
		print_message("%s: not JSON: %s\n", what, err);
		return false;
	}
	struct vctx c = { .root = &schema };
	bool ok = validate(&c, &schema, &v, "$");
	if (!ok)
		print_message("%s: %s\n", what, c.err);
	jfree(&v);
	return ok;
}

/* The validator can fail: a document missing a key, with a stray key, or
 * with a wrong type is refused. */
static void test_validator_refuses(void **state)
{
	(void)state;
	assert_true(valid("minimal", "{\"format\": \"astray-sim 1\", \"games\": 1, \"seed\": 1, \"time\": false, "
				     "\"settings\": [], \"notes\": [], \"levels\": []}"));
	assert_false(valid("no levels", "{\"format\": \"astray-sim 1\", \"games\": 1, \"seed\": 1, \"time\": false, "
					"\"settings\": [], \"notes\": []}"));
	assert_false(valid("stray key", "{\"format\": \"astray-sim 1\", \"games\": 1, \"seed\": 1, \"time\": false, "
					"\"settings\": [], \"notes\": [], \"levels\": [], \"extra\": 1}"));
	assert_false(valid("games 1.5", "{\"format\": \"astray-sim 1\", \"games\": 1.5, \"seed\": 1, \"time\": false, "
					"\"settings\": [], \"notes\": [], \"levels\": []}"));
	assert_false(valid("summary entry", "{\"format\": \"astray-sim 1\", \"games\": 1, \"seed\": 1, \"time\": false, "
					    "\"settings\": [], \"notes\": [], \"levels\": [{\"level\": \"x\", \"monsters\": 0, "
					    "\"distinct_games\": 1, \"summary\": {\"turns\": {\"n\": 1}}}]}"));
	assert_false(valid("broken", "{\"format\": "));
}

/* Runs `astray ARGS` (a shell fragment; stderr dropped) and returns stdout. */
static char *astray(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", getenv("ASTRAY_BIN"), args);
	int status;
	char *out = run_capture(cmd, &status);
	assert_non_null(out);
	if (status != 0)
		print_message("astray %s: exit %d\n", args, status);
	assert_int_equal(status, 0);
	return out;
}

/* Every shape of sim's and sim-report's JSON: summary, per game, two
 * levels and "all", --compare, --generate, and the merge of shards. */
static void test_outputs_match_schema(void **state)
{
	(void)state;
	BIN_SKIP();
	static const char *const runs[] = {
		"sim levels/01-first-steps.lvl --games 4 --format json",
		"sim levels/01-first-steps.lvl levels/03-hex-arena.lvl --games 3 --no-time --format json --per-game",
		"sim levels/02-the-chase.lvl --games 3 --format json --per-game --set ogre.sight=3 "
		"--compare goblin.sight=3 goblin.sight=9",
		"sim levels/02-the-chase.lvl levels/05-the-vault.lvl --games 3 --no-time --format json --compare "
		"goblin.damage=1 goblin.damage=4",
		"sim --generate square8,hex --games 3 --no-time --format json --per-game --player fight",
		"sim levels/04-the-mire.lvl --games 2 --no-time --player idle --turns 30 --format json",
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		char *out = astray(runs[i]);
		assert_true(valid(runs[i], out));
		free(out);
	}
	/* sim-report of two shards, with and without --compare */
	char dir[] = "/tmp/astray-schema-XXXXXX";
	assert_non_null(mkdtemp(dir));
	static const char *const shard_runs[] = {
		"levels/01-first-steps.lvl levels/02-the-chase.lvl --games 4 --format csv",
		"levels/02-the-chase.lvl --games 4 --no-time --format csv --compare goblin.sight=3 goblin.sight=9",
	};
	for (size_t i = 0; i < sizeof shard_runs / sizeof shard_runs[0]; i++) {
		char args[1024];
		for (int s = 1; s <= 2; s++) {
			snprintf(args, sizeof args, "sim %s --shard %d/2 > %s/s%d.csv", shard_runs[i], s, dir, s);
			free(astray(args));
		}
		snprintf(args, sizeof args, "sim-report %s/s1.csv %s/s2.csv --format json", dir, dir);
		char *out = astray(args);
		assert_non_null(strstr(out, "\"report_files\": 2"));
		assert_true(valid(args, out));
		free(out);
	}
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	int st;
	free(run_capture(cmd, &st));
}

/* docs/sim.md maps each table label to its column: a row
 * "| label | `name` |" for every metric and kind metric. */
static void test_labels_documented(void **state)
{
	(void)state;
	char *doc = read_all("docs/sim.md");
	assert_non_null(doc);
	char row[160];
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		snprintf(row, sizeof row, "| %s%s | `%s` |", mi->label, mi->time ? " *" : "", mi->name);
		if (!strstr(doc, row))
			print_message("docs/sim.md has no row %s\n", row);
		assert_non_null(strstr(doc, row));
	}
	for (int km = 0; km < SIM_KIND_METRIC_COUNT; km++) {
		const struct sim_kind_metric_info *ki = sim_kind_metric_info((enum sim_kind_metric)km);
		snprintf(row, sizeof row, "| KIND %s | `KIND.%s` |", ki->label, ki->name);
		if (!strstr(doc, row))
			print_message("docs/sim.md has no row %s\n", row);
		assert_non_null(strstr(doc, row));
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validator_refuses),
		cmocka_unit_test(test_outputs_match_schema),
		cmocka_unit_test(test_labels_documented),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
