// Max and sum of one value a thread over the WG threads of the kernel's
// workgroup (WG a power of two the kernel declares), to every thread. Call
// from uniform control flow.
var<workgroup> red: array<f32, WG>;

fn reduce_max(li: u32, x: f32) -> f32 {
    red[li] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (li < s) { red[li] = max(red[li], red[li + s]); }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}

fn reduce_sum(li: u32, x: f32) -> f32 {
    red[li] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (li < s) { red[li] += red[li + s]; }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}
