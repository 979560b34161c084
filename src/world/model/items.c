/*
 * items.c - the item catalogue: kinds and their knobs, read from a small
 * text format like the bestiary's (levels/items.txt):
 *
 *     ; comment
 *     item: healing          starts a kind; the id is the ITEM of --set ITEM.KEY=VALUE
 *     class: potion          what it is (required)
 *     name: potion of healing what the player reads once it is known
 *     effect: heal           what using it does
 *     amount: 12             any key of the table below; unset keys keep their default
 *
 * The table `keys` is the whole format.  The parser never prints: errors
 * go to a diag_list with file:line:col, naming the accepted values.
 */
#include "items.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

static const char class_glyphs[ITEM_CLASS_COUNT] = { '!', '$', '?', '/', ')', '[', '(', '}' };
static const char *const class_names[] = { "potion", "gold", "scroll", "wand", "weapon", "armour", "ammo", "tool",
					   NULL };
static const char *const effect_names[] = { "none",     "heal",    "vigour", "sleep", "poison", "teleport",
					    "mapping",  "noise",   "dig",    "caltrops", NULL };

char item_class_glyph(int cls)
{
	return cls >= 0 && cls < ITEM_CLASS_COUNT ? class_glyphs[cls] : '?';
}

int item_class_of_glyph(char glyph)
{
	for (int i = 0; i < ITEM_CLASS_COUNT; i++)
		if (class_glyphs[i] == glyph)
			return i;
	return -1;
}

const char *item_class_name(int cls)
{
	return cls >= 0 && cls < ITEM_CLASS_COUNT ? class_names[cls] : "?";
}

enum key_type { K_ID, K_TEXT, K_ENUM, K_INT };

struct key {
	const char *key;
	enum key_type type;
	size_t offset;
	size_t size;          /* K_ID, K_TEXT: the field's size */
	int min, max;         /* K_INT */
	const char *const *names; /* K_ENUM */
	const char *def;      /* NULL: required (id, class) */
	const char *doc;
};

#define F(field) offsetof(struct item_def, field), sizeof ((struct item_def *)0)->field

static const struct key keys[] = {
	{ "item", K_ID, F(id), 0, 0, NULL, NULL,
	  "starts a kind and names it (letters, digits, - and _, at most 23): the ITEM of --set ITEM.KEY=VALUE" },
	{ "class", K_ENUM, F(cls), 0, 0, class_names, NULL,
	  "potion, gold, scroll, wand, weapon, armour, ammo or tool: the glyph on maps and the key that uses it" },
	{ "name", K_TEXT, F(name), 0, 0, NULL, "",
	  "what the player reads once the kind is known (\"potion of healing\"); the id when empty" },
	{ "effect", K_ENUM, F(effect), 0, 0, effect_names, "none",
	  "what using it does: none, heal, vigour, sleep, poison, teleport, mapping, noise, dig or caltrops" },
	{ "amount", K_INT, F(amount), -1000, 1000, NULL, "0",
	  "the effect's size: hp healed (heal), maximum hp gained (vigour), turns asleep (sleep), damage (poison), "
	  "least steps away (teleport), loudness (noise), extra cost to monsters (caltrops)" },
	{ "radius", K_INT, F(radius), 0, 100, NULL, "0",
	  "mapping: cells around the reader learnt (0: the whole level); caltrops: cells around the target covered" },
	{ "range", K_INT, F(range), 0, 16, NULL, "0",
	  "wands, launchers and thrown ammunition: the farthest cell reached, in steps" },
	{ "charges", K_INT, F(charges), 0, 100, NULL, "0", "wands: zaps when found" },
	{ "hit", K_INT, F(hit), -100, 100, NULL, "0",
	  "weapons: percent points added to the chance to hit (negative: misses more)" },
	{ "damage", K_INT, F(damage), -100, 100, NULL, "0",
	  "weapons: added to each hit's damage; ammunition: a shot's damage" },
	{ "armour", K_INT, F(armour), 0, 100, NULL, "0", "armour: percent points off monsters' chance to hit" },
	{ "noise", K_INT, F(noise), 0, 100, NULL, "0",
	  "armour: each step in it is a noise this loud (it wakes sleepers that far away); 0 silent" },
	{ "ammo", K_TEXT, F(ammo), 0, 0, NULL, "", "launchers: the item id of the ammunition they fire" },
	{ "count", K_INT, F(count), 1, 100, NULL, "1", "ammunition and tools: how many a found pile holds (caltrops: how many times they are strewn)" },
	{ "break", K_INT, F(brk), 0, 100, NULL, "0",
	  "ammunition: the percent chance a piece that hits a monster breaks (is gone); 0 never" },
	{ "depth", K_INT, F(min_depth), 1, 1000, NULL, "1", "the shallowest level (1-based) `astray gen` places it on" },
	{ "max-depth", K_INT, F(max_depth), 1, 1000, NULL, "1000", "the deepest level it is generated on" },
	{ "freq", K_INT, F(freq), 0, 1000, NULL, "10",
	  "how often it is drawn among the kinds of its class (0: never generated, only placed by name)" },
};
#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

const struct items_key_doc *items_keys(int *count)
{
	static struct items_key_doc docs[sizeof keys / sizeof keys[0]];
	for (int i = 0; i < N_KEYS; i++)
		docs[i] = (struct items_key_doc){ keys[i].key, keys[i].def, keys[i].doc };
	*count = N_KEYS;
	return docs;
}

static const struct key *find_key(const char *s, size_t n)
{
	for (int i = 0; i < N_KEYS; i++)
		if (strlen(keys[i].key) == n && memcmp(keys[i].key, s, n) == 0)
			return &keys[i];
	return NULL;
}

static bool valid_id(const char *s, size_t n)
{
	if (n == 0 || n >= ITEM_ID_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_'))
			return false;
	}
	return true;
}

/* Stores value s (n bytes) into k's field of `key`; false with err. */
static bool set_value(struct item_def *k, const struct key *key, const char *s, size_t n, char *err, size_t errlen)
{
	char *field = (char *)k + key->offset;
	switch (key->type) {
	case K_ID:
		if (!valid_id(s, n)) {
			snprintf(err, errlen, "bad item id '%.*s' (letters, digits, - and _, 1 to %d of them)",
				 (int)(n > 40 ? 40 : n), s, ITEM_ID_LEN - 1);
			return false;
		}
		memcpy(field, s, n);
		field[n] = '\0';
		return true;
	case K_TEXT:
		if (n >= key->size) {
			snprintf(err, errlen, "'%s' is %zu characters long: at most %zu", key->key, n, key->size - 1);
			return false;
		}
		memcpy(field, s, n);
		field[n] = '\0';
		return true;
	case K_ENUM: {
		for (int i = 0; key->names[i]; i++)
			if (strlen(key->names[i]) == n && memcmp(key->names[i], s, n) == 0) {
				memcpy(field, &i, sizeof i);
				return true;
			}
		int w = snprintf(err, errlen, "unknown %s '%.*s': expected one of", key->key, (int)(n > 30 ? 30 : n), s);
		for (int i = 0; key->names[i] && w > 0 && (size_t)w < errlen; i++)
			w += snprintf(err + w, errlen - (size_t)w, "%s %s", i ? "," : "", key->names[i]);
		return false;
	}
	case K_INT: {
		char buf[32];
		if (n == 0 || n >= sizeof buf)
			goto bad;
		memcpy(buf, s, n);
		buf[n] = '\0';
		char *end;
		errno = 0;
		long v = strtol(buf, &end, 10);
		if (*end || errno || v < key->min || v > key->max)
			goto bad;
		int iv = (int)v;
		memcpy(field, &iv, sizeof iv);
		return true;
	bad:
		snprintf(err, errlen, "bad value '%.*s' for '%s': expected a whole number from %d to %d",
			 (int)(n > 30 ? 30 : n), s, key->key, key->min, key->max);
		return false;
	}
	}
	return false;
}

static void kind_defaults(struct item_def *k)
{
	memset(k, 0, sizeof *k);
	char err[DIAG_ERR_LEN];
	for (int i = 0; i < N_KEYS; i++)
		if (keys[i].def)
			set_value(k, &keys[i], keys[i].def, strlen(keys[i].def), err, sizeof err);
}

int items_find(const struct item_catalogue *c, const char *id, size_t len)
{
	for (int i = 0; i < c->n; i++)
		if (strlen(c->kinds[i].id) == len && memcmp(c->kinds[i].id, id, len) == 0)
			return i;
	return -1;
}

struct iparser {
	const char *file;
	struct diag_list *diags;
	int errors;
	struct item_catalogue *c;
	int kind_line;
	int seen[sizeof keys / sizeof keys[0]];
	int ammo_at[ITEMS_MAX][2]; /* line and column where each kind's ammo was named (checked at the end) */
};

static void ierr(struct iparser *p, int line, int col, const char *msg)
{
	p->errors++;
	if (p->errors <= 100)
		diag_add(p->diags, DIAG_ERROR, p->file, line, col, "%s", msg);
}

static void finish_kind(struct iparser *p)
{
	if (!p->kind_line)
		return;
	struct item_def *k = &p->c->kinds[p->c->n - 1];
	if (!p->seen[1]) {
		char msg[96];
		snprintf(msg, sizeof msg, "item '%s' has no 'class:' (potion, scroll, wand, weapon, armour, ammo...)",
			 k->id);
		ierr(p, p->kind_line, 1, msg);
	}
	if (!k->name[0])
		memcpy(k->name, k->id, sizeof k->id);
	if (k->max_depth < k->min_depth) {
		char msg[96];
		snprintf(msg, sizeof msg, "item '%s': max-depth %d is above depth %d", k->id, k->max_depth,
			 k->min_depth);
		ierr(p, p->kind_line, 1, msg);
	}
	p->kind_line = 0;
}

static void items_line(struct iparser *p, int line, const char *s, size_t n)
{
	char msg[400];
	struct textfile_kv kv;
	int col = 0;
	switch (textfile_kv_split(s, n, "catalogue", "a kind starts with 'item: ID'", &kv, &col, msg, sizeof msg)) {
	case TEXTFILE_KV_BLANK:
		return;
	case TEXTFILE_KV_BAD:
		ierr(p, line, col, msg);
		return;
	case TEXTFILE_KV_PAIR:
		break;
	}
	const size_t ks = kv.key, ke = kv.key_end, v = kv.value, ve = kv.value_end;
	const struct key *key = find_key(s + ks, ke - ks);
	if (!key) {
		char list[300];
		size_t used = 0;
		for (int k = 0; k < N_KEYS && used < sizeof list; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", keys[k].key);
		snprintf(msg, sizeof msg, "unknown key '%.*s' (expected one of: %s)", (int)(ke - ks > 30 ? 30 : ke - ks),
			 s + ks, list);
		ierr(p, line, (int)ks + 1, msg);
		return;
	}
	int kidx = (int)(key - keys);
	char err[DIAG_ERR_LEN];
	if (key->type == K_ID) {
		finish_kind(p);
		if (!valid_id(s + v, ve - v)) {
			set_value(&(struct item_def){ 0 }, key, s + v, ve - v, err, sizeof err);
			ierr(p, line, (int)v + 1, err);
			return;
		}
		if (items_find(p->c, s + v, ve - v) >= 0) {
			snprintf(msg, sizeof msg, "item '%.*s' is defined twice", (int)(ve - v), s + v);
			ierr(p, line, (int)v + 1, msg);
			return;
		}
		if (p->c->n == ITEMS_MAX) {
			snprintf(msg, sizeof msg, "too many items (at most %d)", ITEMS_MAX);
			ierr(p, line, (int)ks + 1, msg);
			return;
		}
		struct item_def *k = &p->c->kinds[p->c->n++];
		kind_defaults(k);
		set_value(k, key, s + v, ve - v, err, sizeof err);
		p->kind_line = line;
		memset(p->seen, 0, sizeof p->seen);
		p->ammo_at[p->c->n - 1][0] = 0;
		return;
	}
	if (!p->kind_line) {
		snprintf(msg, sizeof msg, "'%s' before any 'item:' line (a kind starts with 'item: ID')", key->key);
		ierr(p, line, (int)ks + 1, msg);
		return;
	}
	struct item_def *k = &p->c->kinds[p->c->n - 1];
	if (p->seen[kidx]) {
		snprintf(msg, sizeof msg, "repeated key '%s' in item '%s' (first given on line %d)", key->key, k->id,
			 p->seen[kidx]);
		ierr(p, line, (int)ks + 1, msg);
		return;
	}
	p->seen[kidx] = line;
	if (!set_value(k, key, s + v, ve - v, err, sizeof err)) {
		ierr(p, line, (int)v + 1, err);
		return;
	}
	if (strcmp(key->key, "ammo") == 0) {
		p->ammo_at[p->c->n - 1][0] = line;
		p->ammo_at[p->c->n - 1][1] = (int)v + 1;
	}
}

bool items_parse(const char *file, const char *text, size_t len, struct item_catalogue *out,
		 struct diag_list *diags)
{
	if (!diags) {
		struct diag_list scratch = { 0 };
		bool ok = items_parse(file, text, len, out, &scratch);
		diag_list_fini(&scratch);
		return ok;
	}
	struct iparser *p = calloc(1, sizeof *p);
	if (!p) {
		diag_add(diags, DIAG_ERROR, file ? file : "<items>", 0, 0, "out of memory");
		return false;
	}
	p->file = file ? file : "<items>";
	p->diags = diags;
	p->c = out;
	int first = diags->n;
	memset(out, 0, sizeof *out);
	size_t pos = 0;
	int line = 0;
	while (text && pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + (nl ? 1 : 0);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		items_line(p, ++line, s, n);
	}
	finish_kind(p);
	/* a launcher's ammunition must be a kind of class ammo */
	for (int i = 0; i < out->n; i++) {
		const struct item_def *k = &out->kinds[i];
		if (!k->ammo[0])
			continue;
		int a = items_find(out, k->ammo, strlen(k->ammo));
		if (a < 0 || out->kinds[a].cls != ITEM_AMMO) {
			char msg[160];
			snprintf(msg, sizeof msg, "item '%s' fires '%s', which is not an item of class ammo", k->id,
				 k->ammo);
			ierr(p, p->ammo_at[i][0] ? p->ammo_at[i][0] : 1, p->ammo_at[i][0] ? p->ammo_at[i][1] : 1, msg);
		}
	}
	if (p->errors <= 100)
		diag_sort(diags, first);
	if (out->n == 0 && !p->errors)
		ierr(p, line ? line : 1, 1, "no items (a kind starts with 'item: ID')");
	bool ok = p->errors == 0;
	free(p);
	return ok;
}

bool items_set(struct item_catalogue *c, const char *assignment, bool *unknown_item, char *err, size_t errlen)
{
	*unknown_item = false;
	const char *dot = strchr(assignment, '.');
	const char *eq = strchr(assignment, '=');
	if (!dot || !eq || eq < dot) {
		snprintf(err, errlen, "bad --set '%s': expected ITEM.KEY=VALUE, e.g. healing.amount=20", assignment);
		return false;
	}
	int i = items_find(c, assignment, (size_t)(dot - assignment));
	if (i < 0) {
		*unknown_item = true;
		char list[600];
		size_t used = 0;
		list[0] = '\0';
		for (int k = 0; k < c->n && used < sizeof list; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", c->kinds[k].id);
		snprintf(err, errlen, "unknown item '%.*s' (items: %s)", (int)(dot - assignment > 40 ? 40 : dot - assignment),
			 assignment, c->n ? list : "none");
		return false;
	}
	const struct key *key = find_key(dot + 1, (size_t)(eq - dot - 1));
	if (!key || key->type == K_ID) {
		char list[300];
		size_t used = 0;
		list[0] = '\0';
		for (int k = 1; k < N_KEYS && used < sizeof list; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k > 1 ? ", " : "", keys[k].key);
		snprintf(err, errlen, "%s key '%.*s' in --set %s (keys: %s)", key ? "unsettable" : "unknown",
			 (int)(eq - dot - 1 > 40 ? 40 : eq - dot - 1), dot + 1, c->kinds[i].id, list);
		return false;
	}
	struct item_def tmp = c->kinds[i];
	if (!set_value(&tmp, key, eq + 1, strlen(eq + 1), err, errlen))
		return false;
	if (tmp.max_depth < tmp.min_depth) {
		snprintf(err, errlen, "item '%s': max-depth %d would be above depth %d", tmp.id, tmp.max_depth,
			 tmp.min_depth);
		return false;
	}
	if (tmp.ammo[0]) {
		int a = items_find(c, tmp.ammo, strlen(tmp.ammo));
		if (a < 0 || c->kinds[a].cls != ITEM_AMMO) {
			snprintf(err, errlen, "item '%s' cannot fire '%s': not an item of class ammo", tmp.id, tmp.ammo);
			return false;
		}
	}
	if (!tmp.name[0])
		memcpy(tmp.name, tmp.id, sizeof tmp.id);
	c->kinds[i] = tmp;
	return true;
}

#define OUT(...)                                                                                             \
	do {                                                                                                 \
		int w_ = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__);          \
		n += w_ > 0 ? (size_t)w_ : 0;                                                                \
	} while (0)

size_t items_describe(const struct item_catalogue *c, char *buf, size_t size)
{
	size_t n = 0;
	for (int i = 0; i < c->n; i++) {
		const struct item_def *k = &c->kinds[i];
		for (int j = 0; j < N_KEYS; j++) {
			const struct key *key = &keys[j];
			const char *field = (const char *)k + key->offset;
			int v;
			switch (key->type) {
			case K_ID:
			case K_TEXT:
				if (field[0])
					OUT("%s: %s\n", key->key, field);
				break;
			case K_ENUM:
				memcpy(&v, field, sizeof v);
				OUT("%s: %s\n", key->key, key->names[v]);
				break;
			case K_INT:
				memcpy(&v, field, sizeof v);
				OUT("%s: %d\n", key->key, v);
				break;
			}
		}
	}
	if (size > 0 && n == 0)
		buf[0] = '\0';
	return n;
}

bool items_load_file(const char *path, struct item_catalogue *out, struct diag_list *diags)
{
	size_t len = 0;
	char *text;
	int err = textfile_read(path, &text, &len);
	if (err) {
		items_default(out);
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read the item catalogue: %s", textfile_strerror(err));
		return false;
	}
	bool ok = items_parse(path, text, len, out, diags);
	free(text);
	return ok;
}

/* The built-in catalogue: levels/items.txt says the same (a test holds them equal). */
static const char builtin[] =
#include "items_builtin.inc"
	;

void items_default(struct item_catalogue *out)
{
	if (!items_parse("<built-in items>", builtin, sizeof builtin - 1, out, NULL))
		memset(out, 0, sizeof *out);
}
