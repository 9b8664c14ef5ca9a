//! The Tutte-Berge sets of `matching::tutte_berge_set` against brute force: the set proves
//! the matching number (the Tutte-Berge formula holds with equality), and the vertices
//! that some maximum matching misses are exactly the ones the Gallai-Edmonds
//! decomposition names.

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::sample::subsequence;
use rastros_core::matching::{maximum_matching, tutte_berge_set};

use super::{bit, brute_matching};

/// Number of components of odd size of the graph induced on `vertices`.
fn odd_components(mut vertices: u64, adj: &[u64; 64]) -> u32 {
    let mut odd = 0;
    while vertices != 0 {
        let mut comp = vertices & vertices.wrapping_neg();
        loop {
            let mut grown = comp;
            let mut rest = comp;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                grown |= adj[v] & vertices;
            }
            if grown == comp {
                break;
            }
            comp = grown;
        }
        odd += comp.count_ones() & 1;
        vertices &= !comp;
    }
    odd
}

/// A random graph on scattered vertices, edges with a random density, no self loops.
fn arb_graph(max_n: usize) -> impl Strategy<Value = (u64, [u64; 64])> {
    (
        subsequence((0u8..64).collect::<Vec<_>>(), 0..=max_n),
        any::<u8>(),
        proptest::collection::vec(any::<u8>(), max_n * max_n),
    )
        .prop_map(move |(verts, density, coins)| {
            let mut adj = [0u64; 64];
            for i in 0..verts.len() {
                for j in i + 1..verts.len() {
                    if coins[i * max_n + j] < density {
                        adj[verts[i] as usize] |= bit(verts[j]);
                        adj[verts[j] as usize] |= bit(verts[i]);
                    }
                }
            }
            (verts.iter().fold(0, |s, &v| s | bit(v)), adj)
        })
}

fn check(vertices: u64, adj: &[u64; 64]) {
    let mut memo = HashMap::new();
    let nu = brute_matching(vertices, adj, &mut memo);
    let (m, set) = tutte_berge_set(vertices, adj);
    assert_eq!(m.size, nu, "the matching is maximum");
    assert_eq!(
        m,
        maximum_matching(vertices, adj),
        "the same matching as maximum_matching"
    );
    assert_eq!(
        set & !vertices,
        0,
        "the set is made of vertices of the graph"
    );
    let n = vertices.count_ones();
    let bound = n + set.count_ones() - odd_components(vertices & !set, adj);
    assert_eq!(bound, 2 * nu, "the Tutte-Berge formula holds with equality");
    // Gallai-Edmonds: D (the vertices some maximum matching misses) has no vertex of the
    // set, and the set is exactly the neighbours of D outside D.
    let mut d = 0u64;
    for v in 0..64u8 {
        if vertices & bit(v) != 0 && brute_matching(vertices & !bit(v), adj, &mut memo) == nu {
            d |= bit(v);
        }
    }
    let neighbours = (0..64)
        .filter(|&v| d & bit(v) != 0)
        .fold(0, |s, v| s | adj[v as usize]);
    assert_eq!(set, neighbours & vertices & !d);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn tutte_berge_set_proves_the_matching_number((vertices, adj) in arb_graph(12)) {
        check(vertices, &adj);
    }
}

/// The king graphs of every small board with a few cells removed, in every pattern.
#[test]
fn king_graphs_of_small_boards() {
    for (w, h) in [(3u8, 3u8), (4, 3), (4, 4)] {
        let n = w * h;
        let mut adj = [0u64; 64];
        for i in 0..n {
            for j in 0..n {
                let (fi, ri, fj, rj) = (i % w, i / w, j % w, j / w);
                if i != j && fi.abs_diff(fj) <= 1 && ri.abs_diff(rj) <= 1 {
                    adj[i as usize] |= bit(j);
                }
            }
        }
        let all = (1u64 << n) - 1;
        for removed in 0..1u64 << n.min(12) {
            check(all & !removed, &adj);
        }
    }
}
