package quant

// q4KSets are the interleaved Q4_K kernel sets this CPU runs: none on
// arm64 yet (the CPU backend keeps Q4_K in GGUF's layout there).
func q4KSets() (names []string, sets []q4KKernels) { return nil, nil }
