#![no_main]
//! cargo-fuzz target: netcoll_core::fuzzing::xml_depth (fuzz/README.md).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| netcoll_core::fuzzing::xml_depth(data));
