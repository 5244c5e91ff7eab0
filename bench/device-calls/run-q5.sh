#!/usr/bin/env bash
# Session 18, call 5 (issue 27): ggml's own CPU mul_mat (haswell build, Q8_0 x 128 columns, one thread) beside ember's
# two-column kernels in the same loop shapes, alternated on one core of the Xeon.
set -u
exec > >(tee $OUT/log.txt) 2>&1
X=$PWD/.dev29/q5
(cd $X && xz -dc q.test.xz > q.test && chmod +x q.test && cd gm && xz -d *.xz) || exit 1
for i in 1 2 3; do
  taskset -c 5 $X/gm/mm 8192 2048 128 2
  taskset -c 5 $X/gm/mm 2048 8192 128 2
  taskset -c 5 $X/q.test -test.run XXX -test.bench 'ProtoAll/(8192|2048x)/(old|abs|absA|plain)$' -test.benchtime 2x -test.count 1 | grep Proto
done
taskset -c 5,6 $X/gm/mm 8192 2048 128 2 2
