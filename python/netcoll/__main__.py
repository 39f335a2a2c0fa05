from .cli import main

if __name__ == "__main__":  # not when mpi4py.futures workers import it as __mp_main__
    main()
