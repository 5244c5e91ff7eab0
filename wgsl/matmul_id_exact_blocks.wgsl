// matmul_id_exact (its words and results) for quantized weights with the
// work split as exact_blocks splits it: R rows of one chosen expert for
// one token a workgroup.
//!swap exact_aq exact_aq_shared
//!use common
//!exact
//!use exact_blocks
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

const ZERO_WORD = 29u;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let S = pu(2u);
    let groups = (N + R - 1u) / R;
    let n0 = (g % groups) * R;
    let s = (g / groups) % S;
    let t = g / (groups * S);
    let live = t < pu(3u);
    var e = 0xffffffffu;
    if (live) { e = IDs[at(12u, s, t, 0u, 0u)]; }
    // This part holds the expert's rows: compute them. Past the last part
    // lie the ids of no expert, whose outputs are zero.
    let mine = live && e >= pu(22u) && e < pu(23u);
    let zero = live && !mine && e >= pu(5u) && pu(25u) != 0u;
    var si = s;
    if (pu(6u) == 1u) { si = 0u; }
    let xo = at(7u, 0u, si, t, 0u);
    let y = rows_dot(li, mine, n0, N, pu(24u) + (e - pu(22u)) * N * pu(4u), pu(4u), xo, pu(27u) + 2u * (xo / pu(28u)), pu(26u));
    let row = n0 + li;
    if (li < R && row < N) {
        if (mine) {
            O[at(17u, row, s, t, 0u)] = y;
        } else if (zero) {
            O[at(17u, row, s, t, 0u)] = 0.0;
        }
    }
}
