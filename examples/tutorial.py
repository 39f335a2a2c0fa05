# %% [markdown]
# # netcoll in a notebook: topology -> schedule -> DataFrame -> plot
#
# A notebook-style script (cells marked `# %%`, as Jupyter, VS Code and jupytext read them);
# `tests/test_tutorial.py` runs it top to bottom, so every figure below is current. Run it
# yourself with `.venv/bin/python examples/tutorial.py [OUTPUT_DIR]`.

# %%
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt

import netcoll

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
out.mkdir(parents=True, exist_ok=True)

# %% [markdown]
# ## 1. A network
# A spec string builds it; `stats()` gives its exact metrics.

# %%
mesh = netcoll.topology("mesh:4x4")
stats = mesh.stats()
print(f"{mesh.name}: {stats['nodes']} nodes, diameter {stats['diameter']}")

# %% [markdown]
# ## 2. A schedule, verified
# Any collective (`netcoll algos` lists them) by any of its algorithms. Sizes take suffixes.

# %%
ring = netcoll.schedule("allreduce", algo="ring", topo=mesh, nbytes="64K")
check = ring.verify()
print(ring, "verified:", check.ok)
assert check.ok

# %% [markdown]
# ## 3. Its messages as a DataFrame
# `messages` is a numpy structured array (`src`, `dst`, `bytes`, `step`, ...);
# `to_pandas()` makes it a DataFrame.

# %%
df = ring.to_pandas()
per_step = df.groupby("step")["bytes"].sum()
print(df.head())
print("bytes per step:", per_step.iloc[0], "... total", int(df["bytes"].sum()))

# %% [markdown]
# ## 4. Compare algorithms: bytes moved and steps, then a plot

# %%
rows = []
for algo in ("ring", "recursive-doubling", "rabenseifner"):
    s = netcoll.schedule("allreduce", algo=algo, topo=mesh, nbytes="64K")
    m = s.to_pandas()
    rows.append((algo, int(m["step"].max()) + 1, int(m["bytes"].sum())))
    print(f"{algo:>20}: {rows[-1][1]:>3} steps, {rows[-1][2]:>9,} bytes")

fig, ax = plt.subplots(figsize=(5, 3))
ax.bar([r[0] for r in rows], [r[2] / 1024 for r in rows])
ax.set_ylabel("KiB moved")
ax.set_title("allreduce of 64 KiB on mesh:4x4")
fig.tight_layout()
fig.savefig(out / "tutorial_allreduce.png")
print("wrote", out / "tutorial_allreduce.png")

# %% [markdown]
# ## 5. From the tuner to the flit engine
# `tune` ranks every algorithm; each candidate's `set` is exactly what `simulate` takes.

# %%
best = netcoll.tune("bcast", mesh, nbytes="1M")["candidates"][0]
run = netcoll.simulate("bcast", best["algo"], mesh, nbytes="1M", params=best["set"])
print(f"best bcast: {best['algo']} {best['set']}: {run['cycles']:,} cycles")
