/*
 * test_snapshot_strays.c - savefile_remove_temps: the temporary files a
 * killed program leaves beside a save (save.jnl.snap.tmp-XXXXXX) are
 * removed, and nothing else is: not the save, not its snapshot, not a
 * name that only looks alike, not a folder or a link of that name, not
 * another file's temporaries.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "savefile.h"
#include "snapshot.h"

static void touch(const char *dir, const char *name, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static bool there(const char *dir, const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return lstat(p, &st) == 0;
}

static void test_remove_temps(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-strays-XXXXXX", path[128], snap[160], err[600], p[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	assert_true(snapshot_path(path, snap, sizeof snap));
	touch(dir, "save.jnl", "the journal");
	touch(dir, "save.jnl.snap", "the snapshot");
	touch(dir, "save.jnl.snap.tmp-a1B2c3", "a cut snapshot");
	touch(dir, "save.jnl.snap.tmp-ZZZZZZ", "");
	touch(dir, "save.jnl.snap.tmp-abc", "not mkstemp's name");
	touch(dir, "save.jnl.snap.tmp-abc1234", "not mkstemp's name");
	touch(dir, "save.jnl.snap.tmp-ab.123", "not mkstemp's name");
	touch(dir, "other.jnl.snap.tmp-a1B2c3", "another file's");
	touch(dir, "save.jnl.tmp-q9Q9q9", "the journal's own temporary");
	snprintf(p, sizeof p, "%s/save.jnl.snap.tmp-dir123", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/save.jnl.snap.tmp-lnk123", dir);
	assert_int_equal(symlink("save.jnl", p), 0);

	assert_int_equal(savefile_remove_temps(snap, err, sizeof err), 2);
	assert_string_equal(err, "");
	assert_false(there(dir, "save.jnl.snap.tmp-a1B2c3"));
	assert_false(there(dir, "save.jnl.snap.tmp-ZZZZZZ"));
	assert_true(there(dir, "save.jnl"));
	assert_true(there(dir, "save.jnl.snap"));
	assert_true(there(dir, "save.jnl.snap.tmp-abc"));
	assert_true(there(dir, "save.jnl.snap.tmp-abc1234"));
	assert_true(there(dir, "save.jnl.snap.tmp-ab.123"));
	assert_true(there(dir, "other.jnl.snap.tmp-a1B2c3"));
	assert_true(there(dir, "save.jnl.tmp-q9Q9q9")); /* the journal's: only when asked for it */
	assert_true(there(dir, "save.jnl.snap.tmp-dir123"));
	assert_true(there(dir, "save.jnl.snap.tmp-lnk123"));
	/* nothing left to do: 0, and the journal's own on its own call */
	assert_int_equal(savefile_remove_temps(snap, err, sizeof err), 0);
	assert_int_equal(savefile_remove_temps(path, err, sizeof err), 1);
	assert_false(there(dir, "save.jnl.tmp-q9Q9q9"));
	assert_true(there(dir, "save.jnl"));

	/* a folder that cannot be read: -1 and why */
	snprintf(p, sizeof p, "%s/missing/save.jnl.snap", dir);
	assert_int_equal(savefile_remove_temps(p, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read the folder"));

	/* clean up */
	const char *left[] = { "save.jnl", "save.jnl.snap", "save.jnl.snap.tmp-abc", "save.jnl.snap.tmp-abc1234",
			       "save.jnl.snap.tmp-ab.123", "other.jnl.snap.tmp-a1B2c3", "save.jnl.snap.tmp-lnk123" };
	for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, left[i]);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/save.jnl.snap.tmp-dir123", dir);
	rmdir(p);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remove_temps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
