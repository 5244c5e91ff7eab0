// cur: the product's kernel before integer dots: the file's layout, f32 activations, half a block a thread.
@group(0) @binding(1) var<storage, read> W: array<u32>;
@group(0) @binding(4) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn h16(o: u32) -> f32 { return half_in(W[o >> 2u], o); }
fn accumulate(n0: u32, li: u32) {
    let units = P.nb * 2u;
    for (var u = li; u < units; u += WG) {
        let blk = u / 2u;
        let part = u % 2u;
        let i = (blk * 32u + part * 8u) >> 2u;
        let xl0 = X[i]; let xl1 = X[i + 1u]; let xh0 = X[i + 4u]; let xh1 = X[i + 5u];
        for (var r = 0u; r < ROWS; r++) {
            let o = (n0 + r) * P.rb + blk * 18u;
            let b = o + 2u + 8u * part;
            let c = b >> 2u;
            let w0 = W[c]; let w1 = W[c + 1u]; let w2 = W[c + 2u];
            let q0 = join32(w0, w1, b);
            let q1 = join32(w1, w2, b);
            let lo = dot(nib4(q0, 0u) - 8.0, xl0) + dot(nib4(q1, 0u) - 8.0, xl1);
            let hi = dot(nib4(q0, 4u) - 8.0, xh0) + dot(nib4(q1, 4u) - 8.0, xh1);
            acc[r] += h16(o) * (lo + hi);
        }
    }
}
