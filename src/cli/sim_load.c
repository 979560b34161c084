/*
 * sim_load.c - what `astray sim` loads before its first game: the
 * bestiary with --set, the level files (a folder standing for its .lvl
 * files), the run of --generate, --record's folder and texts, and the
 * config fingerprint of each side.  Problems are printed here, as the
 * command's own; it plays nothing and writes no report (sim_workers.c,
 * sim_write.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bestiary.h"
#include "cli.h"
#include "cmd.h"
#include "diag.h"
#include "dungeon.h"
#include "gen.h"
#include "heatmap.h"
#include "level.h"
#include "opt.h"
#include "sim.h"
#include "sim_cmd.h"
#include "textfile.h"

#ifndef ASTRAY_DATADIR
#define ASTRAY_DATADIR "/usr/local/share/astray"
#endif

/* The bestiary of a run with no level file (--generate, --dungeon) into
 * path: bestiary.txt here, the source tree's or the installed one (as
 * bestiary_default_path looks), else the one of the tree or prefix the
 * program itself lies in (cli_bestiary_path), so that build/astray works
 * from any folder.  False with every place looked at said. */
static bool generated_bestiary(bool dungeon, bool quiet, char *path, size_t size)
{
	if (cli_bestiary_path(".", path, size))
		return true;
	if (quiet)
		return false;
	fprintf(stderr, "astray sim: --%s needs a bestiary and found none: not ./bestiary.txt, not levels/bestiary.txt "
			"of the source tree, not the installed %s/levels/bestiary.txt",
		dungeon ? "dungeon" : "generate", ASTRAY_DATADIR);
	char dirs[CLI_OWN_DIRS][CLI_PATH_MAX];
	int k = cli_program_level_dirs(dirs);
	for (int i = 0; i < k; i++)
		fprintf(stderr, ", not %s/bestiary.txt", dirs[i]);
	fprintf(stderr, "; give --bestiary FILE (the items.txt beside it is read too)\n");
	return false;
}

bool sim_load_bestiary_file(const struct sim_args *a, char *path, size_t size, uint64_t *hash)
{
	bool found;
	if (a->bestiary)
		found = snprintf(path, size, "%s", a->bestiary) < (int)size;
	else if (a->generate || a->dungeon)
		found = generated_bestiary(a->dungeon, true, path, size);
	else
		found = cli_bestiary_path(a->levels.v[0], path, size) != NULL;
	char *text = NULL;
	size_t len = 0;
	if (!found || textfile_read(path, &text, &len) != 0)
		return false;
	*hash = heatmap_text_hash(text, len);
	free(text);
	return true;
}

/* False with the message printed; *usage is 2 for a bad --set value, else
 * left alone. */
bool sim_load_bestiary(const struct sim_args *a, const struct opt_command *cmd, struct bestiary *b,
		       int *usage)
{
	struct diag_list d = { 0 };
	char path[4096];
	bool ok;
	if (a->bestiary)
		ok = bestiary_load_file(a->bestiary, b, &d);
	else if (a->generate || a->dungeon)
		ok = generated_bestiary(a->dungeon, false, path, sizeof path) && bestiary_load_file(path, b, &d);
	else
		ok = cli_bestiary_load(a->levels.v[0], b, &d);
	cli_print_diags(stderr, &d, false, false);
	diag_list_fini(&d);
	if (!ok)
		return false;
	for (int i = 0; i < a->sets.n; i++) {
		char err[DIAG_ERR_LEN];
		if (!bestiary_set(b, a->sets.v[i], err, sizeof err)) {
			*usage = opt_usage_error(cmd, "--set %s: %s", a->sets.v[i], err);
			return false;
		}
	}
	return true;
}

bool sim_load_monster_glyph(const struct sim_args *a, struct bestiary *b, char *glyph)
{
	if (!a->monsters.kind) {
		if (b->n == 0) {
			fprintf(stderr, "astray sim: the bestiary has no monster kinds\n");
			return false;
		}
		*glyph = b->kinds[0].glyph;
		return true;
	}
	const struct monster_kind *k = bestiary_find_name(b, a->monsters.kind);
	if (!k && strlen(a->monsters.kind) == 1)
		k = bestiary_find_glyph(b, a->monsters.kind[0]);
	if (!k) {
		fprintf(stderr, "astray sim: --monsters: unknown monster kind '%s'\n", a->monsters.kind);
		return false;
	}
	*glyph = k->glyph;
	return true;
}

/* Appends `path` (copied) to out; false on no memory. */
static bool push_name(char ***out, int *n, int *cap, const char *path)
{
	if (*n == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		char **grown = realloc(*out, (size_t)nc * sizeof *grown);
		if (!grown)
			return false;
		*out = grown;
		*cap = nc;
	}
	char *copy = strdup(path);
	if (copy)
		(*out)[(*n)++] = copy;
	return copy != NULL;
}

/*
 * The level files to run: each argument, a folder standing for its .lvl
 * files in name order (the campaign order).  The names are owned by the
 * array (cli_names_free).  NULL on error, already reported.
 */
char **sim_load_files(const struct sim_args *a, int *n_out)
{
	char **out = NULL;
	int n = 0, cap = 0;
	bool ok = true;
	for (int i = 0; ok && i < a->levels.n; i++) {
		const char *arg = a->levels.v[i];
		struct stat st;
		if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
			ok = push_name(&out, &n, &cap, arg);
			if (!ok)
				fprintf(stderr, "astray sim: out of memory\n");
			continue;
		}
		int k = 0;
		char **names = cli_level_files(arg, &k);
		if (!names || k == 0) {
			const char *why = names ? "no .lvl files in this folder" : strerror(errno);
			fputs("astray sim: ", stderr);
			cli_put_escaped(stderr, arg);
			fprintf(stderr, ": %s\n", why);
			ok = false;
		}
		for (int j = 0; ok && j < k; j++) {
			ok = push_name(&out, &n, &cap, names[j]);
			if (!ok)
				fprintf(stderr, "astray sim: out of memory\n");
		}
		cli_names_free(names, k);
	}
	if (!ok) {
		cli_names_free(out, n);
		return NULL;
	}
	*n_out = n;
	return out;
}

/* The one run of --generate; its first level is made now so a bad size is reported before any game. */
bool sim_load_generated(const struct sim_args *a, const struct bestiary *b, struct sim_level_run *lr)
{
	lr->gen = (struct sim_gen){ .topos = a->gen_topos, .n_topos = a->n_gen_topos, .w = a->size.w,
				    .h = a->size.h, .depth = a->depth };
	size_t k = (size_t)snprintf(lr->name, sizeof lr->name, "gen:");
	for (int i = 0; i < a->n_gen_topos && k < sizeof lr->name; i++)
		k += (size_t)snprintf(lr->name + k, sizeof lr->name - k, "%s%s", i ? "," : "",
				      grid_topology_name(a->gen_topos[i]));
	if (k < sizeof lr->name && a->size.w)
		k += (size_t)snprintf(lr->name + k, sizeof lr->name - k, ":%dx%d", a->size.w, a->size.h);
	if (k < sizeof lr->name)
		snprintf(lr->name + k, sizeof lr->name - k, ":d%d", a->depth);
	lr->src.file = lr->name;
	lr->src.gen = &lr->gen;
	struct gen_params p = { .topo = a->gen_topos[0], .w = a->size.w, .h = a->size.h, .depth = a->depth,
				.seed = sim_game_seed(a->seed, 0), .bestiary = b };
	if (!p.w)
		gen_default_size(p.topo, &p.w, &p.h);
	struct gen_result res;
	char err[DIAG_ERR_LEN];
	if (!gen_level(&p, &res, err, sizeof err)) {
		fprintf(stderr, "astray sim: --generate: %s\n", err);
		return false;
	}
	lr->monsters = res.level->n_monsters;
	gen_result_free(&res);
	return true;
}

bool sim_load_dungeon(const struct sim_args *a, const struct bestiary *b, struct sim_level_run *lr)
{
	snprintf(lr->name, sizeof lr->name, "dungeon:d%d", a->depth);
	lr->src.file = lr->name;
	lr->src.dungeon = a->depth;
	struct dungeon d;
	char err[DIAG_ERR_LEN];
	if (!dungeon_create(sim_game_seed(a->seed, 0), a->depth, b, &d, err, sizeof err)) {
		fprintf(stderr, "astray sim: --dungeon: %s\n", err);
		return false;
	}
	lr->monsters = d.levels[0]->n_monsters;
	dungeon_fini(&d);
	return true;
}

bool sim_load_level(const struct sim_args *a, const struct bestiary *b, char glyph, struct sim_level_run *lr,
		    const char *file)
{
	size_t len = 0;
	struct diag_list d = { 0 };
	int err = textfile_read(file, &lr->text, &len);
	if (err) {
		fputs("astray sim: ", stderr);
		cli_put_escaped(stderr, file);
		fprintf(stderr, ": %s\n", textfile_strerror(err));
		return false;
	}
	lr->src.file = file;
	if (cli_ends_with(file, ".map")) {
		lr->src.map_text = lr->text;
		lr->src.map_len = len;
		lr->src.map_monsters = a->monsters.n >= 0 ? a->monsters.n : SIM_DEFAULT_MAP_MONSTERS;
		lr->src.map_glyph = glyph;
		lr->text_hash = heatmap_text_hash(lr->text, len);
		/* Load it once now so a bad map is reported before any game. */
		struct level *probe = level_from_movingai(file, lr->text, len, sim_game_seed(a->seed, 0),
							  lr->src.map_monsters, glyph, &d);
		lr->monsters = probe ? probe->n_monsters : 0;
		level_destroy(probe);
		cli_print_diags(stderr, &d, true, false);
		bool ok = probe != NULL;
		diag_list_fini(&d);
		return ok;
	}
	lr->parsed = level_parse(file, lr->text, len, b, &d);
	cli_print_diags(stderr, &d, true, false);
	diag_list_fini(&d);
	if (!lr->parsed)
		return false;
	lr->src.fixed = lr->parsed;
	lr->text_hash = heatmap_text_hash(lr->text, len);
	lr->src.fixed_text = lr->text;
	lr->src.fixed_len = len;
	lr->monsters = lr->parsed->n_monsters;
	return true;
}

/*
 * The per-game CSV's config column: a fingerprint of everything besides
 * the seed that a game depends on (the scripted player, --turns, --chase,
 * --monsters, --generate's size and depth, every knob of every kind after
 * --bestiary, --set and the side's --compare settings, and the level
 * file's text), so that sim-report refuses to merge files of different
 * runs as one.  The time columns and --jobs are not in it.
 */
uint64_t sim_load_config(const struct sim_args *a, const struct bestiary *b, uint64_t level_hash)
{
	/* a kind's line is under 448 bytes, the rules line under 512: no cut */
	char text[256 + BESTIARY_MAX_KINDS * 448 + 512];
	int head = snprintf(text, sizeof text, "astray-sim-config 1\nplayer %d\nturns %d\nchase %d\nmonsters %d %s\n"
			    "size %dx%d\ndepth %d\nlevel %016llx\n", (int)a->opt.player, a->opt.max_turns,
			    a->opt.chase ? 1 : 0, a->monsters.n, a->monsters.kind ? a->monsters.kind : "-",
			    a->size.w, a->size.h, a->depth, (unsigned long long)level_hash);
	size_t n = head > 0 && (size_t)head < sizeof text ? (size_t)head : 0;
	if (a->dungeon) /* only then, so the fingerprints of other runs stay as they were */
		n += (size_t)snprintf(text + n, sizeof text - n, "dungeon\n");
	n += bestiary_describe(b, text + n, sizeof text - n);
	return heatmap_text_hash(text, n < sizeof text ? n : sizeof text - 1);
}

/* Splits a --compare settings list as sim_apply_settings does, appending copies to list. */
static bool split_settings(const char *p, char ***list, int *n, int *cap)
{
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (!*p)
			return true;
		size_t k = strcspn(p, " ,\t");
		char one[256];
		snprintf(one, sizeof one, "%.*s", (int)(k < sizeof one ? k : sizeof one - 1), p);
		if (!push_name(list, n, cap, one))
			return false;
		p += k;
	}
}

bool sim_load_record(const struct sim_args *a, struct sim_play *pc, struct sim_record_ctx *rc)
{
	if (mkdir(a->record, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "astray sim: --record %s: %s\n", a->record, strerror(errno));
		return false;
	}
	uint64_t hash;
	const char *path = sim_load_bestiary_file(a, rc->bestiary_path, sizeof rc->bestiary_path, &hash)
				   ? rc->bestiary_path : a->bestiary;
	size_t len = 0;
	int err = path ? textfile_read(path, &rc->bestiary_text, &len) : ENOENT;
	if (err) {
		fprintf(stderr, "astray sim: --record: the bestiary %s: %s\n", path ? path : "", strerror(err));
		return false;
	}
	for (int s = 0; s < pc->sides; s++) {
		int cap = 0;
		bool ok = true;
		for (int i = 0; ok && i < a->sets.n; i++)
			ok = push_name(&rc->sets[s], &rc->n_sets[s], &cap, a->sets.v[i]);
		if (ok && a->compare[0])
			ok = split_settings(a->compare[s], &rc->sets[s], &rc->n_sets[s], &cap);
		if (!ok) {
			fprintf(stderr, "astray sim: out of memory\n");
			return false;
		}
		pc->rec[s] = (struct sim_record){
			.dir = a->record, .program = ASTRAY_VERSION, .bestiary_name = path,
			.bestiary_text = rc->bestiary_text, .bestiary_len = len,
			.sets = (const char *const *)rc->sets[s], .n_sets = rc->n_sets[s],
			.side = a->compare[0] ? (s ? "B" : "A") : NULL,
			.force = a->force,
		};
	}
	return true;
}

void sim_load_record_fini(struct sim_record_ctx *rc)
{
	free(rc->bestiary_text);
	cli_names_free(rc->sets[0], rc->n_sets[0]);
	cli_names_free(rc->sets[1], rc->n_sets[1]);
}
