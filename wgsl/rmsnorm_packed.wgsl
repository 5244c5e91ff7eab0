// RMSNorm of each row as rmsnorm.wgsl, also written in quantize_act's
// packed modes (4: Q8_0, 5: Q8_K) for the tiled products of a prompt:
// rmsnorm_round does the same with a workgroup per 256 values, each
// re-summing the whole row and rounding a value a thread through atomics
// and barriers; over a prompt's many rows one workgroup a row, summing it
// once, with eight values a thread as quantize_packed.wgsl rounds them
// (round_part.wgsl), does less. The same norm and the same packed words,
// bit for bit. Words: rmsNormRoundParams (Block is unused).
//!use common
//!use rms_scale
//!use round_part
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
    let parts = n / 8u;
    // Rounds of NT parts (whole runs and super-blocks); the same count for
    // every thread, so the barriers stay uniform.
    for (var p0 = 0u; p0 < parts; p0 += NT) {
        let live = p0 + li < parts;
        let k0 = 8u * (p0 + li);
        var x: Part;
        if (live) {
            var w: Part;
            for (var j = 0u; j < 8u; j++) {
                x.v[j] = X[at(P_IN, k0 + j, i1, i2, i3)];
                w.v[j] = 1.0;
                if (pu(P_HAS_WEIGHT) != 0u) { w.v[j] = Wt[at(P_WEIGHT, k0 + j, 0u, 0u, 0u)]; }
            }
            for (var j = 0u; j < 8u; j++) {
                var y = x.v[j] * scale;
                if (pu(P_HAS_WEIGHT) != 0u) { y *= w.v[j]; }
                O[at(P_OUT, k0 + j, i1, i2, i3)] = y;
                x.v[j] = y;
            }
        }
        let pk = pack_part(li, x, part_extreme(x), mode);
        if (live) {
            let st = part_stores(li, k0, r * n, n, mode, pk);
            for (var i = 0u; i < st.n; i++) { Y[st.at[i]] = st.bits[i]; }
        }
        // part_sum is read above before the next round's pack_part
        // writes it again.
        workgroupBarrier();
    }
}
