/*
 * test_bestiary.c - the bestiary format: the shipped file, documented
 * defaults, every key read from text, every error message with its position
 * (tests/levels/bestiary/NAME.txt beside NAME.expect), and --set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "level.h"

static void test_shipped_bestiary(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &d));
	assert_int_equal(d.n, 0);
	assert_true(b.n >= 5 && b.n <= BESTIARY_MAX_KINDS);
	static const char *const names[] = { "rat", "goblin", "orc", "zombie", "bat", "ogre" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct monster_kind *k = bestiary_find_name(&b, names[i]);
		assert_non_null(k);
		assert_ptr_equal(bestiary_find_glyph(&b, k->glyph), k);
		assert_true(k->hp > 0 && k->sight > 0 && k->speed > 0 && k->repath >= 1);
	}
	/* the kinds that hunt by another mind than chase (docs/ai.md) */
	static const struct {
		const char *name;
		int mind;
	} minds[] = { { "jackal", MIND_PACK }, { "warg", MIND_PACK }, { "spider", MIND_AMBUSH }, { "lurker", MIND_AMBUSH } };
	for (size_t i = 0; i < sizeof minds / sizeof minds[0]; i++) {
		struct monster_kind *k = bestiary_find_name(&b, minds[i].name);
		assert_non_null(k);
		assert_int_equal(k->behaviour, minds[i].mind);
	}
	/* distinct feel: the rat outruns the zombie, the ogre outlasts them all */
	assert_true(bestiary_find_name(&b, "rat")->speed > bestiary_find_name(&b, "zombie")->speed);
	assert_true(bestiary_find_name(&b, "ogre")->hp > bestiary_find_name(&b, "orc")->hp);
	/* the trackers track, and nothing else does */
	for (int i = 0; i < b.n; i++) {
		const struct monster_kind *k = &b.kinds[i];
		assert_true((k->behaviour == MIND_TRACK) == (k->scent > 0));
	}
	assert_int_equal(bestiary_find_glyph(&b, 'd')->behaviour, MIND_TRACK);
	assert_int_equal(bestiary_find_glyph(&b, 'T')->behaviour, MIND_TRACK);
	assert_true(bestiary_find_glyph(&b, 'T')->scent > bestiary_find_glyph(&b, 'd')->scent);
	assert_null(bestiary_find_glyph(&b, '#'));
	assert_null(bestiary_find_name(&b, "dragon"));
	/* the archers: a band to keep, within what they see; the deeper, the
	 * longer the line and the faster or harder the shot */
	static const char *const archers[] = { "kobold", "shaman", "centaur" };
	for (size_t i = 0; i < sizeof archers / sizeof archers[0]; i++) {
		const struct monster_kind *k = bestiary_find_name(&b, archers[i]);
		assert_non_null(k);
		assert_int_equal(k->behaviour, MIND_RANGED);
		assert_true(k->keep >= 2 && k->keep < k->range && k->range <= k->sight);
		if (i > 0)
			assert_true(k->range > bestiary_find_name(&b, archers[i - 1])->range);
	}
	assert_true(bestiary_find_name(&b, "centaur")->speed > 100);
	diag_list_fini(&d);
}

static void test_defaults_match_docs(void **state)
{
	(void)state;
	static const char text[] = "kind: blob\nglyph: x\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("t", text, sizeof text - 1, &b, &d));
	const struct monster_kind *k = &b.kinds[0];
	assert_string_equal(k->name, "blob");
	assert_int_equal(k->glyph, 'x');
	assert_int_equal(k->hp, 5);
	assert_int_equal(k->damage, 1);
	assert_int_equal(k->speed, 100);
	assert_int_equal(k->sight, 8);
	assert_int_equal(k->memory, 10);
	assert_true(k->weight == 1.0);
	assert_true(k->penalty == 0.0);
	assert_int_equal(k->crowd, 4);
	assert_int_equal(k->repath, 1);
	assert_int_equal(k->budget, 0);
	assert_int_equal(k->lookahead, 3);
	assert_true(k->flee == 0.0);
	assert_int_equal(k->behaviour, MIND_CHASE);
	assert_int_equal(k->range, 0);
	assert_int_equal(k->keep, 2);
	assert_int_equal(k->reload, 0);
	assert_int_equal(k->scent, 0);   /* no kind tracks, sleeps or wanders unless it says so */
	assert_int_equal(k->sleep, 0);
	assert_int_equal(k->wander, 0);
	assert_true(k->dig == 0.0); /* no kind digs unless it says so */
	assert_int_equal(k->dig_turns, 3);
	/* every documented key has a doc line, and each default is in range */
	int n;
	const struct bestiary_key_doc *keys = bestiary_keys(&n);
	assert_int_equal(n, 38);
	assert_int_equal(k->patience, 20);
	assert_int_equal(k->swap, 1);
	assert_int_equal(k->wait_detour, 8);
	assert_int_equal(k->congestion, 0);
	assert_int_equal(k->hit, 70);
	assert_int_equal(k->evade, 0);
	assert_int_equal(k->xp, 0);
	assert_int_equal(k->heal, 0);
	/* a file with no rules block: every rule knob at its documented default */
	const struct bestiary_key_doc *rk = bestiary_rule_keys(&n);
	assert_int_equal(n, 11);
	assert_int_equal(b.rules.crowd, CROWD_PASS);
	struct rule_knobs want;
	bestiary_rules_defaults(&want);
	assert_memory_equal(&b.rules, &want, sizeof want);
	for (int i = 0; i < n; i++) {
		int v;
		memcpy(&v, (const char *)&b.rules + rk[i].offset, sizeof v);
		if (rk[i].type == BKEY_ENUM) { /* a word: the default names the value */
			assert_string_equal(rk[i].names[v], rk[i].def);
			continue;
		}
		assert_int_equal(v, atoi(rk[i].def));
		assert_true(strlen(rk[i].doc) > 5 && v >= rk[i].min && v <= rk[i].max);
	}
	for (int i = 0; i < n; i++) {
		assert_true(strlen(keys[i].doc) > 5);
		if (keys[i].def) {
			double v = atof(keys[i].def);
			assert_true(v >= keys[i].min && v <= keys[i].max);
		}
	}
	diag_list_fini(&d);
}

/* The designers' reference, levels/FORMAT.md, has a row for every key
 * and every rules key (a key added without one went unseen once). */
static void test_format_md_has_every_key(void **state)
{
	(void)state;
	FILE *f = fopen("levels/FORMAT.md", "rb");
	assert_non_null(f);
	static char text[1 << 17];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	assert_true(len > 0 && len < sizeof text - 1);
	text[len] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		int n;
		const struct bestiary_key_doc *keys = pass ? bestiary_rule_keys(&n) : bestiary_keys(&n);
		for (int i = 0; i < n; i++) {
			char row[64];
			snprintf(row, sizeof row, "| `%s` |", keys[i].key);
			if (!strstr(text, row))
				fail_msg("levels/FORMAT.md has no row for the key '%s'", keys[i].key);
		}
	}
}

static void test_every_key(void **state)
{
	(void)state;
	static const char text[] = "; all of them\r\n"
				   "kind: brute   ; a comment\r\n"
				   "glyph: B\r\n"
				   "hp: 40\r\ndamage: 7\r\nspeed: 90\r\nsight: 12\r\nmemory: 0\r\n"
				   "weight: 1.5\r\npenalty: 6.5\r\ncrowd: 0\r\nrepath: 4\r\nbudget: 5000\r\n"
				   "lookahead: 1\r\nflee: 0.5\r\nbehaviour: ranged\r\nrange: 6\r\nkeep: 3\r\n"
				   "reload: 2\r\ndig: 2.5\r\ndig_turns: 7\r\n"
				   "\r\n  kind: wisp\r\n  glyph: w\r\n  sight: 0\r\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("t", text, sizeof text - 1, &b, &d));
	assert_int_equal(b.n, 2);
	const struct monster_kind *k = bestiary_find_glyph(&b, 'B');
	assert_string_equal(k->name, "brute");
	assert_int_equal(k->hp, 40);
	assert_int_equal(k->damage, 7);
	assert_int_equal(k->speed, 90);
	assert_int_equal(k->sight, 12);
	assert_int_equal(k->memory, 0);
	assert_true(k->weight == 1.5);
	assert_true(k->penalty == 6.5);
	assert_int_equal(k->crowd, 0);
	assert_int_equal(k->repath, 4);
	assert_int_equal(k->budget, 5000);
	assert_int_equal(k->lookahead, 1);
	assert_true(k->flee == 0.5);
	assert_int_equal(k->behaviour, MIND_RANGED);
	assert_int_equal(k->range, 6);
	assert_int_equal(k->keep, 3);
	assert_int_equal(k->reload, 2);
	assert_true(k->dig == 2.5);
	assert_int_equal(k->dig_turns, 7);
	assert_int_equal(bestiary_find_glyph(&b, 'w')->sight, 0);
	assert_int_equal(bestiary_find_glyph(&b, 'w')->hp, 5);
	diag_list_fini(&d);
}

static void test_error_fixtures(void **state)
{
	(void)state;
	DIR *dir = opendir("tests/levels/bestiary");
	assert_non_null(dir);
	struct dirent *e;
	int seen = 0;
	while ((e = readdir(dir))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".txt") != 0)
			continue;
		char path[512], expect_path[512];
		snprintf(path, sizeof path, "tests/levels/bestiary/%s", e->d_name);
		snprintf(expect_path, sizeof expect_path, "tests/levels/bestiary/%.*s.expect", (int)l - 4, e->d_name);
		size_t elen;
		char *expect = level_read_file(expect_path, &elen);
		assert_non_null(expect);
		struct bestiary b;
		struct diag_list d = { 0 };
		assert_false(bestiary_load_file(path, &b, &d));
		char got[8192] = "";
		size_t used = 0;
		for (int i = 0; i < d.n; i++) {
			char line[800];
			diag_format(&d.items[i], line, sizeof line);
			used += (size_t)snprintf(got + used, sizeof got - used, "%s\n", line);
		}
		if (strcmp(got, expect) != 0) {
			print_error("%s:\n--- expected\n%s--- got\n%s", path, expect, got);
			fail();
		}
		free(expect);
		diag_list_fini(&d);
		seen++;
	}
	closedir(dir);
	assert_true(seen >= 10);
}

/* bestiary_describe: every key of the table for every kind, in the text
 * two equal bestiaries share and any override changes. */
static void test_describe(void **state)
{
	(void)state;
	struct bestiary b, c;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", &b, &d));
	c = b;
	char tb[8192], tc[8192];
	size_t nb = bestiary_describe(&b, tb, sizeof tb);
	assert_int_equal(nb, strlen(tb));
	assert_true(nb < sizeof tb);
	int count;
	const struct bestiary_key_doc *keys = bestiary_keys(&count);
	for (int i = 0; i < count; i++) {
		char word[64];
		snprintf(word, sizeof word, " %s ", keys[i].key);
		assert_non_null(strstr(tb, i == 0 ? "kind " : word));
	}
	assert_non_null(strstr(tb, "kind goblin glyph g "));
	/* the same kinds, the same text; the newest key changes it too */
	assert_int_equal(bestiary_describe(&c, tc, sizeof tc), nb);
	assert_string_equal(tb, tc);
	char err[256];
	assert_true(bestiary_set(&c, "goblin.lookahead=2", err, sizeof err));
	bestiary_describe(&c, tc, sizeof tc);
	assert_string_not_equal(tb, tc);
	/* a short buffer is cut with its NUL, and the whole length still told */
	char small[16];
	assert_int_equal(bestiary_describe(&b, small, sizeof small), nb);
	assert_int_equal(strlen(small), sizeof small - 1);
	assert_int_equal(bestiary_describe(&b, NULL, 0), nb);
	diag_list_fini(&d);
}

static void test_set(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", &b, &d));
	char err[DIAG_ERR_LEN];
	assert_true(bestiary_set(&b, "goblin.sight=3", err, sizeof err));
	assert_int_equal(bestiary_find_name(&b, "goblin")->sight, 3);
	assert_true(bestiary_set(&b, "rat.penalty=2.5", err, sizeof err));
	assert_true(bestiary_find_name(&b, "rat")->penalty == 2.5);
	assert_true(bestiary_set(&b, "rat.budget=100", err, sizeof err));
	assert_int_equal(bestiary_find_name(&b, "rat")->budget, 100);

	assert_false(bestiary_set(&b, "gobln.sight=3", err, sizeof err));
	assert_string_equal(err, "unknown kind 'gobln' in --set (kinds: rat, goblin; rules sets the game's knobs; or an item of the catalogue)");
	/* the game's knobs: rules.KEY */
	assert_true(bestiary_set(&b, "rules.arrival=0", err, sizeof err));
	assert_int_equal(b.rules.arrival, 0);
	assert_true(bestiary_set(&b, "rules.xp_base=40", err, sizeof err));
	assert_int_equal(b.rules.xp_base, 40);
	assert_false(bestiary_set(&b, "rules.arival=0", err, sizeof err));
	assert_non_null(strstr(err, "unknown key 'arival' in --set rules (keys: xp_base, level_max,"));
	assert_false(bestiary_set(&b, "rules.player_hit=101", err, sizeof err));
	assert_string_equal(err, "bad value '101' for 'player_hit': expected a whole number from 0 to 100");
	assert_int_equal(b.rules.player_hit, 75);
	assert_false(bestiary_set(&b, "goblin.sigth=3", err, sizeof err));
	{
		/* the message lists every settable key of the table, in its order */
		char want[512];
		int count, used = snprintf(want, sizeof want, "unknown key 'sigth' in --set goblin (keys: ");
		const struct bestiary_key_doc *kd = bestiary_keys(&count);
		bool first = true;
		for (int i = 0; i < count; i++)
			if (kd[i].type != BKEY_NAME && kd[i].type != BKEY_GLYPH) {
				used += snprintf(want + used, sizeof want - (size_t)used, "%s%s", first ? "" : ", ",
						 kd[i].key);
				first = false;
			}
		snprintf(want + used, sizeof want - (size_t)used, ")");
		assert_non_null(strstr(want, "hp, damage, speed, sight"));
		assert_string_equal(err, want);
	}
	assert_false(bestiary_set(&b, "goblin.glyph=x", err, sizeof err));
	assert_non_null(strstr(err, "unsettable key 'glyph'"));
	assert_false(bestiary_set(&b, "goblin.sight=-1", err, sizeof err));
	assert_string_equal(err, "bad value '-1' for 'sight': expected a whole number from 0 to 100");
	/* the range in the message is one the option accepts (issue 13) */
	assert_false(bestiary_set(&b, "goblin.budget=1e9", err, sizeof err));
	assert_string_equal(err, "bad value '1e9' for 'budget': expected a whole number from 0 to 1000000000");
	assert_true(bestiary_set(&b, "goblin.budget=1000000000", err, sizeof err));
	assert_int_equal(bestiary_find_name(&b, "goblin")->budget, 1000000000);
	assert_false(bestiary_set(&b, "goblin.flee=", err, sizeof err));
	assert_false(bestiary_set(&b, "goblin=3", err, sizeof err));
	assert_string_equal(err, "bad --set 'goblin=3': expected KIND.KEY=VALUE, e.g. goblin.sight=6");
	assert_int_equal(bestiary_find_name(&b, "goblin")->sight, 3); /* failures change nothing */
	diag_list_fini(&d);
}

/* The rules block: its keys set the game's knobs, a kind after it ends
 * it, and bestiary_describe tells them (so sim's config and a journal's
 * bestiary see a changed knob). */
static void test_rules_block(void **state)
{
	(void)state;
	static const char text[] = "kind: rat\nglyph: r\nrules:\narrival: 0   ; none\nheal: 7\n"
				   "kind: bat\nglyph: b\nhp: 2\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("t", text, sizeof text - 1, &b, &d));
	assert_int_equal(b.n, 2);
	assert_int_equal(b.rules.arrival, 0);
	assert_int_equal(b.rules.heal, 7);
	assert_int_equal(b.rules.xp_base, 15); /* unset: the default */
	assert_int_equal(bestiary_find_name(&b, "bat")->hp, 2);
	char buf[4096];
	bestiary_describe(&b, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nrules xp_base 15 level_max 20 "));
	assert_non_null(strstr(buf, " arrival 0 "));
	assert_non_null(strstr(buf, " heal 7 crowd pass\n"));
	/* the default worth of a kill: hp / 2 + 2 x damage, at least 1 */
	struct monster_kind k = *bestiary_find_name(&b, "bat");
	k.hp = 14;
	k.damage = 3;
	assert_int_equal(bestiary_xp_worth(&k), 13);
	k.xp = 5;
	assert_int_equal(bestiary_xp_worth(&k), 5);
	k.xp = 0;
	k.hp = 1;
	k.damage = 0;
	assert_int_equal(bestiary_xp_worth(&k), 1);
	diag_list_fini(&d);
}

static void test_default_path(void **state)
{
	(void)state;
	char buf[512];
	assert_string_equal(bestiary_default_path("levels/01-first-steps.lvl", buf, sizeof buf), "levels/bestiary.txt");
	assert_string_equal(bestiary_default_path("tests/levels/ok/hex.lvl", buf, sizeof buf), "levels/bestiary.txt");
	assert_string_equal(bestiary_default_path("tests/levels", buf, sizeof buf), "tests/levels/bestiary.txt");
	assert_string_equal(bestiary_default_path(NULL, buf, sizeof buf), "levels/bestiary.txt");
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file(bestiary_default_path("levels", buf, sizeof buf), &b, &d));
	assert_false(bestiary_load_file("no/such/bestiary.txt", &b, &d));
	assert_int_equal(d.errors, 1);
	assert_non_null(strstr(d.items[0].msg, "cannot read the bestiary"));
	diag_list_fini(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_bestiary),
		cmocka_unit_test(test_defaults_match_docs),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_format_md_has_every_key),
		cmocka_unit_test(test_error_fixtures),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_rules_block),
		cmocka_unit_test(test_default_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
