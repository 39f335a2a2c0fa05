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
        // BookSim's ugal_dragonflynew / ugal_flatfly and valiant_flatfly (adaptive.rs).
        ("ugal", RoutingKind::Ugal),
        ("valiant", RoutingKind::Valiant),
    ],
};
