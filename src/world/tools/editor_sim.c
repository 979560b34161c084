/*
 * editor_sim.c - the quick sim of `astray edit` (S): games of `astray
 * sim` (sim_run_game, the same game code as play) on the level as it is
 * in memory, a few at a time so the editor stays live and a key stops
 * the run; the deaths and first contacts of its heat map are drawn over
 * the map.  The level is a copy taken at the start (written and parsed
 * back, as a save would give it), so edits during or after a run never
 * touch the games.
 */
#include "editor.h"
#include "editor_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct editor_sim {
	struct level *lv;          /* the level the games play (owned) */
	const struct bestiary *b;  /* borrowed */
	struct sim_runner *r;
	struct sim_heat heat;
	struct sim_options opt;
	uint64_t seed;
	struct editor_sim_result res;
	double turns_sum;
	int turns_n;
	bool failed;
};

struct editor_sim *editor_sim_start(struct editor *ed, const struct bestiary *b, int games, int player, int max_turns,
				    uint64_t seed, char *err, size_t errlen)
{
	if (!b || games < 1 || player < 0 || player >= SIM_PLAYER_COUNT || max_turns < 1) {
		snprintf(err, errlen, "%s", !b ? "no bestiary" : "bad settings");
		return NULL;
	}
	const struct diag_list *d = editor_diags(ed);
	int errors = d->errors - editor_file_errors(ed);
	if (errors > 0) {
		snprintf(err, errlen, "%d error%s (e shows them)", errors, errors == 1 ? "" : "s");
		return NULL;
	}
	size_t len;
	char *text = editor_write(ed, &len);
	struct editor_sim *s = text ? calloc(1, sizeof *s) : NULL;
	if (!s) {
		free(text);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	struct diag_list pd = { 0 };
	s->lv = level_parse(editor_file(ed), text, len, b, &pd);
	free(text);
	if (!s->lv) {
		snprintf(err, errlen, "%s", pd.n ? pd.items[0].msg : "out of memory");
		diag_list_fini(&pd);
		free(s);
		return NULL;
	}
	diag_list_fini(&pd);
	s->r = sim_runner_create();
	if (!s->r) {
		editor_sim_destroy(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sim_runner_set_heat(s->r, &s->heat);
	s->b = b;
	s->seed = seed;
	s->opt = (struct sim_options){ .player = (enum sim_player)player, .max_turns = max_turns };
	s->res.games = games;
	s->res.player = player;
	return s;
}

void editor_sim_destroy(struct editor_sim *s)
{
	if (!s)
		return;
	sim_runner_destroy(s->r);
	sim_heat_fini(&s->heat);
	level_destroy(s->lv);
	free(s);
}

int editor_sim_step(struct editor_sim *s, int games)
{
	for (int k = 0; k < games && !s->failed && s->res.done < s->res.games; k++) {
		struct sim_game out;
		struct diag_list d = { 0 };
		struct sim_level src = { .file = s->lv->file, .fixed = s->lv };
		int i = s->res.done;
		if (sim_run_game(s->r, &src, s->b, sim_game_seed(s->seed, i), &s->opt, &out, &d) < 0) {
			s->failed = true;
			diag_list_fini(&d);
			return -1;
		}
		diag_list_fini(&d);
		s->res.done++;
		if (out.outcome == SIM_ESCAPED)
			s->res.escaped++;
		else if (out.outcome == SIM_KILLED)
			s->res.killed++;
		else
			s->res.out_of_turns++;
		if (!isnan(out.v[SIM_M_TURNS])) {
			s->turns_sum += out.v[SIM_M_TURNS];
			s->turns_n++;
		}
		s->res.mean_turns = s->turns_n ? s->turns_sum / s->turns_n : 0;
	}
	return s->res.done;
}

bool editor_sim_finished(const struct editor_sim *s)
{
	return s->failed || s->res.done >= s->res.games;
}

const struct editor_sim_result *editor_sim_result(const struct editor_sim *s)
{
	return &s->res;
}

const double *editor_sim_heat(const struct editor_sim *s, bool deaths, int *w, int *h, double *max)
{
	*w = s->heat.w;
	*h = s->heat.h;
	*max = 0;
	if (s->heat.w == 0)
		return NULL;
	const double *v = s->heat.v[deaths ? SIM_HEAT_DEATHS : SIM_HEAT_CONTACT];
	size_t n = (size_t)s->heat.w * (size_t)s->heat.h;
	for (size_t i = 0; i < n; i++)
		if (v[i] > *max)
			*max = v[i];
	return v;
}

const char *editor_sim_player_name(int player)
{
	return player >= 0 && player < SIM_PLAYER_COUNT ? sim_player_name((enum sim_player)player) : "?";
}

int editor_sim_players(void)
{
	return SIM_PLAYER_COUNT;
}
