/*
 * bestiary.c - monster kinds and their tuning knobs, read from a small text
 * format (levels/bestiary.txt):
 *
 *     ; comment
 *     kind: goblin        starts a kind; the name is the KIND of --set
 *     glyph: g            its letter on maps (required)
 *     hp: 8               any key of the table below; unset keys keep their default
 *     rules:              starts the block of the game's own knobs (rule_keys below),
 *     arrival: 2          which runs to the next kind: or the end of the file
 *
 * The table `keys` is the whole format: each row names a key, its type, the
 * field of struct monster_kind it fills, its default, range and meaning, so
 * a new knob is one row here and one field in bestiary.h.  The parser never
 * prints: errors go to a diag_list with file:line:col.
 */
#include "bestiary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textfile.h"

#ifndef ASTRAY_DATADIR
#define ASTRAY_DATADIR "/usr/local/share/astray"
#endif

#define KEY(name, type, field, def, lo, hi, doc) \
	{ name, def, doc, type, offsetof(struct monster_kind, field), lo, hi, NULL }
#define ENUM_KEY(name, field, def, names, doc) \
	{ name, def, doc, BKEY_ENUM, offsetof(struct monster_kind, field), 0, 0, names }

/* enum mind_kind's names, in its order */
static const char *const mind_names[] = { "chase", "pack", "ranged", "dig", "track", "ambush", "swarm", "breed", NULL };

/* enum crowd_rule's names, in its order */
static const char *const crowd_rule_names[] = { "detour", "pass", NULL };

const char *bestiary_mind_name(int mind)
{
	return mind >= 0 && mind < MIND_COUNT ? mind_names[mind] : "?";
}

static const struct bestiary_key_doc keys[] = {
	KEY("kind", BKEY_NAME, name, NULL, 0, 0,
	    "starts a new kind and names it (letters, digits, - and _, at most 31); the KIND of --set KIND.KEY=VALUE"),
	KEY("glyph", BKEY_GLYPH, glyph, NULL, 0, 0,
	    "the letter that stands for this kind on maps (a-z or A-Z, one kind per letter)"),
	KEY("about", BKEY_TEXT, about, "", 0, 79,
	    "one line for the player, shown by a right click and the cursor: how it hunts (\"hunts in packs, fast\"); at most 79 characters, no ';'"),
	KEY("hp", BKEY_INT, hp, "5", 1, 10000, "hit points"),
	KEY("damage", BKEY_INT, damage, "1", 0, 1000, "damage dealt by one hit"),
	KEY("speed", BKEY_INT, speed, "100", 1, 1000,
	    "energy gained per turn; 100 acts once a turn, 200 twice, 50 every other turn"),
	KEY("sight", BKEY_INT, sight, "8", 0, 100,
	    "sight radius in cells; 0 never sees the player and so never hunts"),
	KEY("memory", BKEY_INT, memory, "10", 0, 100000,
	    "turns it keeps hunting the player's last seen position after losing sight; 0 forgets at once"),
	KEY("weight", BKEY_DOUBLE, weight, "1", 0, 100,
	    "heuristic weight of its searches: 1 exact A*, above 1 faster and greedier, 0 Dijkstra"),
	KEY("penalty", BKEY_DOUBLE, penalty, "0", 0, 1e9,
	    "fallback penalty P per wall on the way; 0 = automatic (takes any detour); a small P gives up long detours and presses against the wall nearest its prey"),
	KEY("crowd", BKEY_INT, crowd, "4", 0, 1000,
	    "extra cost of entering a cell held by another monster; higher spreads a pack over other corridors"),
	KEY("repath", BKEY_INT, repath, "1", 1, 1000,
	    "recompute the route every N turns (and at once when it is blocked)"),
	KEY("budget", BKEY_LONG, budget, "0", 0, 1e9,
	    "maximum cells expanded per search, 0 = unlimited; past it the monster follows the best partial path"),
	KEY("lookahead", BKEY_INT, lookahead, "3", 1, 16,
	    "on levels of more than 32,768 open cells, a crowd detour looks this many times as far as the monster walks on it before it replans; 1 thinks up to 2-3x faster in crowds of thousands but waits and dithers more"),
	KEY("flee", BKEY_DOUBLE, flee, "0", 0, 1,
	    "below this fraction of its hit points it runs away; 0 never flees"),
	ENUM_KEY("behaviour", behaviour, "chase", mind_names,
		 "how it hunts (docs/ai.md): chase the player by the shortest route; pack: each member takes another "
		 "side of the player; ranged: keeps its distance in sight and shoots; dig: through walls; track: "
		 "follows the scent or the noise it lost; ambush: waits at a chokepoint of the way to the stairs; "
		 "swarm: holds back until enough are near, then rushes together; breed: buds off another while unseen"),
	KEY("range", BKEY_INT, range, "0", 0, 16,
	    "behaviour ranged: the farthest it shoots, in steps, with a line of sight (and within its sight); 0 never shoots"),
	KEY("keep", BKEY_INT, keep, "2", 0, 16,
	    "behaviour ranged: it backs off while you could reach it in fewer turns than this (at most range), and shoots from there on out"),
	KEY("reload", BKEY_INT, reload, "0", 0, 100,
	    "behaviour ranged: its own actions after a shot before it may shoot again; 0 shoots every action"),
	KEY("scent", BKEY_INT, scent, "0", 0, 100000,
	    "behaviour track: turns the player's trail stays fresh to it (it follows cells the player stood on "
	    "this many turns ago or less; water keeps no scent); 0 does not track"),
	KEY("sleep", BKEY_INT, sleep, "0", 0, 100,
	    "chance in percent that it starts the level asleep: it sees nothing until a noise or the player "
	    "next to it wakes it"),
	KEY("wander", BKEY_INT, wander, "0", 0, 1,
	    "1: awake and not hunting, it walks between random cells near it and goes to look at noises it "
	    "hears; 0: it waits where it is"),
	KEY("dig", BKEY_DOUBLE, dig, "0", 0, 1e6,
	    "behaviour dig: what its plans add for each wall it would dig through, in steps (the fallback's P); "
	    "dig_turns + 1 is the true time; 0 never digs"),
	KEY("dig_turns", BKEY_INT, dig_turns, "3", 1, 1000,
	    "behaviour dig: turns of work that turn one wall into rubble (it then steps in at rubble's cost 2)"),
	KEY("pack", BKEY_INT, pack, "4", 1, 8,
	    "behaviour pack: within this many cells of the player a member takes a free cell beside it that no other "
	    "member takes (or, in a corridor, a cell of the player's way to the stairs) and comes to it from its own "
	    "side; farther away it chases"),
	KEY("ambush", BKEY_INT, ambush, "2", 1, 8,
	    "behaviour ambush: a waiting ambusher strikes when the player comes within this many cells (or when it "
	    "sees the player), then hunts as a chaser"),
	KEY("hit", BKEY_INT, hit, "70", 0, 100,
	    "chance in percent that its blow or shot hits you when you wear no armour (armour takes points from it); "
	    "at least 5, at most 100"),
	KEY("evade", BKEY_INT, evade, "0", 0, 100,
	    "percent points taken from your chance to hit it (quick or small things are hard to hit)"),
	KEY("xp", BKEY_INT, xp, "0", 0, 100000,
	    "experience you gain for killing it; 0 = hp / 2 + 2 x damage (at least 1)"),
	KEY("heal", BKEY_INT, heal, "0", 0, 100000,
	    "it regains 1 hp every this many turns while hurt; 0 = the rules' heal (rules block)"),
	KEY("swarm", BKEY_INT, swarm, "4", 1, 50,
	    "behaviour swarm: members (of any swarm kind) hunting within gather + 2 turns of the player before "
	    "they rush it together; fewer hold back"),
	KEY("gather", BKEY_INT, gather, "4", 1, 16,
	    "behaviour swarm: while too few are near, a member holds this many of the player's turns away "
	    "(backing off when nearer) and bites only when cornered"),
	KEY("patience", BKEY_INT, patience, "20", 0, 1000,
	    "behaviour swarm: its own actions in a row a member holds near the player before it gives up waiting "
	    "and rushes, with every member near the player, until it loses sight of the player; 0 holds for ever "
	    "(a swarm too small ever to gather, fewer members alive on the level than swarm, rushes at once).  "
	    "Behaviour ranged: its own actions in a row it backs off from the player before it stands its "
	    "ground, for as long as the player presses it; 0 backs off for ever"),
	KEY("breed", BKEY_INT, breed, "0", 0, 1000,
	    "behaviour breed: its own actions out of the player's sight (neither sees the other) after which it "
	    "buds off another of its kind on a free cell beside it; 0 never"),
	KEY("breed_max", BKEY_INT, breed_max, "8", 1, 64,
	    "behaviour breed: the most of this kind the level may ever hold, the slain counted"),
	KEY("swap", BKEY_INT, swap, "1", 0, 2,
	    "rules crowd pass: 1 lets a hunter push this monster on along the field (it spends its own move) or swap "
	    "with it while it hunts nothing; 2 also lets one of higher priority push it aside; 0 never"),
	KEY("wait_detour", BKEY_INT, wait_detour, "8", 0, 1000,
	    "rules crowd pass: its actions with no free step nearer the target before it searches a detour round the "
	    "crowd (with crowd > 0)"),
	KEY("congestion", BKEY_INT, congestion, "0", 0, 10000,
	    "rules crowd pass: hundredths of a step added to a cell for each hunter that wanted it this turn, when this "
	    "kind picks its step, so crowds spread over parallel ways"),
};

#define RULE_KEY(name, field, def, lo, hi, doc) \
	{ name, def, doc, BKEY_INT, offsetof(struct rule_knobs, field), lo, hi, NULL }

/* The `rules:` block: knobs of the whole game, not of one kind. */
static const struct bestiary_key_doc rule_keys[] = {
	RULE_KEY("xp_base", xp_base, "15", 1, 1000000,
		 "experience for level 2; level L needs xp_base x L x (L - 1) / 2 in all (15: 15, 45, 90, 150...)"),
	RULE_KEY("level_max", level_max, "20", 1, 100, "the highest experience level"),
	RULE_KEY("level_hp", level_hp, "5", 0, 1000, "max hp gained with each level (and healed at once)"),
	RULE_KEY("level_hit", level_hit, "2", 0, 100, "percent points of your chance to hit gained with each level"),
	RULE_KEY("level_damage", level_damage, "2", 1, 100, "your damage rises by 1 every this many levels"),
	RULE_KEY("player_hit", player_hit, "75", 0, 100,
		 "your chance to hit in percent at level 1, before equipment and the monster's evade (at least 5, "
		 "at most 100)"),
	RULE_KEY("arrival", arrival, "2", 0, 1000,
		 "wandering monsters that arrive per 1000 turns when a level is entered; 0 = none ever arrive"),
	RULE_KEY("arrival_ramp", arrival_ramp, "200", 1, 1000000,
		 "the arrival rate grows by its start value every this many turns the level is held"),
	RULE_KEY("arrival_max", arrival_max, "8", 0, RULES_ARRIVAL_MAX,
		 "the most wandering monsters that arrive on one level"),
	RULE_KEY("heal", heal, "20", 0, 100000,
		 "a hurt monster regains 1 hp every this many turns (a kind's heal key overrides); 0 = never"),
	{ "crowd", "pass",
	  "how hunters of the shared distance field move in a crowd: pass (push the crowd ahead, detour only when "
	  "walled in) or detour (rules version 4: search a detour as soon as the next cell is held)",
	  BKEY_ENUM, offsetof(struct rule_knobs, crowd), 0, 0, crowd_rule_names },
};

#define N_RULE_KEYS ((int)(sizeof rule_keys / sizeof rule_keys[0]))

const struct bestiary_key_doc *bestiary_rule_keys(int *count)
{
	if (count)
		*count = N_RULE_KEYS;
	return rule_keys;
}

int bestiary_xp_worth(const struct monster_kind *k)
{
	if (k->xp > 0)
		return k->xp;
	int xp = k->hp / 2 + 2 * k->damage;
	return xp > 0 ? xp : 1;
}

#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

const struct bestiary_key_doc *bestiary_keys(int *count)
{
	if (count)
		*count = N_KEYS;
	return keys;
}

/* One line of bestiary_describe: every key of `table` with its value in
 * the struct at base, "KEY VALUE" pairs after `lead`. */
static size_t describe_row(const char *base, const struct bestiary_key_doc *table, int n_keys, const char *lead,
			   char *buf, size_t size, size_t n)
{
	if (lead) {
		int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s", lead);
		n += w > 0 ? (size_t)w : 0;
	}
	for (int i = 0; i < n_keys; i++) {
		const char *field = base + table[i].offset;
		char value[64];
		int iv;
		long lv;
		double dv;
		switch (table[i].type) {
		case BKEY_GLYPH:
			snprintf(value, sizeof value, "%c", *field);
			break;
		case BKEY_NAME:
			snprintf(value, sizeof value, "%.31s", field);
			break;
		case BKEY_INT:
			memcpy(&iv, field, sizeof iv);
			snprintf(value, sizeof value, "%d", iv);
			break;
		case BKEY_LONG:
			memcpy(&lv, field, sizeof lv);
			snprintf(value, sizeof value, "%ld", lv);
			break;
		case BKEY_ENUM:
			memcpy(&iv, field, sizeof iv);
			snprintf(value, sizeof value, "%s", table[i].names[iv]);
			break;
		case BKEY_TEXT: /* its words joined by _, so the line stays KEY VALUE pairs */
			snprintf(value, sizeof value, "%.63s", field[0] ? field : "-");
			for (char *c = value; *c; c++)
				if (*c == ' ')
					*c = '_';
			break;
		default:
			memcpy(&dv, field, sizeof dv);
			snprintf(value, sizeof value, "%.17g", dv);
			break;
		}
		int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s %s",
				 i || lead ? " " : "", table[i].key, value);
		n += w > 0 ? (size_t)w : 0;
	}
	int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "\n");
	return n + (w > 0 ? (size_t)w : 0);
}

size_t bestiary_describe(const struct bestiary *b, char *buf, size_t size)
{
	size_t n = 0;
	for (int k = 0; k < b->n; k++)
		n = describe_row((const char *)&b->kinds[k], keys, N_KEYS, NULL, buf, size, n);
	n = describe_row((const char *)&b->rules, rule_keys, N_RULE_KEYS, "rules", buf, size, n);
	if (size > 0 && n == 0)
		buf[0] = '\0';
	return n;
}

static const struct bestiary_key_doc *find_key(const char *name, size_t len)
{
	for (int i = 0; i < N_KEYS; i++)
		if (strlen(keys[i].key) == len && memcmp(keys[i].key, name, len) == 0)
			return &keys[i];
	return NULL;
}

static bool is_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof ((struct monster_kind *)0)->name)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!is_letter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '_')
			return false;
	}
	return true;
}

/*
 * Stores a numeric value (text s of length n) into the field of k that key
 * describes.  On failure writes why into err and returns false.
 */
static bool set_number(void *k, const struct bestiary_key_doc *key, const char *s, size_t n,
		       char *err, size_t errlen)
{
	char buf[64];
	if (key->type == BKEY_TEXT) {
		char *field = (char *)k + key->offset;
		if (n > (size_t)key->max) {
			snprintf(err, errlen, "'%s' is %zu characters long: at most %.0f", key->key, n, key->max);
			return false;
		}
		memcpy(field, s, n);
		field[n] = '\0';
		return true;
	}
	if (key->type == BKEY_ENUM) {
		for (int i = 0; key->names[i]; i++)
			if (strlen(key->names[i]) == n && memcmp(key->names[i], s, n) == 0) {
				memcpy((char *)k + key->offset, &i, sizeof i);
				return true;
			}
		int w = snprintf(err, errlen, "unknown %s '%.*s': expected one of", key->key, (int)(n > 30 ? 30 : n), s);
		for (int i = 0; key->names[i] && w > 0 && (size_t)w < errlen; i++)
			w += snprintf(err + w, errlen - (size_t)w, "%s %s", i ? "," : "", key->names[i]);
		return false;
	}
	bool whole = key->type == BKEY_INT || key->type == BKEY_LONG;
	if (n == 0 || n >= sizeof buf)
		goto bad;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	if (whole) {
		long v = strtol(buf, &end, 10);
		if (*end || errno || v < key->min || v > key->max)
			goto bad;
		char *field = (char *)k + key->offset;
		if (key->type == BKEY_INT) {
			int iv = (int)v;
			memcpy(field, &iv, sizeof iv);
		} else {
			memcpy(field, &v, sizeof v);
		}
		return true;
	}
	double d = strtod(buf, &end);
	if (*end || errno || !isfinite(d) || d < key->min || d > key->max)
		goto bad;
	memcpy((char *)k + key->offset, &d, sizeof d);
	return true;
bad:
	/* the range as the value must be written: 1000000000, not 1e+09 */
	if (whole)
		snprintf(err, errlen, "bad value '%.*s' for '%s': expected a whole number from %.0f to %.0f",
			 (int)(n > 30 ? 30 : n), s, key->key, key->min, key->max);
	else
		snprintf(err, errlen, "bad value '%.*s' for '%s': expected a number from %g to %g",
			 (int)(n > 30 ? 30 : n), s, key->key, key->min, key->max);
	return false;
}

void bestiary_rules_defaults(struct rule_knobs *r)
{
	memset(r, 0, sizeof *r);
	char err[DIAG_ERR_LEN];
	for (int i = 0; i < N_RULE_KEYS; i++)
		set_number(r, &rule_keys[i], rule_keys[i].def, strlen(rule_keys[i].def), err, sizeof err);
}

/* Every numeric key at its default. */
static void kind_defaults(struct monster_kind *k)
{
	memset(k, 0, sizeof *k);
	char err[DIAG_ERR_LEN];
	for (int i = 0; i < N_KEYS; i++)
		if (keys[i].def && keys[i].type != BKEY_NAME && keys[i].type != BKEY_GLYPH)
			set_number(k, &keys[i], keys[i].def, strlen(keys[i].def), err, sizeof err);
}

struct bparser {
	const char *file;
	struct diag_list *diags;
	int errors;
	struct bestiary *b;
	int kind_line;           /* line of the current kind's "kind:", 0 = none */
	int seen[sizeof keys / sizeof keys[0]]; /* line each key was given in the current kind */
	int rules_line;          /* line of the "rules:" that opened the block being read, 0 = none */
	int rules_first;         /* line of the first "rules:" of the file, 0 = none yet */
	int rules_seen[sizeof rule_keys / sizeof rule_keys[0]]; /* line each rule key was given */
};

static void berr(struct bparser *p, int line, int col, const char *msg)
{
	p->errors++;
	if (p->errors <= 100)
		diag_add(p->diags, DIAG_ERROR, p->file, line, col, "%s", msg);
}

static void finish_kind(struct bparser *p)
{
	if (!p->kind_line)
		return;
	struct monster_kind *k = &p->b->kinds[p->b->n - 1];
	if (!k->glyph && !p->seen[1]) { /* keys[1] is glyph; a bad one was reported already */
		char msg[96];
		snprintf(msg, sizeof msg, "kind '%s' has no 'glyph:' (the letter that shows it on maps)", k->name);
		berr(p, p->kind_line, 1, msg);
	}
	p->kind_line = 0;
}

static void bestiary_line(struct bparser *p, int line, const char *s, size_t n)
{
	char msg[800];
	struct textfile_kv kv;
	int col = 0;
	switch (textfile_kv_split(s, n, "bestiary", "a kind starts with 'kind: NAME'", &kv, &col, msg, sizeof msg)) {
	case TEXTFILE_KV_BLANK:
		return;
	case TEXTFILE_KV_BAD:
		berr(p, line, col, msg);
		return;
	case TEXTFILE_KV_PAIR:
		break;
	}
	const size_t ks = kv.key, ke = kv.key_end, v = kv.value, ve = kv.value_end;
	if (ke - ks == 5 && memcmp(s + ks, "rules", 5) == 0) {
		finish_kind(p);
		if (ve > v) {
			berr(p, line, (int)v + 1, "'rules:' takes no value (the game's knobs follow it, one a line)");
			return;
		}
		if (p->rules_first) {
			snprintf(msg, sizeof msg, "a second 'rules:' block (the first is on line %d)", p->rules_first);
			berr(p, line, (int)ks + 1, msg);
			return;
		}
		p->rules_first = p->rules_line = line;
		return;
	}
	if (p->rules_line && !(ke - ks == 4 && memcmp(s + ks, "kind", 4) == 0)) {
		const struct bestiary_key_doc *rk = NULL;
		for (int r = 0; r < N_RULE_KEYS && !rk; r++)
			if (strlen(rule_keys[r].key) == ke - ks && memcmp(rule_keys[r].key, s + ks, ke - ks) == 0)
				rk = &rule_keys[r];
		if (!rk) {
			char list[400];
			size_t used = 0;
			for (int k = 0; k < N_RULE_KEYS && used < sizeof list; k++)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
							 rule_keys[k].key);
			snprintf(msg, sizeof msg, "unknown rules key '%.*s' (expected one of: %s; a kind starts with "
				 "'kind: NAME')", (int)(ke - ks > 30 ? 30 : ke - ks), s + ks, list);
			berr(p, line, (int)ks + 1, msg);
			return;
		}
		int ridx = (int)(rk - rule_keys);
		if (p->rules_seen[ridx]) {
			snprintf(msg, sizeof msg, "repeated rules key '%s' (first given on line %d)", rk->key,
				 p->rules_seen[ridx]);
			berr(p, line, (int)ks + 1, msg);
			return;
		}
		p->rules_seen[ridx] = line;
		char err[DIAG_ERR_LEN];
		if (!set_number(&p->b->rules, rk, s + v, ve - v, err, sizeof err))
			berr(p, line, (int)v + 1, err);
		return;
	}
	const struct bestiary_key_doc *key = find_key(s + ks, ke - ks);
	if (!key) {
		char list[400];
		size_t used = 0;
		for (int k = 0; k < N_KEYS && used < sizeof list; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", keys[k].key);
		snprintf(msg, sizeof msg, "unknown key '%.*s' (expected one of: %s)", (int)(ke - ks > 30 ? 30 : ke - ks),
			 s + ks, list);
		berr(p, line, (int)ks + 1, msg);
		return;
	}
	int kidx = (int)(key - keys);
	if (key->type == BKEY_NAME) {
		finish_kind(p);
		p->rules_line = 0;
		if (ve - v == 5 && memcmp(s + v, "rules", 5) == 0) {
			berr(p, line, (int)v + 1, "a kind cannot be named 'rules' (--set rules.KEY sets the game's knobs)");
			return;
		}
		if (!valid_name(s + v, ve - v)) {
			snprintf(msg, sizeof msg, "bad kind name '%.*s' (letters, digits, - and _, 1 to 31 of them)",
				 (int)(ve - v > 40 ? 40 : ve - v), s + v);
			berr(p, line, (int)v + 1, msg);
		}
		for (int k = 0; k < p->b->n; k++) {
			if (strlen(p->b->kinds[k].name) == ve - v && memcmp(p->b->kinds[k].name, s + v, ve - v) == 0) {
				snprintf(msg, sizeof msg, "kind '%s' is defined twice", p->b->kinds[k].name);
				berr(p, line, (int)v + 1, msg);
				break;
			}
		}
		if (p->b->n == BESTIARY_MAX_KINDS) {
			snprintf(msg, sizeof msg, "too many kinds (at most %d, one per letter)", BESTIARY_MAX_KINDS);
			berr(p, line, (int)ks + 1, msg);
			p->kind_line = 0;
			return;
		}
		struct monster_kind *k = &p->b->kinds[p->b->n++];
		kind_defaults(k);
		size_t nl = ve - v < sizeof k->name - 1 ? ve - v : sizeof k->name - 1;
		memcpy(k->name, s + v, nl);
		k->name[nl] = '\0';
		p->kind_line = line;
		memset(p->seen, 0, sizeof p->seen);
		return;
	}
	if (!p->kind_line) {
		snprintf(msg, sizeof msg, "'%s' before any 'kind:' line (a kind starts with 'kind: NAME')", key->key);
		berr(p, line, (int)ks + 1, msg);
		return;
	}
	struct monster_kind *k = &p->b->kinds[p->b->n - 1];
	if (p->seen[kidx]) {
		snprintf(msg, sizeof msg, "repeated key '%s' in kind '%s' (first given on line %d)", key->key, k->name,
			 p->seen[kidx]);
		berr(p, line, (int)ks + 1, msg);
		return;
	}
	p->seen[kidx] = line;
	if (key->type == BKEY_GLYPH) {
		if (ve - v != 1 || !is_letter(s[v])) {
			snprintf(msg, sizeof msg, "bad glyph '%.*s': expected one letter, a-z or A-Z",
				 (int)(ve - v > 20 ? 20 : ve - v), s + v);
			berr(p, line, (int)v + 1, msg);
			return;
		}
		for (int j = 0; j < p->b->n - 1; j++) {
			if (p->b->kinds[j].glyph == s[v]) {
				snprintf(msg, sizeof msg, "glyph '%c' is already used by kind '%s'", s[v], p->b->kinds[j].name);
				berr(p, line, (int)v + 1, msg);
				return;
			}
		}
		k->glyph = s[v];
		return;
	}
	char err[DIAG_ERR_LEN];
	if (!set_number(k, key, s + v, ve - v, err, sizeof err))
		berr(p, line, (int)v + 1, err);
}

bool bestiary_parse(const char *file, const char *text, size_t len, struct bestiary *out,
		    struct diag_list *diags)
{
	if (!diags) {
		struct diag_list scratch = { 0 };
		bool ok = bestiary_parse(file, text, len, out, &scratch);
		diag_list_fini(&scratch);
		return ok;
	}
	struct bparser p;
	memset(&p, 0, sizeof p);
	p.file = file ? file : "<bestiary>";
	int first_diag = diags->n;
	p.diags = diags;
	p.b = out;
	memset(out, 0, sizeof *out);
	bestiary_rules_defaults(&out->rules);
	size_t pos = 0;
	int line = 0;
	while (text && pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + (nl ? 1 : 0);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		bestiary_line(&p, ++line, s, n);
	}
	finish_kind(&p);
	if (p.errors <= 100)
		diag_sort(diags, first_diag);
	if (out->n == 0 && !p.errors)
		berr(&p, line ? line : 1, 1, "no monster kinds (a kind starts with 'kind: NAME')");
	items_default(&out->items);
	return p.errors == 0;
}

const struct monster_kind *bestiary_find_glyph(const struct bestiary *b, char glyph)
{
	if (!b)
		return NULL;
	for (int i = 0; i < b->n; i++)
		if (b->kinds[i].glyph == glyph)
			return &b->kinds[i];
	return NULL;
}

struct monster_kind *bestiary_find_name(struct bestiary *b, const char *name)
{
	if (!b || !name)
		return NULL;
	for (int i = 0; i < b->n; i++)
		if (strcmp(b->kinds[i].name, name) == 0)
			return &b->kinds[i];
	return NULL;
}

bool bestiary_set(struct bestiary *b, const char *assignment, char *err, size_t errlen)
{
	const char *dot = strchr(assignment, '.');
	const char *eq = strchr(assignment, '=');
	if (!dot || !eq || eq < dot) {
		snprintf(err, errlen, "bad --set '%s': expected KIND.KEY=VALUE, e.g. goblin.sight=6", assignment);
		return false;
	}
	size_t kl = (size_t)(dot - assignment);
	if (kl == 5 && memcmp(assignment, "rules", 5) == 0) {
		const char *key_s = dot + 1;
		size_t keyl = (size_t)(eq - key_s);
		for (int i = 0; i < N_RULE_KEYS; i++)
			if (strlen(rule_keys[i].key) == keyl && memcmp(rule_keys[i].key, key_s, keyl) == 0)
				return set_number(&b->rules, &rule_keys[i], eq + 1, strlen(eq + 1), err, errlen);
		char list[400];
		size_t used = 0;
		list[0] = '\0';
		for (int i = 0; i < N_RULE_KEYS && used < sizeof list; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", rule_keys[i].key);
		snprintf(err, errlen, "unknown key '%.*s' in --set rules (keys: %s)", (int)(keyl > 40 ? 40 : keyl), key_s,
			 list);
		return false;
	}
	struct monster_kind *k = NULL;
	for (int i = 0; i < b->n; i++)
		if (strlen(b->kinds[i].name) == kl && memcmp(b->kinds[i].name, assignment, kl) == 0)
			k = &b->kinds[i];
	if (!k && items_find(&b->items, assignment, kl) >= 0) {
		bool unknown;
		return items_set(&b->items, assignment, &unknown, err, errlen);
	}
	if (!k) {
		char list[400];
		size_t used = 0;
		list[0] = '\0';
		for (int i = 0; i < b->n && used < sizeof list; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", b->kinds[i].name);
		snprintf(err, errlen, "unknown kind '%.*s' in --set (kinds: %s; rules sets the game's knobs; or an item of the catalogue)",
			 (int)(kl > 40 ? 40 : kl), assignment, b->n ? list : "none");
		return false;
	}
	const char *key_s = dot + 1;
	size_t keyl = (size_t)(eq - key_s);
	const struct bestiary_key_doc *key = find_key(key_s, keyl);
	if (!key || key->type == BKEY_NAME || key->type == BKEY_GLYPH) {
		char list[400];
		size_t used = 0;
		list[0] = '\0';
		for (int i = 0; i < N_KEYS && used < sizeof list; i++)
			if (keys[i].type != BKEY_NAME && keys[i].type != BKEY_GLYPH)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
							 keys[i].key);
		snprintf(err, errlen, "%s key '%.*s' in --set %s (keys: %s)", key ? "unsettable" : "unknown",
			 (int)(keyl > 40 ? 40 : keyl), key_s, k->name, list);
		return false;
	}
	const char *val = eq + 1;
	return set_number(k, key, val, strlen(val), err, errlen);
}

static bool exists(const char *path);

bool bestiary_load_file(const char *path, struct bestiary *out, struct diag_list *diags)
{
	size_t len = 0;
	char *text;
	int err = textfile_read(path, &text, &len);
	if (err) {
		memset(out, 0, sizeof *out);
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read the bestiary: %s", textfile_strerror(err));
		return false;
	}
	bool ok = bestiary_parse(path, text, len, out, diags);
	free(text);
	/* the item catalogue beside it, when there is one */
	char ipath[4096];
	const char *slash = strrchr(path, '/');
	int k = slash ? snprintf(ipath, sizeof ipath, "%.*s/items.txt", (int)(slash - path), path)
		      : snprintf(ipath, sizeof ipath, "items.txt");
	if (k > 0 && (size_t)k < sizeof ipath && exists(ipath))
		ok = items_load_file(ipath, &out->items, diags) && ok;
	return ok;
}

/* Whether something is there: a bestiary.txt that cannot be read (no
 * permission, a folder, a FIFO) is found, and loading it then reports
 * the error, rather than being skipped as if absent. */
static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Whether the current folder is astray's source tree, whose levels/ is
 * the campaign being worked on; anywhere else levels/ is someone else's. */
bool bestiary_in_source_tree(void)
{
	struct stat st;
	return stat("src/cli/main.c", &st) == 0 && S_ISREG(st.st_mode) && stat("levels", &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

const char *bestiary_default_path(const char *near, char *buf, size_t size)
{
	if (near && *near) {
		struct stat st;
		int k;
		if (stat(near, &st) == 0 && S_ISDIR(st.st_mode)) {
			k = snprintf(buf, size, "%s/bestiary.txt", near);
		} else {
			const char *slash = strrchr(near, '/');
			if (slash)
				k = snprintf(buf, size, "%.*s/bestiary.txt", (int)(slash - near), near);
			else
				k = snprintf(buf, size, "bestiary.txt");
		}
		if (k > 0 && (size_t)k < size && exists(buf))
			return buf;
	}
	static const char *const places[] = { "levels/bestiary.txt", ASTRAY_DATADIR "/levels/bestiary.txt" };
	for (size_t i = bestiary_in_source_tree() ? 0 : 1; i < sizeof places / sizeof places[0]; i++) {
		if (exists(places[i])) {
			snprintf(buf, size, "%s", places[i]);
			return buf;
		}
	}
	return NULL;
}
