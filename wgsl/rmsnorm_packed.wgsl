// RMSNorm of each row as rmsnorm.wgsl, also written in quantize_act's
// packed modes (4: Q8_0, 5: Q8_K) for the tiled products of a prompt:
// rmsnorm_round does the same with a workgroup per 256 values, each
// re-summing the whole row and rounding a value a thread through atomics
// and barriers; over a prompt's many rows one workgroup a row, summing it
// once, with a run of 32 values a thread as quantize_packed.wgsl rounds
// them, does less. The same norm and the same packed words, bit for bit.
// Words: rmsNormRoundParams (Block is unused).
//!use common
//!use rms_scale
//!use round_q8
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;

const NT = 256u;

// Each run's largest magnitude and the first value of that magnitude, as
// in quantize_packed.wgsl.
var<workgroup> run_max: array<f32, NT>;
var<workgroup> run_first: array<f32, NT>;

struct Run { v: array<f32, 32> }

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let n = pu(P_N);
    let r = group_index(wid, nwg);
    let i1 = r % pu(P_D1);
    let i2 = (r / pu(P_D1)) % pu(P_D2);
    let i3 = r / (pu(P_D1) * pu(P_D2));
    let scale = rms_scale(li, i1, i2, i3);
    let mode = pu(P_MODE);
    let runs = n / 32u;
    let o = r * n;
    // Rounds of NT runs; the same count for every thread, so the barriers
    // stay uniform.
    for (var k0 = 0u; k0 < runs; k0 += NT) {
        let run = k0 + li;
        let live = run < runs;
        var x: Run;
        var m = 0.0;
        var first = 0.0;
        if (live) {
            for (var j = 0u; j < 32u; j++) {
                let i = 32u * run + j;
                var y = X[at(P_IN, i, i1, i2, i3)] * scale;
                if (pu(P_HAS_WEIGHT) != 0u) { y *= Wt[at(P_WEIGHT, i, 0u, 0u, 0u)]; }
                O[at(P_OUT, i, i1, i2, i3)] = y;
                x.v[j] = y;
                let a = abs(y);
                if (a > m) {
                    m = a;
                    first = y;
                }
            }
        }
        run_max[li] = m;
        run_first[li] = first;
        workgroupBarrier();
        if (live) {
            if (mode == 4u) {
                let s = q8_scales(m, first, 0u);
                var sum = 0;
                for (var w = 0u; w < 8u; w++) {
                    let a = q8_int(x.v[4u * w], s);
                    let b = q8_int(x.v[4u * w + 1u], s);
                    let c = q8_int(x.v[4u * w + 2u], s);
                    let d = q8_int(x.v[4u * w + 3u], s);
                    sum += a + b + c + d;
                    Y[o + 8u * run + w] = pack_q8(a, b, c, d);
                }
                let head = o + n / 4u + 2u * run;
                Y[head] = bitcast<u32>(s.x);
                Y[head + 1u] = bitcast<u32>(f32(sum));
            } else {
                // The super-block's eight runs are threads li & ~7 .. +7
                // (n and NT are whole super-blocks of runs).
                let b0 = li & ~7u;
                var bm = 0.0;
                var bv = 0.0;
                for (var j = 0u; j < 8u; j++) {
                    if (run_max[b0 + j] > bm) {
                        bm = run_max[b0 + j];
                        bv = run_first[b0 + j];
                    }
                }
                let s = q8_scales(bm, bv, 1u);
                var sums = vec2<i32>(0);
                for (var w = 0u; w < 8u; w++) {
                    let a = q8k_int(x.v[4u * w], s);
                    let b = q8k_int(x.v[4u * w + 1u], s);
                    let c = q8k_int(x.v[4u * w + 2u], s);
                    let d = q8k_int(x.v[4u * w + 3u], s);
                    if (w < 4u) { sums.x += a + b + c + d; } else { sums.y += a + b + c + d; }
                    Y[o + 8u * run + w] = pack_q8(a, b, c, d);
                }
                let head = o + n / 4u + 20u * (run / 8u);
                let h = 2u * (run % 8u);
                Y[head + 4u + h] = bitcast<u32>(sums.x);
                Y[head + 5u + h] = bitcast<u32>(sums.y);
                if (run % 8u == 0u) { Y[head] = bitcast<u32>(s.x); }
            }
        }
        workgroupBarrier();
    }
}
