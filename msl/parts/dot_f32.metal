// F32 weights in the matvecs (dot_scalar).
//!use decode_f32
//!use dot_scalar
