/*
 * fuzz_settings.c - libFuzzer target for the options file parser
 * (settings.c): any bytes give options within their ranges, and every
 * refusal names the file with a line and a column, never a crash, a hang
 * or a leak; the options written back parse to the same options.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings s;
	struct diag_list d = { 0 };
	bool ok = settings_parse("fuzz.txt", (const char *)data, size, &s, &d);
	if (ok != (d.errors == 0))
		abort();
	for (int i = 0; i < d.n; i++)
		if (strcmp(d.items[i].file, "fuzz.txt") != 0 || d.items[i].line < 1 || d.items[i].col < 1)
			abort(); /* every problem has its place */
	if (s.delay_ms < 0 || s.delay_ms > SETTINGS_DELAY_MAX)
		abort();
	diag_list_fini(&d);
	char text[512];
	size_t len = settings_format(&s, text, sizeof text);
	struct settings back;
	struct diag_list d2 = { 0 };
	if (!settings_parse("again.txt", text, len, &back, &d2) || back.delay_ms != s.delay_ms ||
	    back.colour != s.colour || back.mouse != s.mouse)
		abort();
	diag_list_fini(&d2);
	return 0;
}
