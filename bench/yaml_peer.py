"""Peer for the load benchmark: libyaml's C loader (PyYAML's CSafeLoader) parsing the same YAML
bytes body_bridge's loader reads, timed in-process the same way as the TypeScript side (warm-up
runs discarded, then repetitions). Bytes are read into memory first, so no disk time is counted.

stdin: {"warmup": W, "reps": R, "models": [{"id": ..., "files": [path, ...]}, ...]}
stdout: {"libyaml": "...", "models": [{"id": ..., "bytes": B, "ms": [per-repetition ms]}, ...]}
"""
import json
import sys
import time

import yaml

if not getattr(yaml, "__with_libyaml__", False):
    sys.exit("PyYAML is built without libyaml: install Debian's python3-yaml")


def main() -> None:
    job = json.load(sys.stdin)
    warmup, reps = int(job["warmup"]), int(job["reps"])
    out = []
    for model in job["models"]:
        blobs = []
        for path in model["files"]:
            with open(path, "rb") as f:
                blobs.append(f.read())
        try:
            out.append({"id": model["id"], "bytes": sum(len(b) for b in blobs), "ms": time_model(blobs, warmup, reps)})
        except yaml.YAMLError as e:
            out.append({"id": model["id"], "error": str(e).replace("\n", " ")})
    json.dump({"libyaml": yaml.__version__ + " (CSafeLoader, libyaml " + yaml_libyaml_version() + ")", "models": out}, sys.stdout)


def time_model(blobs: list, warmup: int, reps: int) -> list:
    samples = []
    for r in range(warmup + reps):
        t0 = time.perf_counter()
        for blob in blobs:
            yaml.load(blob, Loader=yaml.CSafeLoader)
        t1 = time.perf_counter()
        if r >= warmup:
            samples.append((t1 - t0) * 1000.0)
    return samples


def yaml_libyaml_version() -> str:
    try:
        from yaml import _yaml  # the C extension

        return _yaml.get_version_string()
    except Exception:  # noqa: BLE001 - the version is informative only
        return "unknown"


if __name__ == "__main__":
    main()
