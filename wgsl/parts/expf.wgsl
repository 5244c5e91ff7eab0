// expf is the CPU backend's exponential (Cephes' expf, written out with
// the same float32 operations), so both backends' softmax, sigmoid and
// silu agree to the last bit where the GPU does not fuse operations;
// WGSL's exp() may be far less exact (the spec allows 3 + 2·|x| ULP).
fn expf(x: f32) -> f32 {
    // +inf from a let: browsers reject a constant expression that is not
    // a finite f32.
    let inf = 0x7f800000u;
    if (x > 88.72283) { return bitcast<f32>(inf); }
    if (x < -87.33654) { return 0.0; }
    var fn_ = x * 1.44269504088896341;
    if (fn_ >= 0.0) { fn_ = f32(i32(fn_ + 0.5)); } else { fn_ = f32(i32(fn_ - 0.5)); }
    var r = x - fn_ * 0.693359375;
    r -= fn_ * -2.12194440e-4;
    var p = 1.9875691500e-4;
    p = p * r + 1.3981999507e-3;
    p = p * r + 8.3334519073e-3;
    p = p * r + 4.1665795894e-2;
    p = p * r + 1.6666665459e-1;
    p = p * r + 5.0000001201e-1;
    let y = p * r * r + r + 1.0;
    let n = i32(fn_);
    if (n < -126) {
        return y * bitcast<f32>(u32(n + 128) << 23u) * 0.5;
    }
    return y * bitcast<f32>(u32(n + 127) << 23u);
}
