#!/usr/bin/env bash
# Session 18, call 6 (issue 27): the AVX2 two-column Q8_0 kernel with the activation as sign source (new) against the
# last session's (old, 0d125e8), both held to AVX2 against llama.cpp's haswell build, Q8_0 rows at 2 and 4 threads, R=4.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q6
(cd $X && xz -dc ember-old.xz > ember-old && xz -dc ember-new.xz > ember-new && chmod +x ember-old ember-new && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember-new synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/llama3.2-1b-Q8_0.gguf >/dev/null 2>&1 & P1=$!
$X/ember-new synth --shape qwen3:0.6b --type Q8_0 --seed 1 -o $W/qwen3-0.6b-Q8_0.gguf >/dev/null 2>&1 & P2=$!
wait $P1; wait $P2
echo "synth at $((SECONDS - START)) s"
cb() { # name binary threads
  ISA=avx2 EMBER=$X/ember-$2 WORK=$W RESULTS=$OUT/$1.jsonl LLAMA_BENCH=$X/llama-cpu/llama-bench P=128 N=32 R=4 THREADS="$3" \
    MODELS="llama3.2:1b/Q8_0 qwen3:0.6b/Q8_0" timeout 150 bash bench/cpu.sh >/dev/null 2>$OUT/$1.err || echo "$1 cut: $(tail -c 300 $OUT/$1.err)"
  echo "### $1 at $((SECONDS - START)) s"; bash bench/cpu.sh --table $OUT/$1.jsonl
}
cb new-2 new 2
cb old-2 old 2
cb new-4 new 4
cb old-4 old 4
echo "end at $((SECONDS - START)) s"
