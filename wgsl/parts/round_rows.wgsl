// A decode product's output rounded by the workgroup that computed it,
// as quantize_act would round it for the product that reads it next:
// the workgroup's 32 rows (matvec_shape_round) are one 8-bit block (mode
// 0, or 4 packed for the integer matvecs: round_block's layout) or each
// is rounded to f16 (mode 2). The reader may take a view of
// the output (MLA's k_b reads the first 192 of each head's 256 query
// values): element r of the output's buffer is the reader's (k, row)
// where r - off = row·stride + k, k < K2, row < rows, and goes to the
// packed copy at row·K2 + k. Needs binding Y (u32 words), the rounded
// copy.
//!use round_q8
var<workgroup> block_rows: array<f32, WG_ROWS>;

// RoundRows is one rounded output's words (roundRows): quantize_act's
// mode, and the reader's offset, row stride, K2 and rows.
struct RoundRows { mode: u32, off: u32, stride: u32, k: u32, rows: u32 }

// round_rows writes the rounded copy of thread li's row value v, the
// output's element r, where own says the thread holds one (li % WG <
// ROWS, a row below N). Call it from uniform control flow.
fn round_rows(li: u32, own: bool, v: f32, r: u32, w: RoundRows) {
    let j = group_row(li) + group_lane(li);
    if (group_lane(li) < ROWS) { block_rows[j] = select(0.0, v, own); }
    workgroupBarrier();
    let d = r - w.off;
    let row = d / w.stride;
    let k = d % w.stride;
    if (!own || r < w.off || row >= w.rows || k >= w.k) { return; }
    let u = row * w.k + k;
    let mode = w.mode;
    if (mode == 2u) {
        Y[u] = bitcast<u32>(half(v));
        return;
    }
    var m = 0.0;
    var first = 0u;
    for (var i = 0u; i < WG_ROWS; i++) {
        let a = abs(block_rows[i]);
        if (a > m) {
            m = a;
            first = i;
        }
    }
    let s = q8_scales(m, block_rows[first], select(mode, 0u, mode == 4u));
    if (mode < 2u) {
        Y[u] = bitcast<u32>(q8_round(v, s, mode));
        return;
    }
    // Packed: the block is this workgroup's rows, the value's place in it
    // its row's (the reader's blocks start on whole blocks of r).
    let i = group_row(li) + group_lane(li);
    let head = row * w.k + w.k / 4u + 2u * (k / 32u);
    if (i % 4u == 0u) {
        Y[row * w.k + k / 4u] = pack_q8(q8_int(block_rows[i], s), q8_int(block_rows[i + 1u], s), q8_int(block_rows[i + 2u], s), q8_int(block_rows[i + 3u], s));
    } else if (i == 1u) {
        var sum = 0;
        for (var b = 0u; b < WG_ROWS; b++) { sum += q8_int(block_rows[b], s); }
        Y[head + 1u] = bitcast<u32>(f32(sum));
    } else if (i == 2u) {
        Y[head] = bitcast<u32>(s.x);
    }
}
