#!/usr/bin/env bash
# Session 20, calls 6-8: the issue-29 table at 7d8391d through bench/webgpu.sh's rounds (each test an invocation of its own, the first tool swapped each round, medians of 3 rounds; -p 512 / -n 128, R=2). MODELS from the first argument.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/s6/ember.xz > $D/ember; chmod +x $D/ember
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/ember-bench; mkdir -p $W; P=
for m in $1; do s=${m%/*}; t=${m#*/}; $D/ember synth --shape $s --type $t --seed 1 -o $W/${s//:/-}-$t.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
EMBER=$D/ember LLAMA_VULKAN=$D/llama-vulkan/llama-bench WORK=$W RESULTS=$OUT/results.jsonl MODELS="$1" P=512 N=128 R=2 ROUNDS=3 timeout -k 5 530 bash bench/webgpu.sh 2>$OUT/err.txt | tail -12
python3 -c '
import json,sys
for l in open(sys.argv[1]):
    x=json.loads(l)
    print(x["model"], [(round(r["ember_pp"]["prefill_mean"]), round(r["vulkan"]["pp"]), round(r["ember_tg"]["decode_mean"],1), round(r["vulkan"]["tg"],1)) for r in x["rounds"]])' $OUT/results.jsonl
echo "end at $SECONDS s"
