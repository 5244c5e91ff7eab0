#!/usr/bin/env bash
# Issue 27 on the lent GPU host's CPU: the 1B rows held to AVX2 (ember EMBER_CPU=avx2,
# llama.cpp's haswell build) at 16 and 4 threads, at 93b6e60; the default-build rows again.
set -u
START=$SECONDS
OUT=/tmp/x2; mkdir -p $OUT
(cd .dev27x && xz -dc ember-cpu.xz > ember-cpu && chmod +x ember-cpu && tar xJf llama-cpu.tar.xz) || exit 1
L=$PWD/.dev27x/llama-cpu
H=$PWD/.dev27x/llama-cpu@haswell; mkdir -p $H; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-haswell.so $H/
B=$PWD/.dev27x/ember-cpu
W=/tmp/m27; mkdir -p $W
env EMBER=$B WORK=$W P=128 N=32 R=2 ISA=avx2 RESULTS=$OUT/avx2.jsonl LLAMA_BENCH=$H/llama-bench THREADS="16 4" MODELS="llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M" timeout 300 bench/cpu.sh >/dev/null 2>$OUT/avx2.err || echo "avx2 cut: $(tail -c 300 $OUT/avx2.err)"
bench/cpu.sh --table $OUT/avx2.jsonl
env EMBER=$B WORK=$W P=128 N=32 R=3 RESULTS=$OUT/amx.jsonl LLAMA_BENCH=$L/llama-bench THREADS="16 4" MODELS="llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M" timeout 200 bench/cpu.sh >/dev/null 2>$OUT/amx.err || echo "amx cut"
echo "### llama.cpp default build"; bench/cpu.sh --table $OUT/amx.jsonl
echo "end at $((SECONDS - START)) s"
