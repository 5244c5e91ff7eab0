#!/usr/bin/env bash
# Session 6, call 4: the device's arithmetic peaks (BenchmarkALUPeak: dot4I8Packed,
# the same through unpack4xI8, f32 fma) and the products at vC alone.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/webgpu-alu.test.xz > $D/webgpu-alu.test; chmod +x $D/webgpu-alu.test
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cd gpu/webgpu
$D/webgpu-alu.test -test.run XXX -test.bench 'ALUPeak' -test.benchtime 20x -test.count 2 2>&1 | grep -E "^Benchmark"
$D/webgpu-alu.test -test.run XXX -test.bench 'PrefillMatMul/.*/(Q4_0|Q8_0)/T512' -test.benchtime 20x 2>&1 | grep -E "^Benchmark"
echo "end at $SECONDS s"
