// The workgroup of the products that prepare their own input row in
// workgroup memory (normed_product, head_products, moe_down: xr_round):
// GROUPS matvec workgroups of matvec_shape's size and order share one
// prepared row, which each workgroup repeats, and the preparation's loops
// run over all THREADS threads. Their sums are the plain matvec's bit for
// bit. On the H100, GLM-4.7-Flash's decode step with them went from 33.0
// to 17.9 ms.
const ROWS = 2u;
const WG = 64u;
const GROUPS = 4u;
const THREADS = WG * GROUPS;
