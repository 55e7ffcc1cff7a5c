# Run inside Choreonoid after it has loaded a project: `choreonoid --no-window PROJECT.cnoid dump-project.py`
# (test/live/project/run-oracle.sh runs it over every sample project). Writes to $BB_PROJECT_DUMP one JSON object
# with Choreonoid's own account of the project, the oracle test/project-oracle.test.ts holds src/project/ against:
# - every item of the tree: its class (the Python binding's class name), name and item path;
# - for every BodyItem, in tree order: item name, body name, model file as Choreonoid resolved it, the nearest
#   BodyItem and WorldItem above it, the root link's pose (p, R rows), its joint type, isFixedRootModel,
#   isStaticModel, and every slot of Body::joint(i) (name, link, id, q);
# - then the same poses and joint positions after BodyItem.restoreInitialState on every body in tree order,
#   read at once, as SimulatorItem::startSimulation does before it builds the simulation bodies: where a
#   simulation from the initial state starts each body.
import json
import os
import sys
import traceback

import cnoid.Util
from cnoid.Base import App, RootItem
from cnoid.BodyPlugin import BodyItem, WorldItem

OUT = os.environ.get("BB_PROJECT_DUMP", "project-dump.json")


def value(x):
    """An attribute of Choreonoid's Python binding: some are properties, some methods."""
    return x() if callable(x) else x


def rows(m):
    m = value(m)
    return [[float(m[i][j]) for j in range(3)] for i in range(3)]


def vec(v):
    v = value(v)
    return [float(v[i]) for i in range(3)]


def items_in_tree_order(item, path, out):
    child = item.childItem
    while child:
        child_path = child.name if path == "" else path + "/" + child.name
        out.append((child, child_path))
        items_in_tree_order(child, child_path, out)
        child = child.nextItem
    return out


def nearest(item, cls, paths):
    parent = item.parentItem
    while parent:
        if isinstance(parent, cls):
            return paths.get(id(parent))
        parent = parent.parentItem
    return None


def kinematic_state(body):
    root = body.rootLink
    joints = []
    for i in range(body.numAllJoints):
        j = body.joint(i)
        joints.append({
            "slot": i,
            "name": j.jointName,
            "link": j.name,
            "id": int(j.jointId),
            "q": float(j.q),
        })
    return {"root_p": vec(root.p), "root_R": rows(root.R), "joints": joints}


def main():
    result = {"ok": True, "share": cnoid.Util.shareDirectory, "items": [], "bodies": []}
    tree = items_in_tree_order(RootItem.instance, "", [])
    paths = {id(item): path for item, path in tree}
    body_items = []
    for item, path in tree:
        result["items"].append({"class": type(item).__name__, "name": item.name, "path": path})
        if isinstance(item, BodyItem):
            body_items.append((item, path))
    for item, path in body_items:
        body = item.body
        root = body.rootLink
        entry = {
            "item_name": item.name,
            "item_path": path,
            "body_name": body.name,
            "model_name": body.modelName,
            "file": item.filePath,
            "world": nearest(item, WorldItem, paths),
            "parent_body": nearest(item, BodyItem, paths),
            "root_link": root.name,
            "root_joint_type": str(value(root.jointTypeString)) if hasattr(root, "jointTypeString") else str(root.jointType),
            "fixed_root": bool(body.isFixedRootModel()),
            "static_model": bool(body.isStaticModel()),
            "num_joints": int(body.numJoints),
            "num_all_joints": int(body.numAllJoints),
            "current": kinematic_state(body),
        }
        result["bodies"].append(entry)
    # SimulatorItem::startSimulation (from the initial state) restores every target body's initial state, then
    # builds the simulation bodies from the bodies as they are: read them at once, without running the event loop.
    for item, _ in body_items:
        item.restoreInitialState(True)
    for (item, _), entry in zip(body_items, result["bodies"]):
        entry["initial"] = kinematic_state(item.body)
    return result


try:
    dump = main()
except Exception:
    dump = {"ok": False, "exception": traceback.format_exc()}
with open(OUT, "w") as f:
    json.dump(dump, f, indent=1)
sys.stdout.flush()
App.exit(0)
