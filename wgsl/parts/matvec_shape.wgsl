// The matvecs' workgroup: ROWS weight rows by WG threads. Two rows keep a
// decode product's workgroups many, which a bandwidth-bound product needs.
// A dispatch's workgroup is GROUPS such matvec workgroups side by side
// (THREADS threads, ROWS·GROUPS rows): one here.
const ROWS = 2u;
const WG = 64u;
const GROUPS = 1u;
const THREADS = WG * GROUPS;
