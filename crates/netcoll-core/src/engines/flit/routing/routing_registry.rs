//! The routing functions by BookSim's `routing_function` names (and netcoll's own), as
//! BookSim's routing-function factory keys them. A name maps to one of `crate::routing`'s
//! kinds; on a torus `torus_routing` then picks BookSim's or the dateline variant (torus.rs),
//! and mask_routes.rs compiles the kind into per-router route masks.
//! Adding a routing function: its module in crate::routing, one line here.

use super::registry::Registry;
use crate::routing::RoutingKind;

pub const ROUTING_FUNCTIONS: Registry<RoutingKind> = Registry {
    key: "routing_function",
    entries: &[
        ("dim_order", RoutingKind::Dor),
        ("dor", RoutingKind::Dor),
        ("dim_order_mesh", RoutingKind::Dor),
        ("dim_order_torus", RoutingKind::Dor),
        ("dim_order_ni", RoutingKind::Dor),
        ("min", RoutingKind::Shortest),
        ("shortest", RoutingKind::Shortest),
        ("updown", RoutingKind::UpDown),
        ("up_down", RoutingKind::UpDown),
        // BookSim's flatfly minimal routing (dimension order, lowest first) and fattree's NCA
        // (an up port drawn per packet) and ANCA (the less loaded of two drawn): adaptive.rs.
        ("ran_min", RoutingKind::Shortest),
        ("nca", RoutingKind::Nca),
        ("anca", RoutingKind::Anca),
        // BookSim's mesh, torus and cmesh routings that choose per packet (grid_random.rs):
        // the order at the source (xy_yx, by credits: adaptive_xy_yx), an intermediate
        // (romm: in the minimal box, valiant: anywhere).
        ("xy_yx", RoutingKind::XyYx),
        ("adaptive_xy_yx", RoutingKind::AdaptiveXyYx),
        ("romm", RoutingKind::Romm),
        // valiant: on a mesh or torus here; on flatfly, HyperX and dragonfly adaptive.rs.
        ("valiant", RoutingKind::Valiant),
        // Route sets: the pick left to VC allocation (route_set_masks.rs).
        ("min_adapt", RoutingKind::MinAdapt),
        ("planar_adapt", RoutingKind::PlanarAdapt),
        // BookSim's cmesh routings without its express links, and the fly's.
        ("dor_no_express", RoutingKind::DorNoExpress),
        ("xy_yx_no_express", RoutingKind::XyYxNoExpress),
        ("dest_tag", RoutingKind::DestTag),
        // BookSim's ugal_dragonflynew / ugal_flatfly (adaptive.rs).
        ("ugal", RoutingKind::Ugal),
    ],
};
