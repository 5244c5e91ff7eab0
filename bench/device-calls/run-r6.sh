#!/usr/bin/env bash
# Session 19, call 6 (issue 27): the MoE row held to AVX2 on the Xeon (ember EMBER_CPU=avx2 at 4bd64b9, llama-bench with only its haswell library): deepseek-v2-lite Q4_0, pp64 and tg16, -r 2, at 16 and 4 threads (then 2 if time is left), ember then llama.cpp.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/r6
(cd $X && xz -dc ember.xz > ember && chmod +x ember && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape deepseek-v2-lite --type Q4_0 --seed 1 -o $W/ds.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
e() { EMBER_CPU=avx2 $X/ember bench --backend cpu --model $W/ds.gguf -p 64 -n 16 -r 2 --threads $1 2>&1 | grep -E " (pp64|tg16) " | awk '{printf "%s %s %s %s; ", $6, $7, $8, $9}'; echo; }
l() { $X/llama-cpu/llama-bench -m $W/ds.gguf -p 64 -n 16 -r 2 -t $1 2>&1 | grep -E "pp64|tg16" | awk -F'|' '{printf "%s %s; ", $7, $8}'; echo; }
for t in 16 4 2; do
  [ $((SECONDS - START)) -lt 200 ] || break
  echo "## $t threads"
  echo -n "ember: "; e $t
  echo -n "llama: "; l $t
  echo "at $((SECONDS - START)) s"
done
echo "end at $((SECONDS - START)) s"
