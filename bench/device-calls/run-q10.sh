#!/usr/bin/env bash
# Session 18, call 10 (issue 27): the Q8_0 rows held to AVX2 against llama.cpp's haswell build at 16 and 2 threads with the
# kept two-column kernel (b74d79e), R=4 (bench/cpu.sh, unpinned as ever).
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q10
(cd $X && xz -dc ember.xz > ember && chmod +x ember && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/llama3.2-1b-Q8_0.gguf >/dev/null 2>&1 & P1=$!
$X/ember synth --shape qwen3:0.6b --type Q8_0 --seed 1 -o $W/qwen3-0.6b-Q8_0.gguf >/dev/null 2>&1 & P2=$!
wait $P1; wait $P2
echo "synth at $((SECONDS - START)) s"
cb() { # name threads
  ISA=avx2 EMBER=$X/ember WORK=$W RESULTS=$OUT/$1.jsonl LLAMA_BENCH=$X/llama-cpu/llama-bench P=128 N=32 R=4 THREADS="$2" \
    MODELS="llama3.2:1b/Q8_0 qwen3:0.6b/Q8_0" timeout 200 bash bench/cpu.sh >/dev/null 2>$OUT/$1.err || echo "$1 cut: $(tail -c 300 $OUT/$1.err)"
  echo "### $1 at $((SECONDS - START)) s"; bash bench/cpu.sh --table $OUT/$1.jsonl
}
cb avx2-16 16
cb avx2-2 2
echo "end at $((SECONDS - START)) s"
