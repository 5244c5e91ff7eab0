package metal

import (
	"fmt"

	"github.com/emberllm/ember/msl"
)

// What a Metal device is and which optional features the kernels use on
// it, decided from its answers to supportsFamily: and from whether it
// builds a pipeline of a probe kernel. Plain functions of those answers,
// so that the tests check the decisions on Linux.

// MTLGPUFamily values: AppleN is 1000+N (Apple1, the A7, to Apple10 so
// far), CommonN 3000+N.
const (
	familyApple1  = 1001
	familyApple7  = 1007
	familyApple10 = 1010
	familyMac2    = 2002
	familyCommon1 = 3001
	familyCommon3 = 3003
	familyMetal3  = 5001
)

// familyName is the device's highest Apple GPU family (the one Metal's
// feature tables are written by), else Mac2, else its highest common
// family, and Metal 3 where it has it: what -v prints.
func familyName(supports func(family int64) bool) string {
	name := "no Apple, Mac2 or common GPU family"
	switch {
	case highest(supports, familyApple10, familyApple1) > 0:
		name = fmt.Sprintf("Apple%d", highest(supports, familyApple10, familyApple1)-1000)
	case supports(familyMac2):
		name = "Mac2"
	case highest(supports, familyCommon3, familyCommon1) > 0:
		name = fmt.Sprintf("Common%d", highest(supports, familyCommon3, familyCommon1)-3000)
	}
	if supports(familyMetal3) {
		name += ", Metal 3"
	}
	return name
}

// highest is the highest family from hi down to lo the device supports,
// or 0.
func highest(supports func(int64) bool, hi, lo int64) int64 {
	for f := hi; f >= lo; f-- {
		if supports(f) {
			return f
		}
	}
	return 0
}

// deviceFeatures are the optional features the kernels use on a device:
// SIMD-group reductions and matrices on Apple7 and later (Apple silicon
// from M1 on, SIMD-groups of 32), each where the device builds a pipeline
// of its probe. A hosted macOS runner's paravirtual GPU (Apple5 or
// Common3) is asked nothing and gets neither: the kernels without are
// built there.
func deviceFeatures(supports func(int64) bool, builds func(src string) bool) msl.Features {
	if !supports(familyApple7) {
		return msl.Features{}
	}
	return msl.Features{SIMD: builds(probeReduce), Matrix: builds(probeMatrix)}
}

// Kernels named probe that use one optional feature each: the sum of a
// SIMD-group's 32 values, and an 8×8 matrix A·A + A. The barrier lets
// every thread load before any stores, as the SIMD-group does at once on
// a GPU and the tests' shim, whose threads each do the whole matrix one
// after another, needs.
const (
	probeReduce = `#include <metal_stdlib>
using namespace metal;
kernel void probe(device float* x [[buffer(0)]], uint i [[thread_index_in_simdgroup]]) { x[i] = simd_sum(x[i]); }
`
	probeMatrix = `#include <metal_stdlib>
using namespace metal;
kernel void probe(device float* x [[buffer(0)]]) {
    simdgroup_float8x8 a;
    simdgroup_load(a, x, 8);
    simdgroup_barrier(mem_flags::mem_device);
    simdgroup_multiply_accumulate(a, a, a, a);
    simdgroup_store(a, x, 8);
}
`
)
