#!/usr/bin/env python3
# Runs Choreonoid headless over every sample project of the corpus and collects its own account of each
# (dump-project.py, run inside Choreonoid after the project loads) into test/fixtures/project-oracle/choreonoid.json,
# the oracle test/project-oracle.test.ts holds src/project/ against. Choreonoid's output, not ours: keep it as run.
#
#   source /opt/ros/humble/setup.bash     # Choreonoid (and its Python API) on PATH and LD_LIBRARY_PATH
#   python3 test/live/project/run-oracle.py [--corpus ../shared/corpus] [--out test/fixtures/project-oracle/choreonoid.json]
#
# Both readers must read the same model files, so Choreonoid's ${SHARE} is made the corpus' layout: Choreonoid
# finds its share directory from where libCnoidUtil lies (src/Util/ExecutablePath.cpp: <prefix>/share/choreonoid-x.y
# for <prefix>/lib/libCnoidUtil.so), so a copy of that one library in a scratch prefix, preloaded (LD_PRELOAD: the
# installed binaries find their libraries by RPATH, which LD_LIBRARY_PATH does not override), relocates ${SHARE} to a scratch share whose model/ is the corpus' share/model, whose WRS2018/ is the corpus'
# sample/WRS2018 (Choreonoid installs it there) and whose other entries are the installed ones. The plugins are the
# installed ones (the prefix's lib/choreonoid-x.y links to them). The dump records the share Choreonoid used.
#
# Paths in the dump are written relative to two roots so that they compare on any machine: "${SHARE}/..." for
# that share directory, "${SAMPLE}/..." for the corpus' sample directory the projects are read from. What Choreonoid
# printed (its MessageView text, on stdout with --no-window) is kept per project: its errors and warnings, for the
# projects or bodies it does not load.
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def installed_prefix(choreonoid):
    """The prefix Choreonoid is installed in: the parent of the lib directory holding libCnoidUtil."""
    ldd = subprocess.run(["ldd", os.path.realpath(choreonoid)], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"libCnoidUtil\.so[^ ]* => (\S+)", ldd)
    if not m:
        sys.exit("cannot find libCnoidUtil in ldd %s" % choreonoid)
    lib = os.path.realpath(m.group(1))
    return os.path.dirname(os.path.dirname(lib)), lib


def relocated_prefix(choreonoid, corpus, work):
    """A scratch prefix whose share directory is the corpus layout (see the top of this file)."""
    top, util = installed_prefix(choreonoid)
    shares = sorted(glob.glob(os.path.join(top, "share", "choreonoid-*")))
    if not shares:
        sys.exit("no share/choreonoid-x.y under %s" % top)
    installed_share = shares[-1]
    subdir = os.path.basename(installed_share)
    prefix = os.path.join(work, "prefix")
    os.makedirs(os.path.join(prefix, "lib"))
    shutil.copy2(util, os.path.join(prefix, "lib", os.path.basename(util)))
    for name in os.listdir(os.path.join(top, "lib")):
        if name.startswith("choreonoid-"):
            os.symlink(os.path.join(top, "lib", name), os.path.join(prefix, "lib", name))
    share = os.path.join(prefix, "share", subdir)
    os.makedirs(share)
    overlay = {
        "model": os.path.join(corpus, "choreonoid", "share", "model"),
        "WRS2018": os.path.join(corpus, "choreonoid", "sample", "WRS2018"),
    }
    for name in os.listdir(installed_share):
        if name not in overlay:
            os.symlink(os.path.join(installed_share, name), os.path.join(share, name))
    for name, target in overlay.items():
        os.symlink(os.path.realpath(target), os.path.join(share, name))
    return prefix, share, installed_share, os.path.join(prefix, "lib", os.path.basename(util))


def tokenise(value, roots):
    if isinstance(value, str):
        for token, root in roots:
            if value == root or value.startswith(root + "/"):
                return token + value[len(root):]
        return value
    if isinstance(value, list):
        return [tokenise(v, roots) for v in value]
    if isinstance(value, dict):
        return {k: tokenise(v, roots) for k, v in value.items()}
    return value


# MessageView lines worth keeping: Choreonoid's errors and warnings, and the lines that say an item was not restored.
ANSI = re.compile(r"\x1b\[[0-9;]*m")
INTERESTING = re.compile(r"(error|warning|cannot|not found|failed|not a registered|not restored|Mismatched)", re.IGNORECASE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus"))
    parser.add_argument("--out", default=os.path.join(REPO, "test", "fixtures", "project-oracle", "choreonoid.json"))
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--only", default="", help="a substring of the project paths to run (for a quick look)")
    args = parser.parse_args()

    choreonoid = shutil.which("choreonoid")
    if not choreonoid:
        sys.exit("choreonoid is not on PATH: source the setup.bash of the prefix it is installed in")
    corpus = os.path.realpath(args.corpus)
    sample = os.path.join(corpus, "choreonoid", "sample")
    projects = sorted(p for p in glob.glob(os.path.join(sample, "**", "*.cnoid"), recursive=True) if args.only in p)
    script = os.path.join(HERE, "dump-project.py")
    work = tempfile.mkdtemp(prefix="project-oracle-")
    prefix, share, installed_share, util = relocated_prefix(choreonoid, corpus, work)
    roots = [("${SHARE}", share), ("${SAMPLE}", sample)]
    env = dict(
        os.environ,
        LIBGL_ALWAYS_SOFTWARE="1",
        QT_QPA_PLATFORM="offscreen",
        LD_PRELOAD=util,
    )

    results = []
    try:
        for i, project in enumerate(projects):
            rel = os.path.relpath(project, sample)
            out = os.path.join(work, "dump%d.json" % i)
            started = time.time()
            entry = {"project": rel}
            try:
                run = subprocess.run(
                    [choreonoid, "--no-window", project, script],
                    cwd=os.path.dirname(project),
                    env=dict(env, BB_PROJECT_DUMP=out),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    timeout=args.timeout,
                )
                text = run.stdout.decode("utf-8", "replace")
                entry["exit_code"] = run.returncode
            except subprocess.TimeoutExpired as e:
                text = (e.stdout or b"").decode("utf-8", "replace")
                entry["exit_code"] = None
                entry["timeout"] = True
            entry["seconds"] = round(time.time() - started, 1)
            plain = ANSI.sub("", text)
            entry["messages"] = tokenise([l for l in plain.splitlines() if INTERESTING.search(l)][:200], roots)
            if os.path.exists(out):
                with open(out) as f:
                    dump = json.load(f)
                entry["dumped"] = bool(dump.get("ok"))
                if dump.get("share") and os.path.realpath(dump["share"]) != os.path.realpath(share):
                    sys.exit("Choreonoid used %s as its share, not %s: the relocation did not take" % (dump["share"], share))
                if dump.get("ok"):
                    entry["items"] = tokenise(dump["items"], roots)
                    entry["bodies"] = tokenise(dump["bodies"], roots)
                else:
                    entry["exception"] = dump.get("exception")
            else:
                entry["dumped"] = False
            print("%-60s %5.1fs %s" % (rel, entry["seconds"], "%d bodies" % len(entry.get("bodies", [])) if entry["dumped"] else "NOT DUMPED"), flush=True)
            results.append(entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        # One project per line: small, and a new run diffs project by project.
        head = {
            "choreonoid": os.path.basename(share),
            "installed_share": installed_share,
            "command": "choreonoid --no-window PROJECT test/live/project/dump-project.py (from PROJECT's directory)",
            "share": "${SHARE} = " + share,
        }
        f.write(json.dumps(head)[:-1] + ', "projects": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in results))
        f.write("\n]}\n")

if __name__ == "__main__":
    main()
