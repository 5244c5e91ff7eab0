// A decode step's router: the product of the router's weights and the
// token's activations, Out[n] = Σ_k W[k, n] · In[k] (matmul.wgsl's
// workgroups and sums), whose last workgroup to finish then chooses the
// token's experts from Out as route.wgsl would in a dispatch of its own
// (route_token): a dispatch less a MoE layer. Workgroups count themselves
// done on Done[0] once their rows of Out are stored; the one that counts
// last reads all of Out. The storage barriers before the count and after
// it order the stores and the reads around it, device-wide where the
// shader compiler gives storageBarrier device scope, which the compiler
// checks before choosing this kernel (ops_route_tail.go). The last
// workgroup sets the count back to zero for the next dispatch. Words:
// matmulRouteParams.
//!use common
//!dot
//!use matvec
//!reduce
//!use route_token
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> Bias: array<f32>;
@group(0) @binding(6) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(7) var<storage, read_write> Wt: array<f32>;
@group(0) @binding(8) var<storage, read_write> Done: array<atomic<u32>>;

// route_token's words.
const R_E = P_ROUTE_E;
const R_K = P_ROUTE_K;
const R_GATING = P_ROUTE_GATING;
const R_HAS_BIAS = P_ROUTE_HAS_BIAS;
const R_NORM = P_ROUTE_NORM;
const R_SCALE = P_ROUTE_SCALE;
const R_IDS = P_ROUTE_IDS;
const R_WEIGHTS = P_ROUTE_WEIGHTS;

// The logits: this dispatch's product.
fn route_logit(e: u32, t: u32) -> f32 { return O[at(P_ROUTE_LOGITS, e, t, 0u, 0u)]; }

// Whether this workgroup counted last.
var<workgroup> last: u32;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let n0 = g * ROWS;
    if (n0 < N) { accumulate(at(P_IN, 0u, 0u, 0u, 0u), n0, N - n0, l.li, pu(P_BASE)); }
    let s = reduce_rows(l);
    if (n0 < N && l.li < ROWS && n0 + l.li < N) { O[at(P_OUT, n0 + l.li, 0u, 0u, 0u)] = s; }
    storageBarrier();
    if (l.li == 0u) {
        // Every workgroup counts, those of a grid's surplus (past the
        // rows, where a large grid spills into y) too.
        let done = atomicAdd(&Done[0], 1u) + 1u;
        last = select(0u, 1u, done == nwg.x * nwg.y * nwg.z);
    }
    if (workgroupUniformLoad(&last) == 0u) { return; }
    storageBarrier();
    route_token(l.li, 0u, wid);
    if (l.li == 0u) { atomicStore(&Done[0], 0u); }
}
