#!/usr/bin/env bash
# Session 17, call 2 (issue 29): attention_heads taking four tokens a workgroup for heads of at most 128 values (new) against
# one token (old, 301cf23): ember bench --backend webgpu -p 512 -n 16 -r 2, alternated twice, on llama3.2:1b, llama3.1:8b, youtu-llm:2b Q4_0;
# the new build's prefill timeline (T=512) on the 1B and youtu; llama-bench Vulkan pp512 with and without cooperative matrices (8B, 1B).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in ember-old ember-new webgpu-new.test; do xz -dc .dev29/p2/$f.xz > $D/$f; done; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b llama3.1:8b youtu-llm:2b; do $D/ember-new synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for v in new old; do for m in llama3.2-1b llama3.1-8b youtu-llm-2b; do
  echo "== r$r $v $m: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "at $SECONDS s"; done
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 512 -n 0 -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in llama3.2-1b llama3.1-8b youtu-llm-2b; do
  echo "== $m vulkan pp512: $(lb $m)"
  echo "== $m vulkan pp512 without coopmat: $(GGML_VK_DISABLE_COOPMAT=1 GGML_VK_DISABLE_COOPMAT2=1 lb $m)"; grep -m1 "ggml_vulkan: 0 =" $W/lb.err
done
echo "at $SECONDS s"
for m in llama3.2-1b youtu-llm-2b; do
  echo "== $m new timeline T=512"
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 $D/webgpu-new.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 3x 2>&1 | head -24
done
echo "end at $SECONDS s"
