// ggml_oracle runs ggml's own block encoders and decoders from the prebuilt
// libggml-base.so so the Go tests can compare against them byte for byte.
//
//   ggml_oracle quant   TYPE N_PER_ROW N_BYTES  in.f32 out.bin
//   ggml_oracle dequant TYPE N_ELEMS   N_BYTES  in.bin out.f32
//
// quant runs ggml_quantize_chunk with no importance matrix (what llama.cpp's
// quantizer uses for every type it accepts); Q8_1 and Q8_K, which it does not
// accept, go through their reference row encoders. dequant runs the type's
// to_float (Q8_K has none there, so its exported row decoder). The few
// declarations needed are written out here, matching ggml.h.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*to_float_t)(const void *x, float *y, int64_t k);
typedef void (*from_float_t)(const float *x, void *y, int64_t k);

struct ggml_type_traits {
    const char *type_name;
    int64_t blck_size;
    int64_t blck_size_interleave;
    size_t type_size;
    bool is_quantized;
    to_float_t to_float;
    from_float_t from_float_ref;
};

const struct ggml_type_traits *ggml_get_type_traits(int type);
size_t ggml_quantize_chunk(int type, const float *src, void *dst, int64_t start,
                           int64_t nrows, int64_t n_per_row, const float *imatrix);
void quantize_row_q8_1_ref(const float *x, void *y, int64_t k);
void quantize_row_q8_K_ref(const float *x, void *y, int64_t k);
void dequantize_row_q8_K(const void *x, float *y, int64_t k);

enum { TYPE_Q8_1 = 9, TYPE_Q8_K = 15 };

static void *read_all(const char *path, size_t want) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    void *buf = calloc(want ? want : 1, 1);
    if (fread(buf, 1, want, f) != want) { fprintf(stderr, "%s: short read\n", path); exit(2); }
    fclose(f);
    return buf;
}

static void write_all(const char *path, const void *buf, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) { perror(path); exit(2); }
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s quant|dequant TYPE N N_BYTES in out\n", argv[0]);
        return 2;
    }
    int type = atoi(argv[2]);
    int64_t n = atoll(argv[3]);
    size_t nbytes = (size_t)atoll(argv[4]);
    if (strcmp(argv[1], "quant") == 0) {
        // n is the row length; the input holds whole rows of floats.
        FILE *f = fopen(argv[5], "rb");
        if (!f) { perror(argv[5]); return 2; }
        fseek(f, 0, SEEK_END);
        int64_t total = ftell(f) / 4;
        fclose(f);
        float *src = read_all(argv[5], (size_t)total * 4);
        void *dst = calloc(nbytes ? nbytes : 1, 1);
        if (type == TYPE_Q8_1) {
            quantize_row_q8_1_ref(src, dst, total);
        } else if (type == TYPE_Q8_K) {
            quantize_row_q8_K_ref(src, dst, total);
        } else {
            size_t got = ggml_quantize_chunk(type, src, dst, 0, total / n, n, NULL);
            if (got != nbytes) { fprintf(stderr, "quantize_chunk wrote %zu bytes, want %zu\n", got, nbytes); return 3; }
        }
        write_all(argv[6], dst, nbytes);
        return 0;
    }
    if (strcmp(argv[1], "dequant") == 0) {
        void *src = read_all(argv[5], nbytes);
        float *dst = calloc((size_t)(n ? n : 1), sizeof(float));
        if (type == TYPE_Q8_K) {
            dequantize_row_q8_K(src, dst, n);
        } else {
            const struct ggml_type_traits *tr = ggml_get_type_traits(type);
            if (!tr || !tr->to_float) { fprintf(stderr, "type %d has no to_float\n", type); return 3; }
            tr->to_float(src, dst, n);
        }
        write_all(argv[6], dst, (size_t)n * 4);
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
