// Package quantize decides and performs the conversion of a model's weights
// from one tensor type to another: which type each tensor gets under a
// scheme such as Q8_0 or the Q4_K_M mix (the same choices llama.cpp's
// quantizer makes, so files written here look like the ones people
// download), the row codecs that turn float32 rows into a type's bytes and
// back, and Requantize, which rewrites a whole GGUF file tensor by tensor
// without holding it in memory. engine/synth uses the same policy and
// codecs when it writes synthetic models.
package quantize
