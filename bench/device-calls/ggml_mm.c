// Times ggml's CPU mul_mat of a Q8_0 matrix by T F32 columns (1 thread), as GMAC/s.
#include "ggml.h"
#include "ggml-cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
	int N = atoi(argv[1]), K = atoi(argv[2]), T = atoi(argv[3]), reps = atoi(argv[4]), nth = argc > 5 ? atoi(argv[5]) : 1;
	ggml_cpu_init();
	size_t mem = (size_t)N * K * 2 + (size_t)K * T * 8 + (size_t)N * T * 8 + 64 * 1024 * 1024;
	struct ggml_init_params ip = { mem, NULL, false };
	struct ggml_context *ctx = ggml_init(ip);
	struct ggml_tensor *a = ggml_new_tensor_2d(ctx, GGML_TYPE_Q8_0, K, N);
	struct ggml_tensor *b = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, K, T);
	float *tmp = malloc(sizeof(float) * K * N);
	srand(1);
	for (long i = 0; i < (long)K * N; i++) tmp[i] = (float)rand() / RAND_MAX - 0.5f;
	ggml_quantize_chunk(GGML_TYPE_Q8_0, tmp, a->data, 0, N, K, NULL);
	float *bd = b->data;
	for (long i = 0; i < (long)K * T; i++) bd[i] = (float)rand() / RAND_MAX - 0.5f;
	struct ggml_tensor *c = ggml_mul_mat(ctx, a, b);
	struct ggml_cgraph *g = ggml_new_graph(ctx);
	ggml_build_forward_expand(g, c);
	ggml_graph_compute_with_ctx(ctx, g, nth);
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		ggml_graph_compute_with_ctx(ctx, g, nth);
		double dt = now() - t0;
		if (dt < best) best = dt;
		printf("ggml mul_mat Q8_0 %dx%d T=%d threads=%d: %.2f GMAC/s\n", N, K, T, nth, (double)N * K * T / dt / 1e9);
	}
	return 0;
}
