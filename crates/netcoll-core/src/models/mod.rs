//! Analytic models: the closed forms of the seed papers, pure functions of their parameters.
//!
//! - [`multisend`]: timing of NIC-assisted multi-send vs repeated unicast, and the postal
//!   lambda per packet size (seed 002 s2, s4, Appendix);
//! - [`postal`]: Bar-Noy/Kipnis `F_lambda(t)` and the two-queue greedy optimal tree
//!   (seed 002 s4);
//! - [`kbinomial`]: k-binomial trees for pipelined FPFS multicast, Lemma 4 and Theorem 3
//!   (seed 003 s4.3), with the FPFS step simulation that checks them;
//! - [`hockney`]: InterCom's alpha-beta-gamma costs of the short- and long-vector
//!   primitives and the seven collectives; `hockney/hybrid.rs`: hybrid broadcasts on
//!   logical meshes with conflict factors (seed 001 s4-6, Table 2);
//! - [`loggp`]: LogGP parameters and the point-to-point message time;
//! - [`ratio`]: the exact fraction that cost coefficients are reported in.
//!
//! Every function checks its input and answers bad input with a one-line
//! [`crate::error::Error`]; none panics on user input.

pub mod hockney;
pub mod kbinomial;
pub mod loggp;
pub mod multisend;
pub mod postal;
pub mod ratio;

pub use hockney::{
    collective_cost, hybrid_broadcast_cost, hybrid_broadcast_cost_f64, hybrid_broadcast_cost_for,
    hybrid_broadcast_options, parse_mesh, primitive_cost, AbgCost, Collective, HybridOption,
    Primitive, Regime,
};
pub use kbinomial::{
    fpfs_steps, kbinomial_first_packet_steps, kbinomial_optimal, kbinomial_reach, kbinomial_steps,
    kbinomial_tree,
};
pub use loggp::LogGP;
pub use multisend::{multisend_lambda, multisend_time, unicast_lambda, Linear, MultisendParams};
pub use postal::{postal_reach, postal_tree, PostalTree};
pub use ratio::Ratio;
