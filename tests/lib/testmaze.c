/* testmaze.c - perfect mazes for the suites (testmaze.h). */
#include "testmaze.h"

#include <stdlib.h>

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
