/*
 * cmd_gen.c - `astray gen`: writes a generated level (gen.h) as a .lvl file
 * a designer can edit, or with --count times and measures a run of seeds.
 * The options are parsed here, self-contained: `--opt value` and
 * `--opt=value` both work.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "gen.h"
#include "level.h"

static void gen_usage(FILE *out)
{
	fprintf(out,
		"usage: astray gen --topology T --seed S [--size WxH] [--depth D]\n"
		"                  [--style rooms|caves|mixed] [-o FILE] [--count N]\n"
		"\n"
		"Writes a generated level as a .lvl file (to standard output, or FILE) that\n"
		"`astray check` passes and a designer can edit.  The same topology, size,\n"
		"depth, style and seed give the same bytes on every build; the level's\n"
		"description names them and the generator version (%d).\n"
		"\n"
		"options:\n"
		"  --topology T   square4, square8 or hex (required)\n"
		"  --seed S       0 to 2^64-1 (required)\n"
		"  --size WxH     in cells, from %dx%d to %dx%d (default one screen: 79x23,\n"
		"                 hex 39x23)\n"
		"  --depth D      1 to %d (default 1): more and stronger monsters deeper\n"
		"  --style S      rooms (rooms and corridors with doors), caves (cellular\n"
		"                 automaton) or mixed (default: chosen from the seed)\n"
		"  -o FILE        write to FILE instead of standard output\n"
		"  --count N      developer: generate seeds S to S+N-1, write no level and\n"
		"                 print the time per level and shape figures (loops, route\n"
		"                 length, share of the floor on a shortest route)\n"
		"\n"
		"exit status: 0 written, 1 a write error (or a level that fails the checks\n"
		"with --count), 2 bad usage\n",
		GEN_VERSION, GEN_MIN_WIDTH, GEN_MIN_HEIGHT, LEVEL_MAX_SIDE, LEVEL_MAX_SIDE, GEN_MAX_DEPTH);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "astray gen: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(astray gen --help tells more)\n");
	return 2;
}

static bool parse_size(const char *s, int *w, int *h)
{
	const char *x = strchr(s, 'x');
	if (!x || x == s || x - s > 15)
		return false;
	char a[16];
	memcpy(a, s, (size_t)(x - s));
	a[x - s] = '\0';
	long lw, lh;
	if (!cli_parse_long(a, GEN_MIN_WIDTH, LEVEL_MAX_SIDE, &lw) ||
	    !cli_parse_long(x + 1, GEN_MIN_HEIGHT, LEVEL_MAX_SIDE, &lh))
		return false;
	*w = (int)lw;
	*h = (int)lh;
	return true;
}

/* Times and measures `count` levels from seed p->seed on. */
static int run_count(struct gen_params *p, long count)
{
	double t_min = 1e300, t_max = 0, t_sum = 0;
	long loops_sum = 0, loops_min = -1, route_min = -1, route_sum = 0;
	double share_sum = 0;
	long bad = 0, rooms = 0;
	uint64_t first = p->seed;
	for (long i = 0; i < count; i++) {
		p->seed = first + (uint64_t)i;
		struct gen_result r;
		char err[200];
		double t0 = clock_us();
		bool ok = gen_level(p, &r, err, sizeof err);
		double t = clock_us() - t0;
		if (!ok) {
			fprintf(stderr, "astray gen: seed %llu: %s\n", (unsigned long long)p->seed, err);
			return 1;
		}
		t_sum += t;
		t_min = t < t_min ? t : t_min;
		t_max = t > t_max ? t : t_max;
		struct gen_shape s;
		struct diag_list d = { 0 };
		int errors = level_analyse(r.level, NULL, &d);
		if (errors || d.warnings || !gen_measure(r.level, &s) || s.regions != 1 || s.route < 0) {
			fprintf(stderr, "astray gen: seed %llu fails the checks\n", (unsigned long long)p->seed);
			bad++;
		} else {
			loops_sum += s.loops;
			route_sum += s.route;
			loops_min = loops_min < 0 || s.loops < loops_min ? s.loops : loops_min;
			route_min = route_min < 0 || s.route < route_min ? s.route : route_min;
			share_sum += (double)s.on_route / (double)s.floor;
		}
		rooms += r.style == GEN_STYLE_ROOMS;
		diag_list_fini(&d);
		gen_result_free(&r);
	}
	long good = count - bad;
	printf("levels %ld (%s %dx%d depth %d style %s, seeds %llu..%llu; rooms %ld, caves %ld)\n", count,
	       grid_topology_name(p->topo), p->w, p->h, p->depth, gen_style_name(p->style),
	       (unsigned long long)first, (unsigned long long)(first + (uint64_t)count - 1), rooms, count - rooms);
	printf("time_ms mean %.3f min %.3f max %.3f\n", t_sum / 1000.0 / (double)count, t_min / 1000.0,
	       t_max / 1000.0);
	if (good > 0)
		printf("loops mean %.1f min %ld  route mean %.1f min %ld  on_route %.1f%%\n",
		       (double)loops_sum / (double)good, loops_min, (double)route_sum / (double)good, route_min,
		       100.0 * share_sum / (double)good);
	printf("failed %ld\n", bad);
	return bad ? 1 : 0;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_params p = { .depth = 1, .style = GEN_STYLE_MIXED };
	bool have_topo = false, have_seed = false, have_size = false;
	const char *outfile = NULL;
	long count = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			gen_usage(stdout);
			return 0;
		}
		static const char *const with_value[] = { "--topology", "--seed", "--size", "--depth",
							  "--style", "-o", "--count" };
		const char *name = NULL, *v = NULL;
		for (size_t k = 0; k < sizeof with_value / sizeof with_value[0] && !name; k++) {
			size_t n = strlen(with_value[k]);
			if (strcmp(a, with_value[k]) == 0) {
				name = with_value[k];
				if (i + 1 >= argc)
					return usage_error("%s needs a value", name);
				v = argv[++i];
			} else if (strncmp(a, with_value[k], n) == 0 && a[n] == '=') {
				name = with_value[k];
				v = a + n + 1;
			}
		}
		if (!name)
			return usage_error(a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", a);
		long n;
		if (strcmp(name, "--topology") == 0) {
			if (!grid_topology_parse(v, &p.topo) || !gen_supports(p.topo))
				return usage_error("unknown topology '%s' (expected square4, square8 or hex)", v);
			have_topo = true;
		} else if (strcmp(name, "--seed") == 0) {
			if (!cli_parse_seed(v, &p.seed))
				return usage_error("bad seed '%s' (expected a whole number from 0 to 2^64-1)", v);
			have_seed = true;
		} else if (strcmp(name, "--size") == 0) {
			if (!parse_size(v, &p.w, &p.h))
				return usage_error("bad size '%s' (expected WxH, at least 12x8, at most 4096x4096)", v);
			have_size = true;
		} else if (strcmp(name, "--depth") == 0) {
			if (!cli_parse_long(v, 1, GEN_MAX_DEPTH, &n))
				return usage_error("bad depth '%s' (expected 1 to 99)", v);
			p.depth = (int)n;
		} else if (strcmp(name, "--style") == 0) {
			if (!gen_style_parse(v, &p.style))
				return usage_error("unknown style '%s' (expected rooms, caves or mixed)", v);
		} else if (strcmp(name, "-o") == 0) {
			if (!*v)
				return usage_error("%s needs a file name", "-o");
			outfile = v;
		} else if (!cli_parse_long(v, 1, 100000000, &count)) {
			return usage_error("bad count '%s' (expected 1 to 100000000)", v);
		}
	}
	if (!have_topo)
		return usage_error("%s is required (square4, square8 or hex)", "--topology");
	if (!have_seed)
		return usage_error("%s is required (a whole number)", "--seed");
	if (!have_size)
		gen_default_size(p.topo, &p.w, &p.h);
	if (count > 0)
		return run_count(&p, count);

	struct gen_result r;
	char err[200];
	if (!gen_level(&p, &r, err, sizeof err)) {
		fprintf(stderr, "astray gen: %s\n", err);
		return 1;
	}
	FILE *f = outfile ? fopen(outfile, "w") : stdout;
	if (!f) {
		fprintf(stderr, "astray gen: cannot write %s: %s\n", outfile, strerror(errno));
		gen_result_free(&r);
		return 1;
	}
	bool ok = fwrite(r.text, 1, r.len, f) == r.len;
	ok = fflush(f) == 0 && ok && !ferror(f);
	int saved = errno;
	if (outfile)
		ok = fclose(f) == 0 && ok;
	gen_result_free(&r);
	if (!ok) {
		fprintf(stderr, "astray gen: cannot write %s: %s\n", outfile ? outfile : "standard output",
			strerror(saved ? saved : EIO));
		return 1;
	}
	return 0;
}
