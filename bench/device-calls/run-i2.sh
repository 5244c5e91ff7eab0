#!/usr/bin/env bash
# Session 11, call 2: attention_heads staging each row group's cache rows in workgroup memory for QB tokens (new: the
# next group's loads in flight during the current one; np: loaded right before they are stored) against fb08ce9
# (base); `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated twice; and TestAttentionHeadsSameBits on the H100
# (the latent head of four F16 tokens fits its 48 KiB, not lavapipe's 32).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base new np; do xz -dc .dev29/i2/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/i2/wt-new.xz > $D/wt.test; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
(cd /tmp && $D/wt.test -test.run 'TestAttentionHeadsSameBits' -test.v 2>&1 | grep -- "--- \|^ok\|^PASS\|^FAIL\|fit" | head -20)
wait
echo "synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b; do
  for r in 1 2; do for v in base new np; do echo "== $m $v $(pp $m $v)"; done; done
done
echo "at $SECONDS s"
for m in llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  for r in 1 2; do for v in base new; do echo "== $m $v $(pp $m $v)"; done; done
  echo "at $SECONDS s"
done
