# Run inside Choreonoid after the project loads: `choreonoid Checker.cnoid probe.py` (test/ros-live-choreonoid.test.ts).
# Choreonoid's own account of the simulation, for the test to hold body_bridge against:
# - starts the simulation through the SimulationBar (WorldROS2Item publishes /clock only for a simulation
#   started there);
# - every 50 ms, appends to $BB_PROBE_DIR/probe.jsonl one line with the wall time, the run (1 for the first
#   start, then one more per start), the simulation time, the positions of every moving joint and track
#   (with or without a joint id) and every link's world pose of the robot body item as Choreonoid holds them
#   (the simulator writes all link positions into the item: output_all_link_positions);
# - once, each device's link and local pose (Device::T_local);
# - obeys commands written to $BB_PROBE_DIR/command: "stop", "start", "restart" (stop, then start from time 0),
#   "dynamics" (stop, remove the motion controller, start from time 0), "quit"; each is acknowledged with an
#   {"event": ...} line. Event lines also go to $BB_PROBE_DIR/events.jsonl. "restart" and "dynamics" may carry
#   the root's next world pose as JSON ({"translation": [x, y, z], "rotation": 3x3 rows}): the fixed base is
#   moved there, joints back to 0, and that becomes the state the next run starts from.
# Poses are 4x4 matrices, row-major.
import json
import os
import time

import numpy

from cnoid.Base import App, RootItem
from cnoid.BodyPlugin import BodyItem, SimulationBar, SimulatorItem
from cnoid.QtCore import QTimer

PROBE_DIR = os.environ.get("BB_PROBE_DIR", ".")
LOG = os.path.join(PROBE_DIR, "probe.jsonl")
EVENTS = os.path.join(PROBE_DIR, "events.jsonl")
COMMAND = os.path.join(PROBE_DIR, "command")
ROBOT = os.environ.get("BB_PROBE_BODY", "Checker")


def value(x):
    """An attribute of Choreonoid's Python binding: some are properties, some methods (Device.link)."""
    return x() if callable(x) else x


def is_track(link):
    """Link::PseudoContinuousTrackJoint (4 in Link.h); the binding's enum converts to int."""
    return int(value(link.jointType)) == 4


def matrix(T):
    T = value(T)
    return [float(T[i][j]) for i in range(4) for j in range(4)]


class Probe:
    def __init__(self):
        self.out = open(LOG, "a", buffering=1)
        self.events = open(EVENTS, "a", buffering=1)
        root = RootItem.instance
        self.simulator = root.findItem(SimulatorItem)
        self.bodyItem = None
        for item in root.getDescendantItems(BodyItem):
            if item.name == ROBOT:
                self.bodyItem = item
        if not self.simulator or not self.bodyItem:
            self.log({"event": "error", "message": "no SimulatorItem or no body item %s" % ROBOT})
            return
        body = self.bodyItem.body
        self.log({
            "event": "model",
            "links": [link.name for link in body.links],
            "joints": [body.joint(i).jointName for i in range(body.numJoints)],
            "devices": [{"name": value(d.name), "type": value(d.typeName), "link": value(value(d.link).name), "T_local": matrix(d.T_local)} for d in body.devices],
        })
        self.simulator.sigSimulationStarted.connect(lambda: self.log({"event": "started"}))
        self.simulator.sigSimulationFinished.connect(lambda forced: self.log({"event": "finished"}))
        self.timer = QTimer()
        self.timer.setInterval(50)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        self.pending = None
        # Which run of the simulation a sample belongs to, counted here where the runs start: the test's wall
        # clock cannot tell, since a sample of the old run may be written just after it sends a command.
        self.run = 0
        if os.environ.get("BB_PROBE_NOSTART", "") == "":
            self.start()

    def log(self, entry):
        entry["wall"] = time.time()
        line = json.dumps(entry) + "\n"
        self.out.write(line)
        if "event" in entry:
            self.events.write(line)

    def start(self):
        self.run += 1
        SimulationBar.instance.startSimulation(True)
        self.log({"event": "start", "run": self.run})

    def stop(self):
        self.simulator.stopSimulation(True)
        self.log({"event": "stop"})

    def place(self, pose):
        """Move the (fixed) root to a world pose and make it the initial state the next run starts from."""
        body = self.bodyItem.body
        root = value(body.rootLink)
        root.setTranslation(numpy.array(pose["translation"], dtype=float))
        root.setRotation(numpy.array(pose["rotation"], dtype=float))
        for i in range(body.numJoints):
            body.joint(i).q = 0.0
        body.calcForwardKinematics()
        self.bodyItem.notifyKinematicStateChange()
        self.bodyItem.storeInitialState()
        self.log({"event": "placed", "root": matrix(root.T)})

    def tick(self):
        if self.pending == "start" and not self.simulator.isRunning():
            self.pending = None
            self.start()
        if os.path.exists(COMMAND):
            with open(COMMAND) as f:
                command, _, argument = f.read().strip().partition(" ")
            os.remove(COMMAND)
            self.log({"event": "command", "command": command, "argument": argument})
            if command == "stop":
                self.stop()
            elif command == "start":
                self.start()
            elif command == "restart":
                self.stop()
                if argument:
                    self.place(json.loads(argument))
                self.pending = "start"
            elif command == "dynamics":
                # Stop, take the motion controller away (while it plays joint angles, AIST's high-gain dynamics
                # leaves force sensors at 0) and start again: the head then rests on its joint limits.
                self.stop()
                for item in self.bodyItem.getDescendantItems():
                    # The binding may not know the class (it then shows as Item): the scene's name for it too.
                    if type(item).__name__ == "BodyMotionControllerItem" or item.name == "HeadMotion":
                        item.detachFromParentItem()
                        self.log({"event": "motion controller removed"})
                if argument:
                    self.place(json.loads(argument))
                self.pending = "start"
            elif command == "quit":
                self.timer.stop()
                App.exit()
                return
        body = self.bodyItem.body
        # Every moving joint, by its link: body.joint(i) lists only the joints with an id. Pseudo continuous tracks
        # too (their position, as Choreonoid holds it, is what ros2_control reports for them).
        moving = [link for link in body.links if value(link.isRevoluteJoint) or value(link.isPrismaticJoint) or is_track(link)]
        self.log({
            "run": self.run,
            "sim": float(value(self.simulator.currentTime)),
            "running": bool(self.simulator.isRunning()),
            "q": {link.jointName: float(link.q) for link in moving},
            "links": {link.name: matrix(link.T) for link in body.links},
        })


probe = Probe()
