// ember_expf is the CPU backend's exponential (Cephes' expf, written out
// with the same float32 operations), so both backends' softmax, sigmoid
// and silu agree to the last bit where the compiler does not fuse
// operations; Metal's exp() is only held to a few ulp. Not named expf:
// compilers take that name for the C library's and may call theirs.
inline float ember_expf(float x) {
    if (x > 88.72283f) return as_type<float>(0x7f800000u);
    if (x < -87.33654f) return 0.0f;
    float fn = x * 1.44269504088896341f;
    fn = fn >= 0.0f ? float(int(fn + 0.5f)) : float(int(fn - 0.5f));
    float r = x - fn * 0.693359375f;
    r -= fn * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float y = p * r * r + r + 1.0f;
    int n = int(fn);
    if (n < -126) return y * as_type<float>(uint(n + 128) << 23) * 0.5f;
    return y * as_type<float>(uint(n + 127) << 23);
}
