// dot4 is the integer dot product of 16 signed bytes a side, four words
// each (dot4I8Packed: the GPU's 8-bit dot product instruction).
fn dot4(a: vec4<u32>, b: vec4<u32>) -> i32 {
    return dot4I8Packed(a.x, b.x) + dot4I8Packed(a.y, b.y) + dot4I8Packed(a.z, b.z) + dot4I8Packed(a.w, b.w);
}
