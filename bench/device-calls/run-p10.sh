#!/usr/bin/env bash
# Session 17, call 10 (issue 27): the remaining cells of the goal on the lent host: the dense and per-token rows at 2 threads against
# the zen4 build and, held to AVX2, against the haswell build; then the per-token rows held to AVX2 at 16 and 4 threads. R=2.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/p10
(cd $X && xz -dc ember.xz > ember-cpu && chmod +x ember-cpu && tar xJf llama-cpu.tar.xz) || exit 1
L=$X/llama-cpu
Z=$X/llama-cpu@zen4; mkdir -p $Z; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-zen4.so $Z/
H=$X/llama-cpu@haswell; mkdir -p $H; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-haswell.so $H/
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W
P=
for t in Q4_0 Q8_0 Q4_K_M; do $B synth --shape llama3.2:1b --type $t --seed 1 -o $W/llama3.2-1b-$t.gguf >/dev/null 2>&1 & P="$P $!"; done
$B synth --shape qwen3:0.6b --type Q8_0 --seed 1 -o $W/qwen3-0.6b-Q8_0.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $((SECONDS - START)) s"
cb() { # name timeout env...
  local name=$1 lim=$2; shift 2
  env "$@" EMBER=$B WORK=$W RESULTS=$OUT/$name.jsonl timeout $lim bash bench/cpu.sh >/dev/null 2>$OUT/$name.err || echo "$name cut: $(tail -c 300 $OUT/$name.err)"
  echo "### $name at $((SECONDS - START)) s"; bash bench/cpu.sh --table $OUT/$name.jsonl
}
DENSE="llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M $X/stories260K.gguf qwen3:0.6b/Q8_0"
cb zen4-2 230 LLAMA_BENCH=$Z/llama-bench P=128 N=32 R=2 THREADS="2" MODELS="$DENSE"
cb avx2-2 230 ISA=avx2 LLAMA_BENCH=$H/llama-bench P=128 N=32 R=2 THREADS="2" MODELS="$DENSE"
left=$((570 - (SECONDS - START)))
[ $left -gt 30 ] && cb avx2-pertoken $left ISA=avx2 LLAMA_BENCH=$H/llama-bench P=128 N=32 R=2 THREADS="16 4" MODELS="$X/stories260K.gguf qwen3:0.6b/Q8_0"
echo "end at $((SECONDS - START)) s"
