/*
 * fuzz_corpus.h - runs every file of a fuzzer's corpus folder through its
 * LLVMFuzzerTestOneInput under the sanitizers, so make test replays what
 * make fuzz found and kept.  Each input sits in a buffer of exactly its
 * size, so reading one byte past it is an ASan error here as in the fuzzer.
 * Included (not linked) by the tests/LAYER/test_fuzz_*.c; include cmocka
 * first.
 */
#ifndef ASTRAY_TEST_FUZZ_CORPUS_H
#define ASTRAY_TEST_FUZZ_CORPUS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Feeds every file of dir to fn; fails the test when dir holds fewer than `least`. */
static void fuzz_corpus_run(const char *dir, int (*fn)(const uint8_t *, size_t), int least)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		long len = ftell(f);
		fseek(f, 0, SEEK_SET);
		assert_true(len >= 0);
		uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
		assert_non_null(buf);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		fn(buf, (size_t)len);
		free(buf);
		n++;
	}
	closedir(d);
	assert_true(n >= least);
}

#endif
