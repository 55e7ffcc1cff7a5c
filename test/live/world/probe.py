# Run inside Choreonoid after the project loads (project.launch.py choreonoid_args:=probe.py, test/ros-live-world.test.ts):
# Choreonoid's own account of every body of the world scene, for the test to hold body_bridge's /tf against.
# - The simulation is started by Choreonoid's --start-simulation (the launch's way): this only watches it.
# - Every 20 ms, appends to $BB_PROBE_DIR/probe.jsonl one line with the wall time, the simulation time and, for
#   every body item, its joint positions and every link's world pose as Choreonoid holds them (the simulator
#   writes all link positions into the items: output_all_link_positions).
# - Event lines ({"event": ...}) also go to $BB_PROBE_DIR/events.jsonl: "bodies" (names and links) once, "running"
#   when the simulation is first seen running.
# - "quit" written to $BB_PROBE_DIR/command ends Choreonoid.
# Poses are 4x4 matrices, row-major.
import json
import os
import time

from cnoid.Base import App, RootItem
from cnoid.BodyPlugin import BodyItem, SimulatorItem
from cnoid.QtCore import QTimer

PROBE_DIR = os.environ.get("BB_PROBE_DIR", ".")
LOG = os.path.join(PROBE_DIR, "probe.jsonl")
EVENTS = os.path.join(PROBE_DIR, "events.jsonl")
COMMAND = os.path.join(PROBE_DIR, "command")


def value(x):
    """An attribute of Choreonoid's Python binding: some are properties, some methods."""
    return x() if callable(x) else x


def matrix(T):
    T = value(T)
    return [float(T[i][j]) for i in range(4) for j in range(4)]


class Probe:
    def __init__(self):
        self.out = open(LOG, "a", buffering=1)
        self.events = open(EVENTS, "a", buffering=1)
        root = RootItem.instance
        self.simulator = root.findItem(SimulatorItem)
        self.items = list(root.getDescendantItems(BodyItem))
        self.running = False
        self.log({"event": "bodies", "bodies": {item.name: [link.name for link in item.body.links] for item in self.items}})
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def log(self, entry):
        entry["wall"] = time.time()
        line = json.dumps(entry) + "\n"
        self.out.write(line)
        if "event" in entry:
            self.events.write(line)

    def tick(self):
        if os.path.exists(COMMAND):
            with open(COMMAND) as f:
                command = f.read().strip()
            os.remove(COMMAND)
            self.log({"event": "command", "command": command})
            if command == "quit":
                self.timer.stop()
                if self.simulator:
                    self.simulator.stopSimulation(True)
                App.exit()
                return
        running = bool(self.simulator and self.simulator.isRunning())
        if running and not self.running:
            self.log({"event": "running"})
        self.running = running
        bodies = {}
        for item in self.items:
            body = item.body
            bodies[item.name] = {
                "q": {body.joint(i).jointName: float(body.joint(i).q) for i in range(body.numJoints)},
                "links": {link.name: matrix(link.T) for link in body.links},
            }
        self.log({"sim": float(value(self.simulator.currentTime)) if self.simulator else -1.0, "running": running, "bodies": bodies})


probe = Probe()
