// Q5_0 weights in the tiled product: decoded value by value (tile_dq).
//!use decode_q5_0
//!use tile_dq
