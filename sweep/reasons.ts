// Why a model fails the sweep or does not run: a fact about Choreonoid, the model or body_bridge, found in
// Choreonoid's log, the model file or the run's own figures (each says where), never "not supported".
// docs/corpus-sweep.md puts each beside its rows, with what the row's figures show (sweep/report.ts, measuredFacts).
export interface Reason {
  /** The models it explains (their names in the table). */
  models: RegExp;
  reason: string;
}

/** What a free body standing on its legs (or lying on its limbs) meets, which the gain design leaves out. */
const GROUND_LOAD =
  "body_bridge's gain design takes a joint's load to be gravity on the links it carries, the body held in the air " +
  '(docs/control.md, "Gains from the model"); standing, the legs carry the whole body through the floor, and a body ' +
  'that falls lies on its limbs. Those loads (the Measured loads: several times the design load) sag the joints past ' +
  "the goal tolerance, twice the design sag. body_bridge's, not Choreonoid's: the gains and tolerances ignore contact.";

export const REASONS: Reason[] = [
  {
    models: /AizuSpider(DA|NA|SA)\.body$/,
    reason:
      'AizuSpiderNA.body (a sub-body of DA and SA) has AGXVehicleContinuousTrackDevice elements without isOptional, a ' +
      "node type only Choreonoid's AGX Dynamics plugin defines; this build has no AGX plugin, and a sub-body that fails to " +
      "load fails the body (Choreonoid's loader in ../shared/oracle failed DA and SA the same way).",
  },
  {
    models: /AizuSpider(DS|NS|SS)\.body$/,
    reason:
      'A flipper sent down (FL_FLIPPER to -0.50 rad) presses its track on the floor and has to lift the robot: the root ' +
      'rises 19 mm and the flipper stops about 24 mrad short, where its controller gives up ("Exceeded goal_time_tolerance"). ' +
      "Its P is sized for the flipper's own weight (2.6 N·m at 1 mrad of sag); body_bridge's gain design leaves out the " +
      "body a flipper lifts (docs/control.md, \"Gains from the model\"): body_bridge's, not Choreonoid's.",
  },
  {
    models: /(FireHose|LockedDoor|NozzleConnectionTest|FireCabinetWaterDischargeTest|WRS2018\/model\/Fire)\.body$/,
    reason:
      'It has a device of a plugin this Choreonoid build lacks (AGX Dynamics: AGXWireDevice, AGXBreakableJointDevice, ' +
      'AGXMagneticJointDevice; the scene effects: FountainDevice, FireDevice) without isOptional: an unknown node type is a ' +
      'load error (with isOptional: true Choreonoid skips it with a warning, as it does in other WRS2018 models).',
  },
  {
    models: /Tank\/(AgxTank|PxTank)\.body$|misc\/PxCrawler\.body$/,
    reason:
      'Its tracks are devices of plugins this Choreonoid build lacks (AGXVehicleContinuousTrackDevice of AGX Dynamics, ' +
      'PxContinuousTrack of the PhysX plugin) without isOptional: an unknown node type is a load error (its message).',
  },
  {
    models: /openhrp3\/sample\/model\/closedlink[12]\.wrl$/,
    reason:
      'J2_dum and J2_dee, the two halves OpenHRP closes its loop between, have mass 0 and no inertia (closedlink1.wrl ' +
      'lines 646, 872): a joint whose link has no inertia about its axis has no acceleration forward dynamics can compute, ' +
      "and Choreonoid's AIST simulator gives NaN for every joint angle from its first sample (0.04 s) — in a project with " +
      'no ROS item and no controller as well (checked by hand, 28 Nov 2026).',
  },
  {
    models: /openhrp3\/sample\/model\/crawler\.wrl$/,
    reason: 'OpenHRP\'s jointType "crawler": Choreonoid\'s VRML loader knows pseudoContinuousTrack, not crawler (its message).',
  },
  {
    models: /closed-link-sample\.wrl$/,
    reason: 'OpenHRP\'s planar jointType "xy", which Choreonoid\'s VRML loader does not have (its message).',
  },
  {
    models: /(HRP4C\/HRP4C|SR1\/SR1Hand)\.body$/,
    reason:
      'A device has no name (HRP4C.body: its AccelerationSensor and RateGyroSensor; SR1Hand.body: the ForceSensor of LARM_WRIST_P, line 295); ' +
      "choreonoid_ros's BodyROS2Item names each device's topic after it under the body's, /HRP_4C/ + '', and rclcpp throws " +
      'InvalidTopicNameError ("topic name must not end with a forward slash"): Choreonoid aborts (build/sweep/logs). ' +
      'body_bridge warns of the nameless devices (no input topic) but still puts BodyROS2Item in the project.',
  },
  {
    models: /Robotiq\/2F-85\.body$/,
    reason:
      "The body is named 2F-85; choreonoid_ros's BodyROS2Item makes a ROS node named after its body item (2F_85), and " +
      'rclcpp throws InvalidNodeNameError ("node name must not start with a number"): Choreonoid aborts. The generated ' +
      "project names the item after the model's name.",
  },
  {
    models: /Labo1\/Labo1(v2)?\.body$/,
    reason:
      "Choreonoid loads its Labo1Customizer for every body named Labo1: each step it sets Valve1Handle's joint torque " +
      "itself (a presliding friction of at most 1 N·m), replacing the PD's, so the handle does not move: the final error is " +
      'the whole way to the goal.',
  },
  {
    models: /WRS2018\/model\/CollapsedCeilingF\.body$/,
    reason:
      "BOARING_BASE (prismatic, 0.1 kg) carries BOARING_TARGET (10 kg) by a free joint, held in AGX by an " +
      'AGXBreakableJointDevice this build skips. body_bridge\'s gains for BOARING_BASE, P 99 047 N/m and D 1400 N·s/m ' +
      "(Choreonoid's log), are sized with the target as its load; in the simulation the target is a body of its own and " +
      'the joint moves 0.1 kg, for which D·T/m = 14 is far past what the 1 ms step can carry: NaN from 0.05 s. The same ' +
      "project without ROS items and controllers simulates 9.5 s with no NaN (checked by hand). body_bridge's: its design " +
      'and stability check take no account of a free joint below the root.',
  },
  {
    models: /SR1\/SR1-floor-box\.body$/,
    reason:
      'Not explained yet. Its root is a fixed floor box and the robot hangs from it by a free joint (WAIST); every ' +
      'joint angle is NaN from 0.17 s, before any goal. It has a free joint below the root as CollapsedCeilingF.body has, ' +
      "whose NaN comes from body_bridge's gains (see its row).",
  },
  {
    models: /misc\/CustomizedSpringModel\.body$/,
    reason:
      'Choreonoid loads its SpringModelCustomizer for bodies named CustomizedSpringModel (its log: "Body customizer … ' +
      'for CustomizedSpringModel has been loaded"), a spring-damper on UPPER added each step through the body ' +
      "customizer's virtual joint forces (Choreonoid's sample/SpringModel): the PD holds against the spring, far past the " +
      'gravity load its gains were designed for (Measured).',
  },
  {
    models: /misc\/(HandyRockDrill|ContinuousTrackVehicle)\.body$/,
    reason:
      'Its root is at z = 0 in the model and its links reach below it (HandyRockDrill: the pusher, 0.7 m; ' +
      'ContinuousTrackVehicle: wheels and track shoes, 0.47 m, by the probe\'s first sample); the generated project stands ' +
      'a free body where its root pose puts it, on the top of the floor at z = 0, so it starts inside the floor and falls ' +
      "through it (root 150 m and 1.6 km down by the end). body_bridge's placement: it does not lift a free body until its " +
      'lowest collision shape rests on the floor.',
  },
  {
    models: /misc\/ragdoll\.body$/,
    reason:
      "The ragdoll's joints meet in pairs through links of 1 g and 0.001 kg·m² (STOMACH_JOINT, ARM_JOINT_TWIST_R, …), and " +
      "body_bridge's gains for them come with the damping lowered to ζ 0.02–0.13 to keep its step criterion at 2 of 4 " +
      '(body-bridge control\'s README); in Choreonoid STOMACH_JOINT oscillates from about 1.0 s, grows, and is NaN at ' +
      "1.46 s (build/sweep/logs/…ragdoll.body.probe.jsonl). body_bridge's: its stability criterion does not hold here.",
  },
  {
    models: /AizuWheel\/AizuWheel\.body$/,
    reason:
      'It drove 0.567 m in the 3 s, then slid on: from the stop command its drive wheels stand still (R_WHEEL 5.75 rad ' +
      'from 6.0 s on) while the chassis goes on 0.11 m, the casters rolling (build/sweep/logs/…AizuWheel.body.probe.jsonl). ' +
      'Braked wheels that slow the 37 kg chassis at 0.18 m/s² (friction 0.5, Default on Ground, gives 4.9 m/s² under the ' +
      'whole weight) carry a few per cent of it: the casters carry the rest. ' +
      "body_bridge's diff_drive_controller has no acceleration limits, so it stops the wheels at once.",
  },
  {
    models: /simple_vehicle_with_rangesensor\.wrl$/,
    reason:
      'STEERING turns a wheel that stands on the floor: the tyre\'s friction is its load, not gravity (its design load is 0, ' +
      'P from the 10 Hz bandwidth alone), and it ended 2.5 mrad off, past its 2 mrad tolerance. body_bridge\'s gain design ' +
      'leaves contact out; the same vehicle without the sensor (simple_vehicle.wrl) ended within it in this sweep.',
  },
  {
    models: /RH2\/RH2_(WithArm_withoutSensor|withArm_withObstacleBumpSensor|withoutArm_withBumpSensor|withoutArm_withObstacleBumpSensor)\.wrl$/,
    reason:
      'Not explained yet. Its drive wheels turned at 1.97 rad/s in Choreonoid, as those of every RH2 variant, and its ' +
      'odometry agrees with the short distance (the wheels turned less, for 2.85–2.95 s of simulation time by the probe, ' +
      'not 3.0); the RH2 variants without a head or arm drove 0.580–0.587 m with the same base. The live control test saw ' +
      'RH2 at 0.586–0.587 m, and once 0.5688 m on a loaded CI machine (docs/control.md).',
  },
  {
    models: /WRS2018\/model\/HoseNozzle\.body$/,
    reason:
      'HOSE_NOZZLE_WATER_REACTION_JOINT1 and JOINT2 have no joint id (WRS2018\'s fountain plugin, absent here, drives them), ' +
      'so they are passive: free. JOINT1 (0.01 kg) turns until JOINT2\'s axis is vertical (1.58 rad), and JOINT2\'s 0.19 kg ' +
      "slides down it under gravity without end: Choreonoid's AIST simulator does not hold a joint in its range " +
      '(±0.2 m in the model; -106 m and 44 m/s after 5 s, build/sweep/logs/…HoseNozzle.body.probe.jsonl).',
  },
  {
    models: /\/(SR1[^/]*|sample1?(_bush)?|sample2|sample_special_joint_robot|sample_4leg_robot(_bush)?|GR001|RIC30|HRP4C|Victim[A-Z]*|ragdoll)\.(body|wrl)$/,
    reason: GROUND_LOAD,
  },
];

/** The reason of the first entry whose pattern matches the model, or null. */
export function reasonFor(reasons: readonly Reason[], model: string): string | null {
  return reasons.find((r) => r.models.test(model))?.reason ?? null;
}
