/* testmaze.c - perfect mazes for the suites (testmaze.h). */
#include "testmaze.h"

#include <stdlib.h>
#include <string.h>

#include "testrand.h"

void test_maze_carve(int cw, int ch, uint32_t *seed, void (*dig)(void *ctx, int x, int y), void *ctx)
{
	int *stack = malloc((size_t)cw * (size_t)ch * sizeof *stack);
	unsigned char *dug = calloc((size_t)cw * (size_t)ch, 1);
	if (!stack || !dug) {
		free(stack);
		free(dug);
		abort(); /* a suite's own memory: nothing to test without it */
	}
	int top = 0;
	stack[top++] = 0;
	dug[0] = 1;
	dig(ctx, 1, 1);
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
	while (top > 0) {
		const int c = stack[top - 1], cx = c % cw, cy = c / cw;
		int open[4], n = 0;
		for (int i = 0; i < 4; i++) {
			const int nx = cx + dx[i], ny = cy + dy[i];
			if (nx >= 0 && ny >= 0 && nx < cw && ny < ch && !dug[ny * cw + nx])
				open[n++] = i;
		}
		if (n == 0) {
			top--;
			continue;
		}
		const int i = open[rnd(seed) % (uint32_t)n], nx = cx + dx[i], ny = cy + dy[i];
		dug[ny * cw + nx] = 1;
		dig(ctx, 2 * nx + 1, 2 * ny + 1);
		dig(ctx, cx + nx + 1, cy + ny + 1);
		stack[top++] = ny * cw + nx;
	}
	free(stack);
	free(dug);
}

/* test_maze_carve's dig into a maze's text: w + 1 bytes a row. */
struct maze_rows {
	char *m;
	int w;
};

static void dig_text(void *ctx, int x, int y)
{
	const struct maze_rows *r = ctx;
	r->m[(size_t)y * (size_t)(r->w + 1) + (size_t)x] = '.';
}

char *test_maze_text(int w, int h, uint32_t seed, int loops, int terrain)
{
	char *m = malloc((size_t)(w + 1) * (size_t)h + 1);
	if (!m)
		abort(); /* a suite's own memory */
	for (int y = 0; y < h; y++) {
		memset(m + (size_t)y * (size_t)(w + 1), '#', (size_t)w);
		m[(size_t)y * (size_t)(w + 1) + (size_t)w] = '\n';
	}
	m[(size_t)(w + 1) * (size_t)h] = '\0';
#define MAZE_AT(x, y) m[(size_t)(y) * (size_t)(w + 1) + (size_t)(x)]
	struct maze_rows rows = { m, w };
	test_maze_carve((w - 1) / 2, (h - 1) / 2, &seed, dig_text, &rows);
	for (int k = 0; k < loops;) {
		const int x = 1 + (int)(rnd(&seed) % (uint32_t)(w - 2)), y = 1 + (int)(rnd(&seed) % (uint32_t)(h - 2));
		if (MAZE_AT(x, y) == '#' && (x + y) % 2 == 1) { /* between two cells */
			MAZE_AT(x, y) = '.';
			k++;
		}
	}
	for (int y = 1; y < h - 1 && terrain > 0; y++)
		for (int x = 1; x < w - 1; x++)
			if (MAZE_AT(x, y) == '.' && (int)(rnd(&seed) % 100u) < terrain)
				MAZE_AT(x, y) = rnd(&seed) % 2u ? ',' : '~';
	MAZE_AT(1, 1) = '@';
	MAZE_AT(w - 2, h - 2) = '>';
#undef MAZE_AT
	return m;
}
