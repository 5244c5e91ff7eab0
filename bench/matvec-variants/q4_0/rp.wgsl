// rp: weights repacked (aligned nibbles, scales apart), f32 activations, half a block a thread.
@group(0) @binding(2) var<storage, read> WQ: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> WD: array<u32>;
@group(0) @binding(4) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn accumulate(n0: u32, li: u32) {
    let units = P.nb * 2u;
    for (var u = li; u < units; u += WG) {
        let blk = u / 2u;
        let part = u % 2u;
        let i = (blk * 32u + part * 8u) >> 2u;
        let xl0 = X[i]; let xl1 = X[i + 1u]; let xh0 = X[i + 4u]; let xh1 = X[i + 5u];
        for (var r = 0u; r < ROWS; r++) {
            let bi = (n0 + r) * P.nb + blk;
            let q = WQ[bi * 2u + part];
            let d = half_in(WD[bi >> 1u], bi * 2u);
            let lo = dot(nib4(q.x, 0u) - 8.0, xl0) + dot(nib4(q.y, 0u) - 8.0, xl1);
            let hi = dot(nib4(q.x, 4u) - 8.0, xh0) + dot(nib4(q.y, 4u) - 8.0, xh1);
            acc[r] += d * (lo + hi);
        }
    }
}
