// Package gputest is the op test suite every ember backend runs: each op of
// the kernel interface on random inputs (seeded, never zeros), odd sizes,
// every weight type, strided views and the positional cases (history in
// the cache, GQA, MLA, YaRN), compared against float64 references written
// here as plain loops, independent of any backend; and every backend but
// the CPU also against the CPU backend running the same graph, each
// output's normalized mean squared error under the bound llama.cpp's
// test-backend-ops sets for the op (mirror.go).
//
// It is an ordinary package so that each backend's tests can call
// RunOpSuite(t, newBackend).
package gputest
