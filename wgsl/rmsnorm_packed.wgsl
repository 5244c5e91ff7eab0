// RMSNorm of each row as rmsnorm.wgsl, also written in quantize_act's
// packed modes (4: Q8_0, 5: Q8_K) for the tiled products of a prompt:
// rmsnorm_round does the same with a workgroup per 256 values, each
// re-summing the whole row and rounding a value a thread through atomics
// and barriers; over a prompt's many rows one workgroup a row, summing it
// once, with a run of 32 values a thread (pack_run, as quantize_packed),
// does less. The same norm and the same packed words, bit for bit.
// Words: rmsNormRoundParams (Block is unused).
//!use common
//!use rms_scale
//!use pack_run
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;

const NT = 256u;

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
        if (live) {
            for (var j = 0u; j < 32u; j++) {
                let i = 32u * run + j;
                var y = X[at(P_IN, i, i1, i2, i3)] * scale;
                if (pu(P_HAS_WEIGHT) != 0u) { y *= Wt[at(P_WEIGHT, i, 0u, 0u, 0u)]; }
                O[at(P_OUT, i, i1, i2, i3)] = y;
                x.v[j] = y;
            }
        }
        let e = run_extreme(x);
        put_extreme(li, e);
        workgroupBarrier();
        if (live) {
            var b = e;
            if (mode != 4u) { b = super_extreme(li); }
            let p = pack_run(x, b, mode);
            for (var w = 0u; w < 8u; w++) { Y[o + 8u * run + w] = p.words[w]; }
            let hw = head_words(p, n, run, mode);
            for (var i = 0u; i < 3u; i++) {
                if (hw[i].x != NO_WORD) { Y[o + hw[i].x] = hw[i].y; }
            }
        }
        workgroupBarrier();
    }
}
