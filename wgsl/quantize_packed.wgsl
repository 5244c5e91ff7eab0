// quantize_act's packed modes (4: Q8_0, 5: Q8_K) for a prompt's many
// rows, eight values a thread (round_part.wgsl): quantize_act takes a
// value a thread, so each block's extreme is a workgroup reduction
// through atomics and barriers, which ran a prompt's activations at a
// tenth of the memory's speed. The same scales, integers and sums as
// quantize_act's, bit for bit. Words: quantizeActParams (Groups counts
// workgroups of 256 parts; Block is unused).
//!use common
//!use round_part
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<u32>;
@group(0) @binding(4) var<storage, read> X2: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y2: array<u32>;

fn load_part(second: bool, row: u32, k0: u32, d1: u32) -> Part {
    var r: Part;
    for (var j = 0u; j < 8u; j++) {
        if (second) {
            r.v[j] = X2[at(P_SECOND_IN, k0 + j, row % d1, row / d1, 0u)];
        } else {
            r.v[j] = X[at(P_FIRST_IN, k0 + j, row % d1, row / d1, 0u)];
        }
    }
    return r;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let second = g >= pu(P_GROUPS);
    let K = pu(select(P_FIRST_K, P_SECOND_K, second));
    let rows = pu(select(P_FIRST_ROWS, P_SECOND_ROWS, second));
    let d1 = pu(select(P_FIRST_D1, P_SECOND_D1, second));
    let mode = pu(P_MODE);
    // Part u of the side's rows: its row, and its first value in the row
    // (a run's parts, and a super-block's, never straddle workgroups).
    let u = (g - select(0u, pu(P_GROUPS), second)) * 256u + li;
    let live = u < K / 8u * rows;
    let row = u / (K / 8u);
    let k0 = (u % (K / 8u)) * 8u;
    var x: Part;
    if (live) { x = load_part(second, row, k0, d1); }
    let pk = pack_part(li, x, part_extreme(x), mode);
    if (!live) { return; }
    let st = part_stores(li, k0, row * K, K, mode, pk);
    for (var i = 0u; i < st.n; i++) {
        if (second) { Y2[st.at[i]] = st.bits[i]; } else { Y[st.at[i]] = st.bits[i]; }
    }
}
