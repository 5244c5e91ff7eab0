#!/usr/bin/env bash
# Session 15, call 3 (run again as call 4: a bare `wait` had waited for the log's tee until the limit): the grouped experts' products (matmul_id_tokens) in three shapes against base ebed34c, GLM-4.7-Flash
# Q4_0 serving (bench/serve.sh, greedy, 128 tokens a stream, slots of 256): b4 = runs of up to 4 pairs, only a run's pairs
# computed (a uniform branch a pair); b8 = the same, runs of up to 8; new = runs of 4 all computed (call 2's). 16 streams
# alternated twice, 64 once each. Then the 8B's batch step at 16 (BenchmarkDecodeStep, queued), b4 against base: the dense
# batch kernel now takes the live count as an argument (TOKENS, a constant).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in b4 b8 new base; do xz -dc .dev29/m3/ember-$v.xz > $D/ember-$v; done
for v in b4 base; do xz -dc .dev29/m3/wt-$v.xz > $D/wt-$v; done
xz -dc .dev29/m3/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-b4 synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 &
P8=$!
$D/ember-b4 synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1
# (a bare wait would also wait for the tee above)
wait $P8
echo "synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/glm.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== glm $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for r in 1 2; do for v in b4 new base; do run $v 16; done; done
for v in b4 b8 new base; do run $v 64; done
for r in 1; do for v in b4 base; do
  [ $SECONDS -lt 500 ] || break
  EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/8b.gguf timeout 40 $D/wt-$v -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/all-queued$' 2>&1 | grep Benchmark | awk -v v=$v '{print "8b", v, "batch=16", $1, $3, $4}'
done; done
echo "end at $SECONDS s"
