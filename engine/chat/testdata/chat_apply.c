// Formats a conversation with llama.cpp's built-in chat presets
// (llama_chat_apply_template with a preset name), the reference for
// ember's presets. Usage: chat_apply PRESET ADD_ASSISTANT(0|1) < MESSAGES
// where MESSAGES is role NUL content NUL, repeated. Prints the prompt.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct llama_chat_message {
    const char * role;
    const char * content;
};

int32_t llama_chat_apply_template(const char * tmpl, const struct llama_chat_message * chat, size_t n_msg,
                                  bool add_ass, char * buf, int32_t length);

int main(int argc, char ** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: chat_apply PRESET ADD_ASSISTANT < MESSAGES\n");
        return 2;
    }
    size_t cap = 1 << 16, len = 0, n;
    char * in = malloc(cap);
    while ((n = fread(in + len, 1, cap - len, stdin)) > 0) {
        len += n;
        if (len == cap) {
            cap *= 2;
            in = realloc(in, cap);
        }
    }
    struct llama_chat_message msgs[256];
    size_t n_msg = 0, pos = 0;
    while (pos < len && n_msg < 256) {
        msgs[n_msg].role = in + pos;
        pos += strlen(in + pos) + 1;
        if (pos >= len) {
            fprintf(stderr, "message without content\n");
            return 2;
        }
        msgs[n_msg].content = in + pos;
        pos += strlen(in + pos) + 1;
        n_msg++;
    }
    int32_t size = 1 << 20;
    char * out = malloc(size);
    int32_t got = llama_chat_apply_template(argv[1], msgs, n_msg, argv[2][0] == '1', out, size);
    if (got < 0 || got > size) {
        fprintf(stderr, "llama_chat_apply_template failed: %d\n", got);
        return 1;
    }
    fwrite(out, 1, got, stdout);
    return 0;
}
