#!/usr/bin/env bash
# Session 17, call 4 (issue 29): attention_heads holding its queries as f32 in workgroup memory (D) against f16 (A, db32cad):
# ember bench --backend webgpu -p 512 -n 16 -r 2 alternated twice on youtu-llm:2b, glm-4.7-flash, deepseek-v2-lite, llama3.2:1b, llama3.1:8b Q4_0;
# D's prefill timeline (T=512) attention lines; llama-bench Vulkan pp512 on the same files.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in ember-A ember-D wt-D.test; do xz -dc .dev29/p4/$f.xz > $D/$f; done; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in youtu-llm:2b glm-4.7-flash deepseek-v2-lite llama3.2:1b llama3.1:8b; do $D/ember-A synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for v in D A; do for m in youtu-llm-2b glm-4.7-flash deepseek-v2-lite llama3.2-1b llama3.1-8b; do
  echo "== r$r $v $m: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "at $SECONDS s"; done
for m in youtu-llm-2b llama3.2-1b glm-4.7-flash; do
  echo "== $m timeline D"
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 $D/wt-D.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 2x 2>&1 | grep -E 'timeline of|attention_heads'
done
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 512 -n 0 -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in youtu-llm-2b glm-4.7-flash deepseek-v2-lite llama3.2-1b llama3.1-8b; do
  [ $SECONDS -lt 520 ] || break
  echo "== $m vulkan pp512: $(lb $m) $(lb $m)"
done
echo "end at $SECONDS s"
