#!/usr/bin/env bash
# Session 17, call 3 (issue 29): attention_heads' value rows loaded for all of a thread's pairs at once (B: one token a workgroup,
# four rows of every pair; four tokens, eight rows) and B with a long key's 24 pairs loaded before adding (C), against A (db32cad):
# ember bench --backend webgpu -p 512 -n 16 -r 2 alternated twice on youtu-llm:2b, glm-4.7-flash, deepseek-v2-lite, llama3.2:1b Q4_0;
# youtu's prefill timeline (T=512) for B and C.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in ember-A ember-B ember-C wt-B.test wt-C.test; do xz -dc .dev29/p3/$f.xz > $D/$f; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in youtu-llm:2b glm-4.7-flash deepseek-v2-lite llama3.2:1b; do $D/ember-A synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for v in C B A; do for m in youtu-llm-2b glm-4.7-flash deepseek-v2-lite llama3.2-1b; do
  echo "== r$r $v $m: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "at $SECONDS s"; done
for v in B C; do
  echo "== youtu timeline $v"
  EMBER_BENCH_MODEL=$W/youtu-llm-2b.gguf EMBER_BENCH_TOKENS=512 $D/wt-$v.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 3x 2>&1 | grep -E 'timeline of|attention_heads'
  echo "== glm timeline $v"
  EMBER_BENCH_MODEL=$W/glm-4.7-flash.gguf EMBER_BENCH_TOKENS=512 $D/wt-$v.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 2x 2>&1 | grep -E 'timeline of|attention_heads'
done
echo "end at $SECONDS s"
