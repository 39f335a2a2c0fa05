//! Networks, routing, metrics and the deadlock check.

use crate::args;
use crate::{guarded, to_py, NetcollError};
use netcoll_core::guard;
use netcoll_core::routing::{check_deadlock, grid_route, Routing, RoutingKind, VcRule};
use netcoll_core::spec::TopologySpec;
use netcoll_core::topology::{file, metrics, Topology};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Routings built so far for a topology, by (kind, up*/down* root).
type RoutingCache = Mutex<HashMap<(RoutingKind, Option<usize>), Arc<Routing>>>;

/// A network built from a spec string (see `netcoll.topology`).
#[pyclass(module = "netcoll._core", name = "Topology", frozen)]
pub struct PyTopology {
    pub inner: Arc<Topology>,
    routings: RoutingCache,
}

impl PyTopology {
    fn routing(
        &self,
        py: Python<'_>,
        routing: &str,
        root: Option<usize>,
    ) -> PyResult<Arc<Routing>> {
        let kind = guarded(py, || RoutingKind::parse(routing))?;
        let key = (kind, root);
        if let Some(r) = self.routings.lock().unwrap().get(&key) {
            return Ok(r.clone());
        }
        let topo = self.inner.clone();
        let r = Arc::new(guarded(py, move || Routing::new(&topo, kind, root))?);
        self.routings.lock().unwrap().insert(key, r.clone());
        Ok(r)
    }
}

#[pymethods]
impl PyTopology {
    #[new]
    fn new(py: Python<'_>, spec: &str) -> PyResult<Self> {
        let spec = spec.to_string();
        let topo = guarded(py, move || Topology::from_spec(&spec))?;
        Ok(PyTopology {
            inner: Arc::new(topo),
            routings: Mutex::new(HashMap::new()),
        })
    }

    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str, origin: &str) -> PyResult<Self> {
        let (text, origin) = (text.to_string(), origin.to_string());
        let topo = guarded(py, move || file::from_json(&text, &origin))?;
        Ok(PyTopology {
            inner: Arc::new(topo),
            routings: Mutex::new(HashMap::new()),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }
    #[getter]
    fn family(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, self.inner.family())
    }
    #[getter]
    fn num_switches(&self) -> usize {
        self.inner.num_switches()
    }
    #[getter]
    fn num_endpoints(&self) -> usize {
        self.inner.num_endpoints()
    }
    #[getter]
    fn num_links(&self) -> usize {
        self.inner.num_links()
    }
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.inner.shape().to_vec()
    }
    /// Links as (switch_a, port_a, switch_b, port_b).
    fn links(&self) -> Vec<(u32, u32, u32, u32)> {
        self.inner
            .links()
            .iter()
            .map(|l| (l.a.switch, l.a.port, l.b.switch, l.b.port))
            .collect()
    }
    /// Per link: its class, "local", "global" or "tree" (a tree link's first end is the child).
    fn link_classes(&self) -> Vec<&'static str> {
        use netcoll_core::topology::LinkClass;
        (0..self.inner.num_links() as u32)
            .map(|l| match self.inner.link_class(l) {
                LinkClass::Local => "local",
                LinkClass::Global => "global",
                LinkClass::Tree => "tree",
            })
            .collect()
    }
    /// Endpoints as (switch, port), indexed by endpoint id.
    fn endpoints(&self) -> Vec<(u32, u32)> {
        self.inner
            .endpoints()
            .iter()
            .map(|e| (e.switch, e.port))
            .collect()
    }
    fn num_ports(&self, #[pyo3(from_py_with = args::switch)] switch: usize) -> PyResult<usize> {
        self.check_switch(switch)?;
        Ok(self.inner.num_ports(switch))
    }
    /// Coordinates of a switch (None outside the coordinate families).
    fn coords(
        &self,
        #[pyo3(from_py_with = args::switch)] switch: usize,
    ) -> PyResult<Option<Vec<usize>>> {
        self.check_switch(switch)?;
        Ok(self.inner.coords(switch))
    }
    /// Switch-to-switch neighbours as (switch, local port, link id), in port order.
    fn neighbours(
        &self,
        #[pyo3(from_py_with = args::switch)] switch: usize,
    ) -> PyResult<Vec<(u32, u32, u32)>> {
        self.check_switch(switch)?;
        Ok(self
            .inner
            .neighbours(switch)
            .iter()
            .map(|n| (n.switch, n.port, n.link))
            .collect())
    }
    /// The network in netcoll's JSON topology format.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        let topo = self.inner.clone();
        guarded(py, move || {
            // The text, its copy as a Python str, and the file write's buffer.
            let bytes = 3 * (topo.num_links() as u64 * 40 + topo.total_ports() as u64 * 16);
            guard::check(&format!("the JSON of {}", topo.name()), bytes)?;
            Ok(file::to_json(&topo))
        })
    }
    /// Exact distance metrics (dict).
    fn stats(&self, py: Python<'_>) -> PyResult<PyObject> {
        let topo = self.inner.clone();
        let m = guarded(py, move || metrics::metrics(&topo))?;
        to_py(py, &m)
    }
    /// Metrics by all-pairs BFS, ignoring symmetry (for cross-checks).
    fn stats_all_pairs(&self, py: Python<'_>) -> PyResult<PyObject> {
        let topo = self.inner.clone();
        let m = guarded(py, move || metrics::metrics_all_pairs(&topo))?;
        to_py(py, &m)
    }
    /// The route between two endpoints, hop by hop (list of dicts).
    #[pyo3(signature = (src, dst, routing="shortest", root=None))]
    fn route(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::src)] src: usize,
        #[pyo3(from_py_with = args::dst)] dst: usize,
        routing: &str,
        #[pyo3(from_py_with = args::updown_root)] root: Option<usize>,
    ) -> PyResult<PyObject> {
        let r = self.routing(py, routing, root)?;
        let topo = self.inner.clone();
        let hops = guarded(py, move || r.route_endpoints(&topo, src, dst))?;
        to_py(py, &hops)
    }
    /// Channel-dependency check of a routing with `vcs` virtual channels (dict).
    #[pyo3(signature = (routing, vcs=1, vc_rule="auto", root=None))]
    fn check_deadlock(
        &self,
        py: Python<'_>,
        routing: &str,
        #[pyo3(from_py_with = args::vcs)] vcs: u32,
        vc_rule: &str,
        #[pyo3(from_py_with = args::updown_root)] root: Option<usize>,
    ) -> PyResult<PyObject> {
        let r = self.routing(py, routing, root)?;
        let rule = guarded(py, || VcRule::parse(vc_rule))?;
        let topo = self.inner.clone();
        let report = guarded(py, move || check_deadlock(&topo, &r, vcs, rule))?;
        to_py(py, &report)
    }
    /// The up*/down* structure: root, BFS level per switch, and for each link whether
    /// going from its end a to its end b is "up".
    #[pyo3(signature = (root=None))]
    fn updown<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::updown_root)] root: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let r = self.routing(py, "updown", root)?;
        let u = r.updown().expect("updown routing");
        let d = PyDict::new(py);
        d.set_item("root", u.root())?;
        d.set_item("levels", u.levels().to_vec())?;
        let up: Vec<bool> = self
            .inner
            .links()
            .iter()
            .map(|l| u.is_up(l.a.switch as usize, l.b.switch as usize))
            .collect();
        d.set_item("a_to_b_is_up", up)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!(
            "Topology('{}': {} switches, {} endpoints, {} links)",
            self.inner.name(),
            self.inner.num_switches(),
            self.inner.num_endpoints(),
            self.inner.num_links()
        )
    }
}

impl PyTopology {
    fn check_switch(&self, switch: usize) -> PyResult<()> {
        if switch >= self.inner.num_switches() {
            return Err(NetcollError::new_err(format!(
                "switch {switch} is out of range: {} has switches 0 to {}",
                self.inner.name(),
                self.inner.num_switches() - 1
            )));
        }
        Ok(())
    }
}

/// Metrics of a spec without building it when a closed form exists (mesh, torus, hypercube).
#[pyfunction]
fn spec_stats(py: Python<'_>, spec: &str) -> PyResult<PyObject> {
    let spec = spec.to_string();
    let m = guarded(py, move || {
        metrics::metrics_of_spec(&TopologySpec::parse(&spec)?)
    })?;
    to_py(py, &m)
}

/// The route between two endpoints of a mesh or torus spec in closed form, without building
/// the network: `{"name", "shape", "hops"}`, or None for other families and up*/down*.
#[pyfunction]
#[pyo3(signature = (spec, src, dst, routing="shortest"))]
fn route_of_spec(
    py: Python<'_>,
    spec: &str,
    #[pyo3(from_py_with = args::src)] src: usize,
    #[pyo3(from_py_with = args::dst)] dst: usize,
    routing: &str,
) -> PyResult<PyObject> {
    let (spec, routing) = (spec.to_string(), routing.to_string());
    let found = guarded(py, move || {
        let parsed = TopologySpec::parse(&spec)?;
        let (dims, wrap) = match &parsed {
            // The closed-form route is by router = endpoint: one node per router.
            TopologySpec::Mesh(d, 1) => (d.clone(), false),
            TopologySpec::Torus(d, 1) => (d.clone(), true),
            _ => return Ok(None),
        };
        let kind = RoutingKind::parse(&routing)?;
        Ok(grid_route(&dims, wrap, src, dst, kind)?.map(|hops| (parsed.canonical(), dims, hops)))
    })?;
    match found {
        None => Ok(py.None()),
        Some((name, shape, hops)) => {
            let d = PyDict::new(py);
            d.set_item("name", name)?;
            d.set_item("shape", shape)?;
            d.set_item("hops", to_py(py, &hops)?)?;
            Ok(d.into_any().unbind())
        }
    }
}

/// The canonical form of a spec string (raises NetcollError when it is malformed).
#[pyfunction]
fn canonical_spec(py: Python<'_>, spec: &str) -> PyResult<String> {
    let spec = spec.to_string();
    guarded(py, move || Ok(TopologySpec::parse(&spec)?.canonical()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTopology>()?;
    m.add_function(wrap_pyfunction!(spec_stats, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_spec, m)?)?;
    m.add_function(wrap_pyfunction!(route_of_spec, m)?)?;
    Ok(())
}
