"""Run every benchmark module of this folder (or those named): `python -m benchmarks [name ...]`."""

import importlib
import pkgutil
import sys

import benchmarks


def main(names):
    modules = sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__) if info.name.startswith("bench_"))
    chosen = [m for m in modules if not names or m.removeprefix("bench_") in names or m in names]
    for name in chosen:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
