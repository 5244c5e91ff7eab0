// normed_product.wgsl on workgroups of 32 rows (matvec_shape_round: 16
// matvec groups, 1024 threads) for a norm and two products of its output
// (MLA's q_a and kv_a): a quarter as many workgroups redo the norm and
// the rounding as on normed_product's 8 rows, each over four times the
// threads. Words, bindings and results are normed_product's.
//!swap matvec_shape matvec_shape_round
//!use normed_product
