// A quantized weight type's exact product in two parts (exact_TYPE):
// exact_block finds one block's integer sums and scales, which depends on
// no order and so may run for many blocks at once (matmul_exact_blocks),
// and exact_fold adds a block's record to the row's running sums in the
// CPU's order, serial as on the CPU; exact_result ends the row. Each type
// says which fields of Rec and ExactState it uses. A record is 80 bytes:
// the blocks kernels keep 128 of them in workgroup memory.
//!use exact_act
//!use exact_orders
struct Rec { f: vec4<f32>, s: array<i32, 16> }

struct ExactState { acc: array<f32, 8>, aux: array<f32, 4>, x: f32, y: f32, t4: Terms4 }

fn exact_state(nb: u32) -> ExactState {
    return ExactState(array<f32, 8>(), array<f32, 4>(), 0.0, 0.0, Terms4(array<f32, 4>(), 0.0, nb & ~3u));
}

// fold_lanes8 adds a block's eight integer lane sums (s[0..7]) with its
// scale product d, as the AVX2 loop does: one fused multiply-add a lane.
// The lanes written out: an array indexed in a loop stayed in local
// memory on NVIDIA (sum_lanes16v).
fn fold_lanes8(st: ptr<function, ExactState>, d: f32, s: array<i32, 16>) {
    let a = (*st).acc;
    (*st).acc = array<f32, 8>(fma_exact(d, f32(s[0]), a[0]), fma_exact(d, f32(s[1]), a[1]), fma_exact(d, f32(s[2]), a[2]),
        fma_exact(d, f32(s[3]), a[3]), fma_exact(d, f32(s[4]), a[4]), fma_exact(d, f32(s[5]), a[5]), fma_exact(d, f32(s[6]), a[6]),
        fma_exact(d, f32(s[7]), a[7]));
}

// exact_dot is the whole row's product, one block after another.
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    let nb = K / EXACT_BLOCK;
    var st = exact_state(nb);
    for (var b = 0u; b < nb; b++) { exact_fold(&st, exact_block(rb, xo, so, b), b, order); }
    return exact_result(st, nb, order);
}

// The fold split by lanes (the blocks kernels): most orders are several
// chains that never meet until the row's end, each running through all
// the blocks (the eight lanes; Q4_K's integer dot and minimum sums), so a
// row's records fold in eight threads at once, lane j owning acc[j], also
// aux[j] (j < 4), and lane 0 x, lane 1 y (c). exact_lanes says whether an
// order is such; exact_fold_lane is exact_fold's share of lane j, on what
// LaneIn holds of the record for it: f, s[j], q = s[8+4(j&1)] .. +3 and
// m = s[12 + (j&3)].
struct Lane { a: f32, m: f32, c: f32 }
struct LaneIn { f: vec4<f32>, s: i32, q: vec4<i32>, m: i32 }

// fold_lane8 is fold_lanes8's lane: one fused multiply-add.
fn fold_lane8(l: ptr<function, Lane>, d: f32, s: i32) { (*l).a = fma_exact(d, f32(s), (*l).a); }
