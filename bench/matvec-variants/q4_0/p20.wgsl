// p20: blocks padded to 20 bytes (aligned nibble words), 8-bit activations, half a block a thread.
@group(0) @binding(8) var<storage, read> W: array<u32>;
@group(0) @binding(5) var<storage, read> XQ: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read> XS: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn accumulate(n0: u32, li: u32) {
    let units = P.nb * 2u;
    for (var u = li; u < units; u += WG) {
        let blk = u / 2u;
        let part = u % 2u;
        let xl = XQ[blk * 4u + part];
        let xh = XQ[blk * 4u + 2u + part];
        let s = XS[blk];
        let corr = select(0.0, 8.0 * s.y, part == 0u);
        for (var r = 0u; r < ROWS; r++) {
            let c = ((n0 + r) * P.nb + blk) * 5u;
            let d = unpack2x16float(W[c]).x;
            let q0 = W[c + 1u + 2u * part];
            let q1 = W[c + 2u + 2u * part];
            let i = dot4I8Packed(q0 & M4, xl.x) + dot4I8Packed(q1 & M4, xl.y) + dot4I8Packed((q0 >> 4u) & M4, xh.x) + dot4I8Packed((q1 >> 4u) & M4, xh.y);
            acc[r] += d * s.x * (f32(i) - corr);
        }
    }
}
