/*
 * fuzz_sweep.c - libFuzzer target for `sim --sweep KEY=VALUES` and for the
 * per-game CSV of a sweep as sim-report reads it (sim_sweep.c): any bytes
 * give a sweep, or a refusal with its reason, never a crash, a hang or a
 * leak.  The input is cut at 0xFF bytes (never in sim's output, which is
 * ASCII and UTF-8): the first piece is the spec, the others up to three
 * files of one sweep's shards.  A spec that parses is well formed: one
 * knob, 1 to SIM_SWEEP_MAX finite values, each --set being KEY=TEXT; its
 * text parses again to the same values.  The files are written to a
 * directory of their own and given to sim_sweep_report as sim-report
 * gives them, its report and plot to /dev/null: 0, or 1 with a message.
 * The corpus (tests/fuzz-corpus-sweep) holds specs of each form and real
 * sweep shards.
 */
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SWEEP_FILES 3
#define FUZZ_SWEEP_SPEC_MAX 4096

/* A parsed spec is one knob over finite values, each --set KEY=TEXT. */
static void fuzz_sweep_check(const char *spec, const struct sim_sweep_spec *s)
{
	if (s->n < 1 || s->n > SIM_SWEEP_MAX || s->key[0] == '\0')
		abort();
	const size_t kl = strlen(s->key);
	for (int i = 0; i < s->n; i++) {
		if (!isfinite(s->v[i]) || s->text[i][0] == '\0')
			abort();
		if (strncmp(s->set[i], s->key, kl) != 0 || s->set[i][kl] != '=' ||
		    strcmp(s->set[i] + kl + 1, s->text[i]) != 0)
			abort();
	}
	/* its values written as a list parse to the same values */
	static char again[SIM_SWEEP_MAX * 40 + 128];
	int at = snprintf(again, sizeof again, "%s=", s->key);
	for (int i = 0; i < s->n && at > 0 && (size_t)at < sizeof again; i++)
		at += snprintf(again + at, sizeof again - (size_t)at, "%s%s", i ? "," : "", s->text[i]);
	if (at <= 0 || (size_t)at >= sizeof again)
		abort();
	static struct sim_sweep_spec t;
	char err[256];
	if (!sim_sweep_parse(again, &t, err, sizeof err) || t.n != s->n || strcmp(t.key, s->key) != 0) {
		fprintf(stderr, "fuzz_sweep: '%s' parsed, but not its values again: '%s' (%s)\n", spec, again, err);
		abort();
	}
	for (int i = 0; i < s->n; i++)
		if (t.v[i] != s->v[i])
			abort();
}

/* The directory the files are written to, made at the first and removed at exit. */
static char fuzz_sweep_dir[64];

static void fuzz_sweep_rmdir(void)
{
	rmdir(fuzz_sweep_dir);
}

/* The files of one sweep read by sim-report, its output to /dev/null. */
static void fuzz_sweep_report(const uint8_t *const *text, const size_t *len, int n)
{
	if (!fuzz_sweep_dir[0]) {
		snprintf(fuzz_sweep_dir, sizeof fuzz_sweep_dir, "/tmp/fuzz-sweep-XXXXXX");
		if (!mkdtemp(fuzz_sweep_dir) || atexit(fuzz_sweep_rmdir) != 0)
			abort();
	}
	const char *dir = fuzz_sweep_dir;
	char names[FUZZ_SWEEP_FILES][96];
	const char *files[FUZZ_SWEEP_FILES];
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof names[i], "%s/shard%d.csv", dir, i);
		FILE *f = fopen(names[i], "wb");
		if (!f || (len[i] && fwrite(text[i], 1, len[i], f) != len[i]) || fclose(f) != 0)
			abort();
		files[i] = names[i];
	}
	fflush(stdout);
	fflush(stderr);
	int out = dup(STDOUT_FILENO), errfd = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out < 0 || errfd < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
		abort();
	int rc = sim_sweep_report(files, n, "/dev/null", "escaped,turns");
	fflush(stdout);
	fflush(stderr);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(errfd, STDERR_FILENO) < 0)
		abort();
	close(out);
	close(errfd);
	close(null);
	for (int i = 0; i < n; i++)
		unlink(names[i]);
	if (rc != 0 && rc != 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = memchr(data, 0xFF, size);
	const size_t slen = cut ? (size_t)(cut - data) : size;
	static char spec[FUZZ_SWEEP_SPEC_MAX + 1];
	const size_t keep = slen < FUZZ_SWEEP_SPEC_MAX ? slen : FUZZ_SWEEP_SPEC_MAX;
	memcpy(spec, data, keep);
	spec[keep] = '\0';
	static struct sim_sweep_spec s;
	char err[256] = "";
	if (sim_sweep_parse(spec, &s, err, sizeof err))
		fuzz_sweep_check(spec, &s);
	else if (err[0] == '\0')
		abort(); /* a refusal says why */
	(void)sim_sweep_metric_ok(spec);

	/* the files after the spec */
	const uint8_t *text[FUZZ_SWEEP_FILES];
	size_t len[FUZZ_SWEEP_FILES];
	int n = 0;
	size_t at = cut ? slen + 1 : size;
	while (cut && n < FUZZ_SWEEP_FILES) {
		const uint8_t *next = n + 1 < FUZZ_SWEEP_FILES ? memchr(data + at, 0xFF, size - at) : NULL;
		const size_t end = next ? (size_t)(next - data) : size;
		text[n] = data + at;
		len[n] = end - at;
		n++;
		if (!next)
			break;
		at = end + 1;
	}
	if (n > 0)
		fuzz_sweep_report(text, len, n);
	return 0;
}
