#!/usr/bin/env bash
# Session 19, call 5 (issue 27): the Xeon's 2-thread Q8_0 cell held to AVX2 (ember EMBER_CPU=avx2 at 4bd64b9, llama-bench with only its haswell CPU library), both tools pinned to cores 4,5 in every round, the order of the two swapped each round; pp128 and tg32, -r 3; then one unpinned round.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/r5
(cd $X && xz -dc ember.xz > ember && chmod +x ember && tar xJf llama-cpu.tar.xz) || exit 1
lscpu | grep -E "Model name|^CPU\(s\)"
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
e() { $1 env EMBER_CPU=avx2 $X/ember bench --backend cpu --model $W/q8.gguf -p 128 -n 32 -r 3 --threads 2 2>&1 | grep -E " (pp128|tg32) " | awk '{printf "%s %s %s %s; ", $6, $7, $8, $9}'; echo; }
l() { $1 $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 32 -r 3 -t 2 2>&1 | grep -E "pp128|tg32" | awk -F'|' '{printf "%s %s; ", $7, $8}'; echo; }
for round in 1 2 3 4; do
  [ $((SECONDS - START)) -lt 420 ] || break
  echo "## round $round (pinned 4,5)"
  if [ $((round % 2)) = 1 ]; then
    echo -n "ember: "; e "taskset -c 4,5"; echo -n "llama: "; l "taskset -c 4,5"
  else
    echo -n "llama: "; l "taskset -c 4,5"; echo -n "ember: "; e "taskset -c 4,5"
  fi
  echo "at $((SECONDS - START)) s"
done
if [ $((SECONDS - START)) -lt 480 ]; then
  echo "## unpinned"
  echo -n "ember: "; e ""; echo -n "llama: "; l ""
fi
echo "end at $((SECONDS - START)) s"
