// The matvecs' workgroup: ROWS weight rows by WG threads. Two rows keep a
// decode product's workgroups many, which a bandwidth-bound product needs.
// WG is 32 lanes a row: where subgroups are 32 wide (NVIDIA, Apple) a
// row's total is one subgroupAdd and a workgroup one subgroup; 64 lanes,
// or two groups of 32 a workgroup, were slower on the H100 (bench/JOURNAL.md,
// 2026-11-28). Every matvec family shares it, batch products included, so
// a sequence's sums in a batch stay its sums alone.
// A dispatch's workgroup is GROUPS such matvec workgroups side by side
// (THREADS threads, ROWS·GROUPS rows): one here.
const ROWS = 2u;
const WG = 32u;
const GROUPS = 1u;
const THREADS = WG * GROUPS;
