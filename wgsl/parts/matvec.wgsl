// The inner loop shared by the matvecs (matmul, matmul_id). A workgroup of
// WG threads computes ROWS consecutive weight rows against one activation
// row. Its threads walk the rows' (block, part) pairs together, neighbouring
// threads taking neighbouring parts of a block (dot_TYPE), so a subgroup's
// loads fall on a few cache lines of W and X rather than one line per
// thread, and rows of few 256-value blocks still keep every thread busy.
// Each thread reads its part of X once for all ROWS rows. ROWS and WG
// come from matvec_shape (or the helper a kernel swaps in for it).
//!use matvec_shape
// The rows a dispatch workgroup takes: GROUPS matvec groups of ROWS.
const WG_ROWS = ROWS * GROUPS;

// wg_count is how many workgroups cover n rows.
fn wg_count(n: u32) -> u32 { return (n + WG_ROWS - 1u) / WG_ROWS; }

// group_row is where the rows of thread li's matvec group start within
// its workgroup's, and group_lane is the thread's place in its group.
fn group_row(li: u32) -> u32 { return (li / WG) * ROWS; }
fn group_lane(li: u32) -> u32 { return li % WG; }
// The parameter word holding a weight row's length in bytes (a kernel of
// two weight types gives the second its own: Other).
const ROW_BYTES_WORD = P_ROW_BYTES;
var<private> acc: array<f32, ROWS>;

// accumulate adds thread li's share of rows row0 .. row0+ROWS-1 of W times
// the activations at element xo to acc; only `rows` of them exist, and
// those past it repeat the last (their sums are dropped). Row 0 starts at
// byte base of the binding (a range of a tensor split across bindings).
// The rows (at most four) are written out into a vector, each term added
// in the order of a loop over them: a private array indexed in a loop
// may be kept in memory by the driver (matvec_tokens measured that).
const_assert ROWS <= 4u;
fn accumulate(xo: u32, row0: u32, rows: u32, li: u32, base: u32) {
    let rbytes = pu(ROW_BYTES_WORD);
    let units = pu(P_K) / BLOCK * PARTS;
    let last = rows - 1u;
    let r0 = base + row0 * rbytes;
    let r1 = base + (row0 + min(1u, last)) * rbytes;
    let r2 = base + (row0 + min(2u, last)) * rbytes;
    let r3 = base + (row0 + min(3u, last)) * rbytes;
    var a = load_acc();
    var u = li;
    // Weights of one value a block (F32, F16: a MoE router's) give a
    // thread K / WG parts, each a load's wait in a loop of one part: four
    // parts are loaded before their terms are added (in the loop's order).
    if (BLOCK == 1u) {
        for (; u + 3u * WG < units; u += 4u * WG) {
            let t0 = part_terms(xo, u, r0, r1, r2, r3);
            let t1 = part_terms(xo, u + WG, r0, r1, r2, r3);
            let t2 = part_terms(xo, u + 2u * WG, r0, r1, r2, r3);
            let t3 = part_terms(xo, u + 3u * WG, r0, r1, r2, r3);
            a += t0;
            a += t1;
            a += t2;
            a += t3;
        }
    }
    for (; u < units; u += WG) {
        let blk = u / PARTS;
        let part = u % PARTS;
        let x = xpart(xo, blk, part);
        a.x += dot_part(r0, blk, part, x);
        if (ROWS > 1u) { a.y += dot_part(r1, blk, part, x); }
        if (ROWS > 2u) { a.z += dot_part(r2, blk, part, x); }
        if (ROWS > 3u) { a.w += dot_part(r3, blk, part, x); }
    }
    store_acc(a);
}

// part_terms is unit u's term of each row (zero past ROWS).
fn part_terms(xo: u32, u: u32, r0: u32, r1: u32, r2: u32, r3: u32) -> vec4<f32> {
    let blk = u / PARTS;
    let part = u % PARTS;
    let x = xpart(xo, blk, part);
    var t = vec4<f32>(dot_part(r0, blk, part, x), 0.0, 0.0, 0.0);
    if (ROWS > 1u) { t.y = dot_part(r1, blk, part, x); }
    if (ROWS > 2u) { t.z = dot_part(r2, blk, part, x); }
    if (ROWS > 3u) { t.w = dot_part(r3, blk, part, x); }
    return t;
}

// load_acc and store_acc move acc's rows (or another ROWS-row array's,
// as matmul_gate_up's acc_up) to and from a vector.
fn load_acc() -> vec4<f32> { return load_rows(&acc); }
fn store_acc(a: vec4<f32>) { store_rows(&acc, a); }
fn load_rows(p: ptr<private, array<f32, ROWS>>) -> vec4<f32> {
    var a = vec4<f32>((*p)[0], 0.0, 0.0, 0.0);
    if (ROWS > 1u) { a.y = (*p)[min(1u, ROWS - 1u)]; }
    if (ROWS > 2u) { a.z = (*p)[min(2u, ROWS - 1u)]; }
    if (ROWS > 3u) { a.w = (*p)[min(3u, ROWS - 1u)]; }
    return a;
}
fn store_rows(p: ptr<private, array<f32, ROWS>>, a: vec4<f32>) {
    (*p)[0] = a.x;
    if (ROWS > 1u) { (*p)[min(1u, ROWS - 1u)] = a.y; }
    if (ROWS > 2u) { (*p)[min(2u, ROWS - 1u)] = a.z; }
    if (ROWS > 3u) { (*p)[min(3u, ROWS - 1u)] = a.w; }
}
