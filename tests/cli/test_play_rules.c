/*
 * test_play_rules.c - a saved game of another rules version (GAME.md,
 * principle 4): play_resume_load refuses it with a message naming both
 * versions, and keeps it byte for byte under a name that says its rules
 * (save.jnl.rules1-1), never as damaged and never deleted, so the slot is
 * free for a new game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "play_save.h"
#include "savefile.h"

/* The save in slot of rules version `rules` (a golden journal of that
 * version): set aside as save.jnl.rulesN-1, unchanged, with both versions
 * named. */
static void old_rules_save_kept_aside(const char *golden, int rules)
{
	char dir[] = "/tmp/astray-rules-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char slot[512], err[512], kept[600], damaged[600];
	play_save_slot(dir, slot, sizeof slot);
	size_t len = 0;
	char *old = savefile_read(golden, 1 << 24, &len, err, sizeof err);
	assert_non_null(old);
	FILE *f = fopen(slot, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(old, 1, len, f), len);
	assert_int_equal(fclose(f), 0);

	struct play_resumed r;
	char msg[2048] = "", want[200];
	assert_int_equal(play_resume_load(dir, NULL, &r, msg, sizeof msg), PLAY_RESUME_SET_ASIDE);
	snprintf(want, sizeof want, "rules version %d (astray test); this astray plays rules version %d", rules,
		 GAME_RULES);
	if (!strstr(msg, want))
		fail_msg("message \"%s\" does not name both versions", msg);
	snprintf(kept, sizeof kept, "%s.rules%d-1", slot, rules);
	snprintf(damaged, sizeof damaged, "%s.damaged-1", slot);
	if (!strstr(msg, kept))
		fail_msg("message \"%s\" does not say where it is kept", msg);
	assert_int_equal(access(slot, F_OK), -1);    /* the slot is free */
	assert_int_equal(access(damaged, F_OK), -1); /* not called damaged */
	size_t len2 = 0;
	char *now = savefile_read(kept, 1 << 24, &len2, err, sizeof err);
	assert_non_null(now);
	assert_int_equal(len, len2);
	assert_memory_equal(old, now, len); /* unchanged */
	free(now);
	free(old);
	unlink(kept);
	rmdir(dir);
}

static void test_old_rules_save_kept_aside(void **state)
{
	(void)state;
	old_rules_save_kept_aside("tests/golden/rules1/hex-options.jnl", 1);
	/* the version before growth, combat rolls and arrivals */
	old_rules_save_kept_aside("tests/golden/rules3/campaign.jnl", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_rules_save_kept_aside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
