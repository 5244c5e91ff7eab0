//go:build cgo && !js

package webgpu

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// aluProbes are loops of eight independent operations a step, so that a
// thread issues without waiting on itself: the device's arithmetic peak
// for each kind of operation the products use, the yardstick of a tile
// kernel's operations a second (as ReadBandwidth is of a matvec's bytes).
// dot4 is WGSL's dot4I8Packed (SPIR-V OpSDot where the device has integer
// dot products); dot4-unpacked the same sums through unpack4xI8, what a
// driver without them runs; fma is f32 multiply-adds.
var aluProbes = []struct {
	name, body string
	opsPerStep int // operations (a multiply or an add each) of one step
}{
	{"dot4", dot4Step, 8 * 8},
	{"dot4-unpacked", `let xv = unpack4xI8(x);
        s0 += dot(unpack4xI8(w0), xv); s1 += dot(unpack4xI8(w1), xv); s2 += dot(unpack4xI8(w2), xv); s3 += dot(unpack4xI8(w3), xv);
        s4 += dot(unpack4xI8(w4), xv); s5 += dot(unpack4xI8(w5), xv); s6 += dot(unpack4xI8(w6), xv); s7 += dot(unpack4xI8(w7), xv);
        x += 0x01010101u;`, 8 * 8},
	{"fma", fmaStep, 8 * 2},
	// The same steps four to a loop turn: what the loop's own counter,
	// compare and branch take from the issue slots of the steps above.
	{"dot4-x4", strings.Repeat(dot4Step, 4), 4 * 8 * 8},
	{"fma-x4", strings.Repeat(fmaStep, 4), 4 * 8 * 2},
}

const dot4Step = `s0 += dot4I8Packed(w0, x); s1 += dot4I8Packed(w1, x); s2 += dot4I8Packed(w2, x); s3 += dot4I8Packed(w3, x);
        s4 += dot4I8Packed(w4, x); s5 += dot4I8Packed(w5, x); s6 += dot4I8Packed(w6, x); s7 += dot4I8Packed(w7, x);
        x += 0x01010101u;
        `

const fmaStep = `f0 = fma(f0, fx, 0.5); f1 = fma(f1, fx, 0.25); f2 = fma(f2, fx, 0.125); f3 = fma(f3, fx, 0.0625);
        f4 = fma(f4, fx, 0.5); f5 = fma(f5, fx, 0.25); f6 = fma(f6, fx, 0.125); f7 = fma(f7, fx, 0.0625);
        `

const aluProbeSource = `
@group(0) @binding(0) var<storage, read_write> O: array<u32>;
const STEPS = 1024u;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 256u;
    let w0 = i * 2654435761u; let w1 = w0 ^ 0x5a5a5a5au; let w2 = w0 + 0x01234567u; let w3 = w0 ^ 0x76543210u;
    let w4 = w1 + 0x11111111u; let w5 = w2 ^ 0x22222222u; let w6 = w3 + 0x33333333u; let w7 = w0 ^ 0x44444444u;
    var x = i;
    var s0 = 0; var s1 = 0; var s2 = 0; var s3 = 0; var s4 = 0; var s5 = 0; var s6 = 0; var s7 = 0;
    let fx = 0.999 + f32(i & 7u) * 1e-6;
    var f0 = f32(i); var f1 = f0 + 1.0; var f2 = f0 + 2.0; var f3 = f0 + 3.0;
    var f4 = f0 + 4.0; var f5 = f0 + 5.0; var f6 = f0 + 6.0; var f7 = f0 + 7.0;
    for (var k = 0u; k < STEPS; k++) {
        %s
    }
    let s = s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7;
    let f = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7;
    O[i] = u32(s) ^ bitcast<u32>(f);
}
`

// BenchmarkALUPeak reports each probe's operations a second (Gop/s).
func BenchmarkALUPeak(b *testing.B) {
	const groupsX, groupsY, steps = 1024, 16, 1024
	threads := groupsX * groupsY * 256
	for _, p := range aluProbes {
		b.Run(p.name, func(b *testing.B) {
			gb, err := Open(Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer gb.Close()
			be := gb.(*Backend)
			out, err := be.Alloc("alu.out", tI32, gpu.Shape4(threads))
			if err != nil {
				b.Fatal(err)
			}
			pipe, err := be.newPipeline("alu/"+p.name, fmt.Sprintf(aluProbeSource, p.body))
			if err != nil {
				b.Fatal(err)
			}
			defer pipe.Release()
			layout := pipe.GetBindGroupLayout(0)
			defer layout.Release()
			grp, err := be.dev.TryCreateBindGroup(&wgpu.BindGroupDescriptor{Layout: layout, Entries: []wgpu.BindGroupEntry{{Binding: 0, Buffer: out.(*buffer).buf, Size: wgpu.WholeSize}}})
			if err != nil {
				b.Fatal(err)
			}
			defer grp.Release()
			run := func(n int) time.Duration {
				enc, err := be.dev.TryCreateCommandEncoder(nil)
				if err != nil {
					b.Fatal(err)
				}
				pass := enc.BeginComputePass(nil)
				pass.SetPipeline(pipe)
				pass.SetBindGroup(0, grp, nil)
				for range n {
					pass.DispatchWorkgroups(groupsX, groupsY, 1)
				}
				if err := pass.TryEnd(); err != nil {
					b.Fatal(err)
				}
				pass.Release()
				cmd, err := enc.TryFinish(nil)
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				be.queue.Submit(cmd)
				be.wait()
				cmd.Release()
				enc.Release()
				return time.Since(t0)
			}
			run(1)
			b.ResetTimer()
			d := run(b.N)
			ops := float64(threads) * steps * float64(p.opsPerStep) * float64(b.N)
			b.ReportMetric(ops/d.Seconds()/1e9, "Gop/s")
		})
	}
}
