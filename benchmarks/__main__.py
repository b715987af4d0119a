"""Run every benchmark module of this folder, or those named, with the arguments that follow:
`python -m benchmarks [name ...] [argument ...]`, e.g. `python -m benchmarks widgets kernel_svm_demo`.
Words that name no benchmark module are passed on to each chosen module's `main`."""

import importlib
import pkgutil
import sys

import benchmarks


def main(words):
    modules = sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__)
                     if info.name.startswith("bench_"))
    chosen = [m for m in modules if m.removeprefix("bench_") in words or m in words]
    arguments = [w for w in words if w not in chosen and f"bench_{w}" not in chosen]
    if words and not chosen:
        sys.exit(f"no benchmark named {words[0]!r}: choose among "
                 + ", ".join(m.removeprefix("bench_") for m in modules))
    for name in chosen or modules:
        print(f"\n== {name} ==", flush=True)
        module = importlib.import_module(f"benchmarks.{name}")
        if arguments:
            module.main(arguments)
        else:
            module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
