"""``python -m netcoll.mpi run OP ...``: `netcoll run` for an external launcher.

    mpiexec -n 16 python -m netcoll.mpi run allreduce --algo rabenseifner --bytes 1K,1M
    srun -N 4 --ntasks-per-node 4 python -m netcoll.mpi run bcast --algo binomial --bytes 64K

Every rank runs this; the job is the launcher's (the system's MPI and its placement on real
nodes), not the bundled mpiexec that `netcoll run` starts. The options are `netcoll run`'s;
`--np` defaults to the number of ranks launched. Rank 0 prints the report."""

import sys

from . import launch


def main(argv: list[str]) -> None:
    from mpi4py import MPI

    from ..cli import main as cli_main

    if argv[:1] != ["run"]:
        print("usage: python -m netcoll.mpi run OP [netcoll run's options]", file=sys.stderr)
        sys.exit(2)
    launch.UNDER_LAUNCHER = True
    if "--np" not in argv and not any(a.startswith("--np=") for a in argv):
        argv = [*argv, "--np", str(MPI.COMM_WORLD.Get_size())]
    cli_main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
