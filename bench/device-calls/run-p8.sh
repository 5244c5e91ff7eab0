#!/usr/bin/env bash
# Session 17, call 8 (issue 29): where latent prefill attention's time goes, by ablation (builds whose results are wrong, timed only):
# G: every row of a group scored against the group's first key; H: every value row of a group read from its first; A: db32cad.
# youtu-llm:2b Q4_0's 512-token prefill timeline (attention_heads' line), alternated twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in ember-A wt-A.test wt-G.test wt-H.test; do xz -dc .dev29/p8/$f.xz > $D/$f; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-A synth --shape youtu-llm:2b --type Q4_0 --seed 1 -o $W/youtu.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for r in 1 2; do for v in A G H; do
  echo "== r$r $v: $(EMBER_BENCH_MODEL=$W/youtu.gguf EMBER_BENCH_TOKENS=512 $D/wt-$v.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 3x 2>&1 | grep -E 'timeline of|attention_heads' | tr '\n' ' ')"
done; done
echo "end at $SECONDS s"
