#!/usr/bin/env bash
# Session 16, call 3 (issue 27): the lent host's CPU (16 cores), the 1B rows at 16 and 4 threads with ember bench's decode from an empty context (-d 0, as llama-bench's tg), against llama.cpp's zen4 build (AVX-512 VNNI, no AMX), then its default (AMX) build at 16 threads while time is left; ember at the HEAD of this call.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/n3
(cd $X && xz -dc ember.xz > ember-cpu && chmod +x ember-cpu && tar xJf llama-cpu.tar.xz) || exit 1
lscpu | grep -E "Model name|^CPU\(s\)" | head -3; grep -o 'amx_int8\|avx512_vnni' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
L=$X/llama-cpu
Z=$X/llama-cpu@zen4; mkdir -p $Z; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-zen4.so $Z/
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W; P=
for t in Q4_0 Q8_0 Q4_K_M; do $B synth --shape llama3.2:1b --type $t --seed 1 -o $W/llama3.2-1b-$t.gguf >/dev/null 2>&1 & P="$P $!"; done; wait $P
echo "synth at $((SECONDS - START)) s"
env EMBER=$B WORK=$W P=128 N=32 R=2 RESULTS=$OUT/zen4.jsonl LLAMA_BENCH=$Z/llama-bench THREADS="16 4" MODELS="llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M" timeout 380 bench/cpu.sh >/dev/null 2>$OUT/zen4.err || echo "zen4 cut: $(tail -c 300 $OUT/zen4.err)"
echo "zen4 at $((SECONDS - START)) s"
bench/cpu.sh --table $OUT/zen4.jsonl
left=$((530 - (SECONDS - START)))
if [ $left -gt 60 ]; then
env EMBER=$B WORK=$W P=128 N=32 R=2 RESULTS=$OUT/amx.jsonl LLAMA_BENCH=$L/llama-bench THREADS="16" MODELS="llama3.2:1b/Q4_0 llama3.2:1b/Q8_0" timeout $left bench/cpu.sh >/dev/null 2>$OUT/amx.err || echo "amx cut"
echo "### llama.cpp default build"; bench/cpu.sh --table $OUT/amx.jsonl
fi
echo "end at $((SECONDS - START)) s"
