// Chooses K experts per token from router logits (route_token.wgsl):
// one workgroup per token. Words: routeParams.
//!use common
//!use route_token
@group(0) @binding(2) var<storage, read> L: array<f32>;
@group(0) @binding(3) var<storage, read> Bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> Wt: array<f32>;

const WG = 64u;
// route_token's words.
const R_E = P_E;
const R_K = P_K;
const R_GATING = P_GATING;
const R_HAS_BIAS = P_HAS_BIAS;
const R_NORM = P_NORM;
const R_SCALE = P_SCALE;
const R_IDS = P_IDS;
const R_WEIGHTS = P_WEIGHTS;

fn route_logit(e: u32, t: u32) -> f32 { return L[at(P_LOGITS, e, t, 0u, 0u)]; }

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    route_token(li, group_index(wid, nwg), wid);
}
