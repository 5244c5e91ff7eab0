// Groups the (slot, token) pairs of a prefill or a decode batch by their
// chosen expert for the products by expert id that read each expert once
// for many pairs (matmul_id_tiled, matmul_id_tokens): one workgroup counts
// the pairs of each expert, writes where each expert's run starts
// (G[0..E], G[E+1] the end; ids out of range are group E, whose rows are
// zeros), then lists the pairs (s + S·t) of each group from G[E+2] on,
// and after those P = S·T pairs the group of each listed place (the
// expert of place q at G[E+2+P+q]). The order within a group is the
// atomics', which no sum depends on: every output is one pair's product.
// Words: expertGroupsParams.
//!use common
@group(0) @binding(2) var<storage, read> IDs: array<u32>;
@group(0) @binding(3) var<storage, read_write> G: array<u32>;

const NT = 256u;
const MAX_GROUPS = 257u;
var<workgroup> count: array<atomic<u32>, MAX_GROUPS>;
var<workgroup> start: array<u32, MAX_GROUPS>;

@compute @workgroup_size(NT)
fn main(@builtin(local_invocation_index) li: u32) {
    let E = pu(P_EXPERTS);
    let S = pu(P_S);
    let pairs = S * pu(P_T);
    for (var e = li; e <= E; e += NT) { atomicStore(&count[e], 0u); }
    workgroupBarrier();
    for (var p = li; p < pairs; p += NT) {
        let e = min(IDs[at(P_IDS, p % S, p / S, 0u, 0u)], E);
        atomicAdd(&count[e], 1u);
    }
    workgroupBarrier();
    if (li == 0u) {
        var at0 = 0u;
        for (var e = 0u; e <= E; e++) {
            start[e] = at0;
            G[e] = at0;
            at0 += atomicLoad(&count[e]);
        }
        G[E + 1u] = at0;
    }
    workgroupBarrier();
    for (var e = li; e <= E; e += NT) { atomicStore(&count[e], 0u); }
    workgroupBarrier();
    for (var p = li; p < pairs; p += NT) {
        let e = min(IDs[at(P_IDS, p % S, p / S, 0u, 0u)], E);
        let q = start[e] + atomicAdd(&count[e], 1u);
        G[E + 2u + q] = p;
        G[E + 2u + pairs + q] = e;
    }
}
