// Max and sum of one value a thread over the WG threads of the kernel's
// workgroup (WG a power of two the kernel declares), to every thread. Call
// from uniform control flow.
var<workgroup> wg_red: array<f32, WG>;

fn reduce_max(li: u32, x: f32) -> f32 {
    wg_red[li] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (li < s) { wg_red[li] = max(wg_red[li], wg_red[li + s]); }
        workgroupBarrier();
    }
    let r = wg_red[0];
    workgroupBarrier();
    return r;
}

fn reduce_sum(li: u32, x: f32) -> f32 {
    wg_red[li] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (li < s) { wg_red[li] += wg_red[li + s]; }
        workgroupBarrier();
    }
    let r = wg_red[0];
    workgroupBarrier();
    return r;
}
