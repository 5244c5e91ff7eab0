// F16 weights in the matvecs (dot_scalar).
//!use decode_f16
//!use dot_scalar
