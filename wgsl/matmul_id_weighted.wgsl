// The chosen experts' down products and their weighted sum in one dispatch
// (matmul_id.wgsl, then weighted_sum.wgsl): a workgroup computes ROWS rows
// of every slot s of token t, slot after slot, writes each product as
// matmul_id does, and Out[n, t] = Σ_s Weights[s, t] · D[n, s, t] in
// weighted_sum's order, so the results are those of the two dispatches bit
// for bit; with Add it also writes F = Sum + E, the residual add after
// it. One dispatch fewer a mixture-of-experts layer. Words:
// expertSumParams (Out is the products D); the weights are bound whole.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
//!use weighted_slots
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read> Wt: array<f32>;
@group(0) @binding(7) var<storage, read_write> Y: array<f32>;
@group(0) @binding(8) var<storage, read> E: array<f32>;
@group(0) @binding(9) var<storage, read_write> F: array<f32>;

fn slot_input(x: ExpertRows, li: u32) -> u32 { return x.xo; }

// Each slot's product is written as matmul_id writes it.
fn slot_product(x: ExpertRows, s: u32, n: u32, sum: f32) { O[at(P_OUT, n, s, x.t, 0u)] = sum; }

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let r = weighted_slots(group_index(wid, nwg), l);
    let x = r.x;
    let li = group_lane(l.li);
    if (!x.live || li >= ROWS || x.n0 + li >= pu(P_N)) { return; }
    let n = x.n0 + li;
    Y[at(P_SUM, n, x.t, 0u, 0u)] = r.y;
    if (pu(P_ADD) != 0u) { F[at(P_F, n, x.t, 0u, 0u)] = r.y + E[at(P_E, n, x.t, 0u, 0u)]; }
}
