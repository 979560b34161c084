/*
 * cmd_gen.c - `astray gen`: writes a generated level (gen.h) as a .lvl file
 * a designer can edit, or with --count times and measures a run of seeds.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "help.h"
#include "opt.h"
#include "gen.h"
#include "level.h"

struct gen_args {
	struct gen_params p;
	const char *outfile;     /* -o FILE, or NULL for standard output */
	int count;               /* --count N: a developer's run of N seeds; 0 none */
};

static bool parse_topo(const char *text, void *field)
{
	enum grid_topology *t = field;
	return grid_topology_parse(text, t) && gen_supports(*t);
}

static bool parse_style(const char *text, void *field)
{
	return gen_style_parse(text, field);
}

static bool parse_size(const char *text, void *field)
{
	struct gen_params *p = field;
	const char *x = strchr(text, 'x');
	if (!x || x == text || x - text > 15)
		return false;
	char a[16];
	memcpy(a, text, (size_t)(x - text));
	a[x - text] = '\0';
	long lw, lh;
	if (!cli_parse_long(a, GEN_MIN_WIDTH, LEVEL_MAX_SIDE, &lw) ||
	    !cli_parse_long(x + 1, GEN_MIN_HEIGHT, LEVEL_MAX_SIDE, &lh))
		return false;
	p->w = (int)lw;
	p->h = (int)lh;
	return true;
}

#define ARG(field) offsetof(struct gen_args, field)
static const struct opt gen_opts[] = {
	{ .name = "topology", .kind = OPT_CUSTOM, .offset = ARG(p.topo), .metavar = "T",
	  .help = "square4, square8, hex, diamond4 or diamond8 (required)", .parse = parse_topo,
	  .want = "square4, square8, hex, diamond4 or diamond8" },
	{ .name = "seed", .kind = OPT_SEED, .offset = ARG(p.seed), .metavar = "S",
	  .help = "0 to 2^64-1 (required)" },
	{ .name = "size", .kind = OPT_CUSTOM, .offset = ARG(p), .metavar = "WxH",
	  .help = "in cells, from 12x8 to 4096x4096; default one screen: 79x23, hex and diamond 39x23",
	  .parse = parse_size, .want = "WxH, from 12x8 to 4096x4096" },
	{ .name = "depth", .kind = OPT_INT, .offset = ARG(p.depth), .metavar = "D", .lo = 1, .hi = GEN_MAX_DEPTH,
	  .help = "1 to 99 (default 1): more and stronger monsters deeper" },
	{ .name = "style", .kind = OPT_CUSTOM, .offset = ARG(p.style), .metavar = "S",
	  .help = "rooms: rooms and corridors with doors; caves: a cellular automaton; mixed (default): "
		  "either, chosen from the seed",
	  .parse = parse_style, .want = "rooms, caves or mixed" },
	{ .name = "output", .short_name = 'o', .kind = OPT_STRING, .offset = ARG(outfile), .metavar = "FILE",
	  .help = "write to FILE instead of standard output" },
	{ .name = "count", .kind = OPT_INT, .offset = ARG(count), .metavar = "N", .lo = 1, .hi = 100000000,
	  .help = "developer: generate seeds S to S+N-1, write no level and print the time per level and "
		  "shape figures: loops, route length, share of the floor on a shortest route" },
};
#undef ARG

enum { GEN_OPT_TOPOLOGY, GEN_OPT_SEED, GEN_OPT_SIZE, GEN_N_OPTS = sizeof gen_opts / sizeof gen_opts[0] };

static void gen_usage(FILE *out);

static const struct opt_command gen_command = { "gen", gen_opts, (int)GEN_N_OPTS, gen_usage };

const struct opt_command *cmd_gen_opts(size_t *args_size)
{
	*args_size = sizeof(struct gen_args);
	return &gen_command;
}

static void gen_usage(FILE *out)
{
	help_usage(out, "gen",
		   (const char *const[]){ "--topology T --seed S [--size WxH] [--depth D] [--style rooms|caves|mixed] "
					  "[-o FILE] [--count N]", NULL });
	help_textf(out, 0,
		   "\nWrites a generated level as a .lvl file (to standard output, or FILE) that `astray check` "
		   "passes and a designer can edit.  The same topology, size, depth, style and seed give the same "
		   "bytes on every build; the level's description names them and the generator version (%d).",
		   GEN_VERSION);
	opt_print_help(out, &gen_command);
	help_text(out, 0,
		  "\nexit status: 0 written, 1 a write error or, with --count, a level that fails the checks, 2 "
		  "bad usage");
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
		char err[DIAG_ERR_LEN];
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
	struct gen_args a = { .p = { .depth = 1, .style = GEN_STYLE_MIXED } };
	struct opt_list rest = { 0 };
	bool given[GEN_N_OPTS] = { false };
	int status = opt_parse(&gen_command, argc, argv, &a, &rest, given);
	if (status < 0 && rest.n > 0)
		status = opt_usage_error(&gen_command, "unexpected argument '%s' (see astray gen --help)", rest.v[0]);
	opt_list_fini(&rest);
	if (status >= 0)
		return status;
	if (a.outfile && !*a.outfile)
		return opt_usage_error(&gen_command, "-o needs a file name (see astray gen --help)");
	struct gen_params p = a.p;
	const char *outfile = a.outfile;
	long count = a.count;
	bool have_topo = given[GEN_OPT_TOPOLOGY], have_seed = given[GEN_OPT_SEED], have_size = given[GEN_OPT_SIZE];
	if (!have_topo)
		return opt_usage_error(&gen_command, "--topology is required (square4, square8, hex, diamond4 or diamond8; see astray gen --help)");
	if (!have_seed)
		return opt_usage_error(&gen_command, "--seed is required (a whole number; see astray gen --help)");
	if (!have_size)
		gen_default_size(p.topo, &p.w, &p.h);
	if (count > 0)
		return run_count(&p, count);

	struct gen_result r;
	char err[DIAG_ERR_LEN];
	if (!gen_level(&p, &r, err, sizeof err)) {
		cli_message(stderr, "astray gen", err);
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
