//! Tests of the maximum-matching module and the undirected vertex geography
//! verdict, against brute force (exhaustive recursion) and, for large graphs,
//! against the rank of a randomly substituted Tutte matrix.

use proptest::prelude::*;
use proptest::sample::{subsequence, Index};
use proptest::test_runner::{RngAlgorithm, TestRng};
use rastros_core::matching::*;
use std::collections::HashMap;

mod tutte_berge;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn bit(v: u8) -> u64 {
    1u64 << v
}

/// Symmetric adjacency from an edge list.
fn from_edges(edges: &[(u8, u8)]) -> [u64; 64] {
    let mut adj = [0u64; 64];
    for &(a, b) in edges {
        adj[a as usize] |= bit(b);
        adj[b as usize] |= bit(a);
    }
    adj
}

/// Bitboard of the vertices mentioned in `list`.
fn set_of(list: &[u8]) -> u64 {
    list.iter().fold(0, |s, &v| s | bit(v))
}

/// Neighbours of `v` inside `vertices`, self loop removed.
fn nbrs(adj: &[u64; 64], vertices: u64, v: u8) -> u64 {
    adj[v as usize] & vertices & !bit(v)
}

fn brute_size(vertices: u64, adj: &[u64; 64]) -> u32 {
    brute_matching(vertices, adj, &mut HashMap::new())
}

/// Brute-force game search: the token is on `s` (in `vertices`); the mover
/// wins iff some move to an unvisited neighbour leaves a lost position.
fn brute_wins(vertices: u64, s: u8, adj: &[u64; 64], memo: &mut HashMap<(u64, u8), bool>) -> bool {
    if let Some(&r) = memo.get(&(vertices, s)) {
        return r;
    }
    let rest = vertices & !bit(s);
    let mut nb = nbrs(adj, rest, s);
    let mut win = false;
    while nb != 0 {
        let u = nb.trailing_zeros() as u8;
        nb &= nb - 1;
        if !brute_wins(rest, u, adj, memo) {
            win = true;
            break;
        }
    }
    memo.insert((vertices, s), win);
    win
}

/// Checks that `m` is a valid matching of the induced graph, independently of
/// `Matching::is_valid_for`.
fn assert_valid(m: &Matching, vertices: u64, adj: &[u64; 64]) {
    let mut pairs = 0u32;
    for v in 0..64u8 {
        let w = m.mate[v as usize];
        if w == NONE {
            continue;
        }
        assert!(w < 64, "mate out of range");
        assert_ne!(w, v, "vertex matched to itself");
        assert!(vertices & bit(v) != 0, "absent vertex {v} matched");
        assert!(vertices & bit(w) != 0, "absent vertex {w} matched");
        assert_eq!(m.mate[w as usize], v, "mate not symmetric at {v}");
        assert!(adj[v as usize] & bit(w) != 0, "{v}-{w} is not an edge");
        if v < w {
            pairs += 1;
        }
    }
    assert_eq!(m.size, pairs, "size is not the number of pairs");
    assert!(m.is_valid_for(vertices, adj));
    assert_eq!(m.covered().count_ones(), 2 * m.size);
}

/// Checks the full contract of `geography_winning_move` against brute force.
fn check_geography(vertices: u64, s: u8, adj: &[u64; 64], memo: &mut HashMap<(u64, u8), bool>) {
    let expected = brute_wins(vertices, s, adj, memo);
    let got = geography_winning_move(vertices, s, adj);
    assert_eq!(got.is_some(), expected, "verdict at {s} on {vertices:#x}");
    assert_eq!(geography_wins(vertices, s, adj), expected);
    // The theorem, stated with matching numbers.
    let by_sizes =
        maximum_matching_size(vertices, adj) > maximum_matching_size(vertices & !bit(s), adj);
    assert_eq!(
        by_sizes, expected,
        "matching criterion at {s} on {vertices:#x}"
    );
    // `start` may also be passed outside `vertices`.
    assert_eq!(geography_winning_move(vertices & !bit(s), s, adj), got);
    if let Some(v) = got {
        assert!(
            nbrs(adj, vertices, s) & bit(v) != 0,
            "{v} is not a move from {s}"
        );
        assert!(
            !brute_wins(vertices & !bit(s), v, adj, memo),
            "move {s}->{v} does not leave a lost position"
        );
    }
}

/// Size of a maximum matching as half the rank of the Tutte matrix with
/// random entries modulo a large prime (Lovász; wrong with probability at
/// most n / p per call). Independent of the blossom code.
fn tutte_size(vertices: u64, adj: &[u64; 64], seed: u64) -> u32 {
    const P: u64 = (1 << 61) - 1;
    fn mul(a: u64, b: u64) -> u64 {
        ((a as u128 * b as u128) % P as u128) as u64
    }
    fn pow(mut a: u64, mut e: u64) -> u64 {
        let mut r = 1;
        while e > 0 {
            if e & 1 == 1 {
                r = mul(r, a);
            }
            a = mul(a, a);
            e >>= 1;
        }
        r
    }
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed.to_le_bytes(); 4].concat());
    let mut next = || 1 + rng.next_u64() % (P - 1);
    let idx: Vec<u8> = (0..64u8).filter(|&v| vertices & bit(v) != 0).collect();
    let n = idx.len();
    let mut m = vec![vec![0u64; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            if adj[idx[i] as usize] & bit(idx[j]) != 0 {
                let x = next();
                m[i][j] = x;
                m[j][i] = P - x;
            }
        }
    }
    let mut rank = 0;
    for col in 0..n {
        let Some(p) = (rank..n).find(|&r| m[r][col] != 0) else {
            continue;
        };
        m.swap(rank, p);
        let inv = pow(m[rank][col], P - 2);
        let pivot = m[rank].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != rank && row[col] != 0 {
                let f = mul(row[col], inv);
                for (x, &pv) in row[col..].iter_mut().zip(&pivot[col..]) {
                    *x = (*x + P - mul(f, pv)) % P;
                }
            }
        }
        rank += 1;
    }
    (rank / 2) as u32
}

/// King-move adjacency of a `w` x `h` board (cell = rank * w + file).
fn king_adj(w: u8, h: u8) -> [u64; 64] {
    let mut adj = [0u64; 64];
    for r in 0..h as i32 {
        for f in 0..w as i32 {
            let c = (r * w as i32 + f) as usize;
            for dr in -1..=1 {
                for df in -1..=1 {
                    let (rr, ff) = (r + dr, f + df);
                    if (dr, df) != (0, 0)
                        && (0..h as i32).contains(&rr)
                        && (0..w as i32).contains(&ff)
                    {
                        adj[c] |= 1u64 << (rr * w as i32 + ff);
                    }
                }
            }
        }
    }
    adj
}

fn full(n: u32) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Relabels a graph on vertices `0..n` by `perm` (vertex i becomes perm[i]).
fn relabel(edges: &[(u8, u8)], perm: &[u8]) -> Vec<(u8, u8)> {
    edges
        .iter()
        .map(|&(a, b)| (perm[a as usize], perm[b as usize]))
        .collect()
}

// ---------------------------------------------------------------------------
// Random graph strategies
// ---------------------------------------------------------------------------

/// A random graph: present vertices scattered over 0..64 (between `min_n` and
/// `max_n` of them), symmetric random edges of random density among them, and
/// optional garbage (self loops, edges to absent vertices, arbitrary rows of
/// absent vertices) that the functions must ignore.
fn arb_graph(min_n: usize, max_n: usize) -> impl Strategy<Value = (u64, [u64; 64], Vec<u8>)> {
    let pairs = max_n * (max_n - 1) / 2;
    (
        subsequence((0u8..64).collect::<Vec<_>>(), min_n..=max_n),
        any::<u8>(),
        proptest::collection::vec(any::<u8>(), pairs),
        proptest::option::of(proptest::collection::vec(any::<u64>(), 64)),
    )
        .prop_map(|(verts, density, coins, garbage)| {
            let vertices = set_of(&verts);
            let mut adj = [0u64; 64];
            let mut k = 0;
            for i in 0..verts.len() {
                for j in i + 1..verts.len() {
                    if coins[k] < density {
                        adj[verts[i] as usize] |= bit(verts[j]);
                        adj[verts[j] as usize] |= bit(verts[i]);
                    }
                    k += 1;
                }
            }
            if let Some(g) = garbage {
                for v in 0..64u8 {
                    if vertices & bit(v) == 0 {
                        adj[v as usize] = g[v as usize];
                    } else {
                        adj[v as usize] |= g[v as usize] & !vertices;
                        if g[v as usize] & 1 == 1 {
                            adj[v as usize] |= bit(v); // self loop
                        }
                    }
                }
            }
            (vertices, adj, verts)
        })
}

// ---------------------------------------------------------------------------
// 1. Random graphs against brute force
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn matching_matches_brute_force((vertices, adj, verts) in arb_graph(1, 12)) {
        // The graph itself and each graph with one vertex deleted (the brute
        // force memo is shared, as all are induced subgraphs of one graph).
        let mut memo = HashMap::new();
        for sub in std::iter::once(vertices).chain(verts.iter().map(|&v| vertices & !bit(v))) {
            let m = maximum_matching(sub, &adj);
            assert_valid(&m, sub, &adj);
            prop_assert_eq!(m.size, brute_matching(sub, &adj, &mut memo));
            prop_assert_eq!(maximum_matching_size(sub, &adj), m.size);
        }
    }
}

// ---------------------------------------------------------------------------
// 3. Geography against brute-force game search
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn geography_matches_brute_force(
        (vertices, adj, verts) in arb_graph(1, 10),
        pick in any::<Index>(),
    ) {
        let s = *pick.get(&verts);
        let mut memo = HashMap::new();
        check_geography(vertices, s, &adj, &mut memo);
    }

    /// Every start vertex of one graph, sharing the memo.
    #[test]
    fn geography_all_starts((vertices, adj, verts) in arb_graph(1, 9)) {
        let mut memo = HashMap::new();
        for &s in &verts {
            check_geography(vertices, s, &adj, &mut memo);
        }
    }
}

// ---------------------------------------------------------------------------
// 4. King graphs of random board subsets against brute force
// ---------------------------------------------------------------------------

fn arb_king_subset() -> impl Strategy<Value = (u8, u8, Vec<u8>)> {
    prop_oneof![Just((5u8, 5u8)), Just((6u8, 6u8))].prop_flat_map(|(w, h)| {
        let cells: Vec<u8> = (0..w * h).collect();
        (Just(w), Just(h), subsequence(cells, 1..=14))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn king_subsets_match_brute_force((w, h, cells) in arb_king_subset(), pick in any::<Index>()) {
        let adj = king_adj(w, h);
        let vertices = set_of(&cells);
        let m = maximum_matching(vertices, &adj);
        assert_valid(&m, vertices, &adj);
        prop_assert_eq!(m.size, brute_size(vertices, &adj));
        let s = *pick.get(&cells);
        let mut memo = HashMap::new();
        check_geography(vertices, s, &adj, &mut memo);
    }
}

// ---------------------------------------------------------------------------
// Large graphs against the Tutte-matrix rank
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn large_graphs_match_tutte_rank((vertices, adj, verts) in arb_graph(13, 64), seed in any::<u64>(), pick in any::<Index>()) {
        let m = maximum_matching(vertices, &adj);
        assert_valid(&m, vertices, &adj);
        prop_assert_eq!(m.size, tutte_size(vertices, &adj, seed));
        // Geography on a large graph: the verdict follows the matching
        // criterion, and the move returned leaves the opponent on a vertex
        // missed by some maximum matching of the remaining graph.
        let s = *pick.get(&verts);
        let rest = vertices & !bit(s);
        let got = geography_winning_move(vertices, s, &adj);
        prop_assert_eq!(got.is_some(), m.size > maximum_matching_size(rest, &adj));
        if let Some(v) = got {
            prop_assert!(nbrs(&adj, vertices, s) & bit(v) != 0);
            prop_assert_eq!(maximum_matching_size(rest, &adj), maximum_matching_size(rest & !bit(v), &adj));
            prop_assert!(geography_winning_move(rest, v, &adj).is_none());
        }
    }

    #[test]
    fn king_8x8_subsets_match_tutte_rank(cells in subsequence((0u8..64).collect::<Vec<_>>(), 1..=64), seed in any::<u64>()) {
        let adj = king_adj(8, 8);
        let vertices = set_of(&cells);
        let m = maximum_matching(vertices, &adj);
        assert_valid(&m, vertices, &adj);
        prop_assert_eq!(m.size, tutte_size(vertices, &adj, seed));
    }
}

// ---------------------------------------------------------------------------
// 2. Named cases
// ---------------------------------------------------------------------------

/// Scattered labels used to place small named graphs away from 0..n.
const SCATTER: [u8; 16] = [63, 5, 40, 17, 0, 33, 58, 12, 26, 49, 8, 61, 21, 37, 2, 44];

fn named_size(n: usize, edges: &[(u8, u8)]) -> u32 {
    // Same graph, labels 0..n and scattered labels; both must agree.
    let adj = from_edges(edges);
    let vertices = full(n as u32);
    let m = maximum_matching(vertices, &adj);
    assert_valid(&m, vertices, &adj);
    let moved = relabel(edges, &SCATTER);
    let adj2 = from_edges(&moved);
    let vertices2 = set_of(&SCATTER[..n]);
    let m2 = maximum_matching(vertices2, &adj2);
    assert_valid(&m2, vertices2, &adj2);
    assert_eq!(m.size, m2.size);
    assert_eq!(m.size, brute_size(vertices, &adj));
    m.size
}

#[test]
fn triangle_has_a_maximum_matching_of_one_edge() {
    assert_eq!(named_size(3, &[(0, 1), (1, 2), (2, 0)]), 1);
}

#[test]
fn five_cycle_has_a_maximum_matching_of_two_edges() {
    assert_eq!(named_size(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]), 2);
}

#[test]
fn two_triangles_joined_by_an_edge_have_a_perfect_matching() {
    let edges = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)];
    assert_eq!(named_size(6, &edges), 3);
}

#[test]
fn petersen_graph_has_a_perfect_matching() {
    let mut edges = Vec::new();
    for i in 0..5u8 {
        edges.push((i, (i + 1) % 5)); // outer 5-cycle
        edges.push((i, i + 5)); // spokes
        edges.push((5 + i, 5 + (i + 2) % 5)); // inner pentagram
    }
    assert_eq!(named_size(10, &edges), 5);
}

#[test]
fn king_graph_7x7_matches_24_edges_and_geography_follows_the_matching_from_every_cell() {
    let adj = king_adj(7, 7);
    let vertices = full(49);
    let m = maximum_matching(vertices, &adj);
    assert_valid(&m, vertices, &adj);
    assert_eq!(m.size, 24);
    assert_eq!(maximum_matching_size(vertices, &adj), 24);
    // Geography from every cell agrees with the matching criterion, and each
    // returned move leaves the opponent lost by the same criterion.
    for s in 0..49u8 {
        let rest = vertices & !bit(s);
        let got = geography_winning_move(vertices, s, &adj);
        assert_eq!(
            got.is_some(),
            24 > maximum_matching_size(rest, &adj),
            "cell {s}"
        );
        if let Some(v) = got {
            assert!(adj[s as usize] & bit(v) != 0);
            assert!(geography_winning_move(rest, v, &adj).is_none());
        }
    }
}

#[test]
fn king_graph_8x8_is_perfect() {
    let adj = king_adj(8, 8);
    let m = maximum_matching(u64::MAX, &adj);
    assert_valid(&m, u64::MAX, &adj);
    assert_eq!(m.size, 32);
}

#[test]
fn complete_graphs_of_64_and_63_vertices_and_their_geography() {
    let mut adj = [u64::MAX; 64]; // includes self loops, which must be ignored
    adj[0] = u64::MAX;
    let m = maximum_matching(u64::MAX, &adj);
    assert_valid(&m, u64::MAX, &adj);
    assert_eq!(m.size, 32);
    let odd = u64::MAX >> 1; // K63
    assert_eq!(maximum_matching_size(odd, &adj), 31);
    // On K63 the game lasts 62 moves whatever is played, so the mover makes
    // the odd ones and is stuck after the 62nd: lost (nu(K63) = nu(K62)).
    assert_eq!(geography_winning_move(odd, 0, &adj), None);
    // On K64 the game lasts 63 moves: the mover makes the last one.
    assert!(geography_winning_move(u64::MAX, 0, &adj).is_some());
}

#[test]
fn empty_and_edgeless_graphs_match_nothing_and_the_mover_loses() {
    let adj = [0u64; 64];
    assert_eq!(maximum_matching(0u64, &adj), Matching::empty());
    assert_eq!(maximum_matching_size(u64::MAX, &adj), 0);
    assert_eq!(geography_winning_move(u64::MAX, 7, &adj), None);
    assert_eq!(geography_winning_move(0u64, 7, &adj), None);
    // Edges only to absent vertices do not count.
    let adj = from_edges(&[(1, 2), (3, 4)]);
    assert_eq!(maximum_matching_size(bit(1) | bit(3), &adj), 0);
    assert_eq!(geography_winning_move(bit(1) | bit(3), 1, &adj), None);
}

/// Augmenting paths that must run through blossoms: a chain of "flowers"
/// (stem p, triangle c-x-y with p-c an edge, x leading to the next stem).
/// From the near-perfect matching {p=c, x=y in every flower} with 0 and the
/// far end exposed, a plain alternating search that visits each vertex once
/// (the bipartite algorithm) goes 0-p=c-x=y and is stuck at y (its
/// neighbours c and x are already visited): it needs c-y=x-next as the path,
/// which only blossom contraction finds. The graph is tried under many
/// relabelings so that, whatever greedy start the implementation uses, some
/// labelings present this hard start.
#[test]
fn blossom_heavy_graph_has_a_perfect_matching_under_every_relabelling() {
    let mut edges = Vec::new();
    let k = 4u8;
    // vertex 0: exposed start; flower i uses 4 vertices 1+4i .. 4+4i:
    // p=1+4i (stem), c=2+4i (base), x=3+4i, y=4+4i; x -> next p.
    edges.push((0, 1));
    for i in 0..k {
        let (p, c, x, y) = (1 + 4 * i, 2 + 4 * i, 3 + 4 * i, 4 + 4 * i);
        edges.extend_from_slice(&[(p, c), (c, x), (c, y), (x, y)]);
        if i + 1 < k {
            edges.push((x, 1 + 4 * (i + 1)));
        }
    }
    let last_x = 3 + 4 * (k - 1);
    let end = 4 * k + 1;
    edges.push((last_x, end));
    let n = (end + 1) as usize; // 18 vertices, perfect matching of size 9
    let adj = from_edges(&edges);
    assert_eq!(brute_size(full(n as u32), &adj), (n / 2) as u32);

    // Many labelings: rotations and reflections of the label space.
    let mut checked = 0;
    for shift in 0..64u8 {
        for reflect in [false, true] {
            let perm: Vec<u8> = (0..n as u8)
                .map(|v| {
                    let t = if reflect {
                        (n as u8 - 1 - v) * 3
                    } else {
                        v * 3
                    };
                    (t + shift) % 64
                })
                .collect();
            let moved = relabel(&edges, &perm);
            let a = from_edges(&moved);
            let vs = set_of(&perm);
            let m = maximum_matching(vs, &a);
            assert_valid(&m, vs, &a);
            assert_eq!(m.size, (n / 2) as u32, "shift {shift} reflect {reflect}");
            checked += 1;
        }
    }
    assert_eq!(checked, 128);

    // The small classic: 0-1=2, triangle 2,3,4 with 3=4, exit 3-5.
    // Searching from 0 and visiting 3 before 4 reaches 3 only as odd; the
    // path 0-1=2-4=3-5 needs 3 as an outer vertex, i.e. the blossom.
    let small = [(0, 1), (1, 2), (2, 3), (2, 4), (3, 4), (3, 5)];
    assert_eq!(named_size(6, &small), 3);
}

#[test]
fn geography_small_named_cases() {
    let mut memo = HashMap::new();
    // Path a-b: the mover at a wins by moving to b.
    let adj = from_edges(&[(10, 20)]);
    assert_eq!(
        geography_winning_move(bit(10) | bit(20), 10, &adj),
        Some(20)
    );
    // Path a-b-c: lost from an end, won from the middle.
    let adj = from_edges(&[(1, 2), (2, 3)]);
    let vs = set_of(&[1, 2, 3]);
    assert_eq!(geography_winning_move(vs, 1, &adj), None);
    assert!(geography_winning_move(vs, 2, &adj).is_some());
    // Triangle: lost from every vertex.
    let adj = from_edges(&[(4, 9), (9, 30), (30, 4)]);
    let vs = set_of(&[4, 9, 30]);
    for s in [4, 9, 30] {
        assert_eq!(geography_winning_move(vs, s, &adj), None);
        check_geography(vs, s, &adj, &mut memo);
    }
    // 5-cycle with a pendant at 0: the mover on the pendant vertex wins only
    // if every maximum matching covers it.
    let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5)];
    let moved = relabel(&edges, &SCATTER);
    let adj = from_edges(&moved);
    let vs = set_of(&SCATTER[..6]);
    for &s in &SCATTER[..6] {
        check_geography(vs, s, &adj, &mut memo);
    }
}

/// Brute-force maximum matching size of the graph `adj` induced on `vertices`: the lowest
/// vertex is either left unmatched or matched along one of its edges (plain recursion,
/// memoised on the vertex set). Self loops are ignored.
pub fn brute_matching(
    vertices: u64,
    adj: &[u64; 64],
    memo: &mut std::collections::HashMap<u64, u32>,
) -> u32 {
    if vertices == 0 {
        return 0;
    }
    if let Some(&r) = memo.get(&vertices) {
        return r;
    }
    let v = vertices.trailing_zeros();
    let rest = vertices & !(1u64 << v);
    let mut best = brute_matching(rest, adj, memo);
    let mut nb = adj[v as usize] & rest;
    while nb != 0 {
        let u = nb.trailing_zeros();
        nb &= nb - 1;
        best = best.max(1 + brute_matching(rest & !(1u64 << u), adj, memo));
    }
    memo.insert(vertices, best);
    best
}
