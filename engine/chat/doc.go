// Package chat turns a conversation into the prompt text a model was trained
// on, and splits what the model writes back into reasoning and answer.
//
// A GGUF usually carries its chat template (tokenizer.chat_template, Jinja).
// Formatter renders it with the context Hugging Face and llama.cpp give it
// (messages, add_generation_prompt, bos_token, eos_token, enable_thinking,
// tools when there are any, strftime_now, raise_exception). When a file has
// no template, or one that will not render, Formatter falls back to a
// built-in preset chosen from the template text or from the architecture
// and pre-tokenizer keys (see presets.go).
//
// Jinja engine: github.com/ardanlabs/jinja. Before choosing it, every
// template in ../shared/templates was rendered on 16 conversations by each
// Go Jinja library the module proxy offers and compared byte for byte with
// Hugging Face's own renderer (@huggingface/jinja). Of the 61 templates the
// reference renders everywhere: ardanlabs/jinja v1.5.0 matched 61,
// nikolalohinski/gonja/v2 v2.9.1 41 (parse errors on macros, set blocks,
// slicing forms), nikolalohinski/gonja v1.5.3 and flosch/pongo2/v6 0 (no
// trim_blocks/lstrip_blocks, missing Python string methods). v1.5.0 is the
// newest ardanlabs/jinja release that builds with Go 1.26 (v1.11.0 needs Go
// 1.27). kaptinlin/jinja could not be fetched here. Known gap:
// tojson(indent=N) sorts object keys (Python keeps their order), which
// changes the tool listings of Llama 3.x, Granite 3.3 and llama.cpp's R1
// template; v1.5.0 has no way to replace a built-in filter.
package chat
