// Why a model fails the sweep or does not run: a fact about Choreonoid, the model or body_bridge, found in
// Choreonoid's log, the model file or the run's own figures (each says where), never "not supported".
// docs/corpus-sweep.md puts each beside its rows, with what the row's figures show (sweep/report.ts, measuredFacts).
export interface Reason {
  /** The models it explains (their names in the table). */
  models: RegExp;
  reason: string;
}

/** HoseNozzle.body, alone or in FullFeaturedFireCabinet.body. */
const HOSE_NOZZLE =
  'HOSE_NOZZLE_WATER_REACTION_JOINT1 and JOINT2 have no joint id (WRS2018\'s fountain plugin, absent here, drives them), ' +
  'so they are passive: free. JOINT1 (0.01 kg) turns until JOINT2\'s axis is vertical (1.57–1.61 rad), and JOINT2\'s 0.19 kg ' +
  "slides down it under gravity without end: Choreonoid's AIST simulator does not hold a joint in its range " +
  '(±0.2 m in the model; about -100 m at 5 s, build/sweep/logs/…HoseNozzle.body.probe.jsonl).';

/** WRS2018's fire cabinets since the generated project turns self-collision on for their free hose parts. */
const CABINET_SELF_COLLISION =
  'Its hose connector and nozzle hang from the fixed cabinet by free joints (sub-bodies), so the generated project turns ' +
  "self-collision on (src/project/simulation-project.ts), as WRS2018's own Firecabinet-*.cnoid do, and Choreonoid then " +
  "checks the pairs the model's own collisionDetection rules leave. Two of those make its door a latched one: KNOB, on " +
  'the door, stands against LOCK until it has turned past 71° (1.24 rad) of its 90°, and HOSE_REEL turns into the closed ' +
  "door. No goal sent at once is clear of them (400 draws), so the sweep's goals move one joint at a time, the knob " +
  'by way of its stop before the door opens and the reel after it (the trajectories cell; from 30 Nov 2026, 09:00 UTC ' +
  'on), and every controller reaches its goal.';

/** WRS2018's rescue dummies. */
const VICTIM =
  'It does not stand as modelled: it crouches (knees 0.91 rad) with its feet behind it, its centre of mass (54.6 kg) at ' +
  "x = 0.064 m, 0.34 m ahead of its feet's front edge (x −0.332 to −0.280 m, body_bridge's contact points at its model " +
  'pose), so it falls forward in the first 0.6 s of simulation, before anything is commanded (its root turned 46° and ' +
  'dropped from 0.75 to 0.31 m, build/sweep/logs/…Victim.body.probe.jsonl), and lies on its knees, hands and face. Its ' +
  "joints' jointLock keys (a compliant lock within ±20 N·m) are AGX Dynamics' (AGXBody.cpp reads them), which this " +
  "build lacks: the AIST simulator ignores them, and body_bridge gives it a humanoid's controllers. body_bridge's " +
  'resting attitude (src/roles/resting.ts: tipped 44.6° over the front of its feet onto its knees, the joints held) ' +
  'has its gains designed tipped so too (from 30 Nov 2026, 09:00 UTC on), but it goes on over, onto its hands and face ' +
  '(its root turned 56° and 0.50 m down by the goals in the run of 09:55 UTC): lying on them, its neck and wrists bear ' +
  'the body (NECK_P 34.9 N·m at rest, Measured), which no attitude of a rigid body standing on its feet gives.';

export const REASONS: Reason[] = [
  {
    models: /AizuSpider(DA|NA|SA)\.body$/,
    reason:
      'AizuSpiderNA.body (a sub-body of DA and SA) has AGXVehicleContinuousTrackDevice elements without isOptional, a ' +
      "node type only Choreonoid's AGX Dynamics plugin defines; this build has no AGX plugin, and a sub-body that fails to " +
      "load fails the body (Choreonoid's loader in ../shared/oracle failed DA and SA the same way).",
  },
  {
    models: /(FireHose|LockedDoor|NozzleConnectionTest|FireCabinetWaterDischargeTest|WRS2018\/model\/Fire)\.body$/,
    reason:
      'It has a device of a plugin this Choreonoid build lacks (AGX Dynamics: AGXWireDevice, AGXBreakableJointDevice, ' +
      'AGXMagneticJointDevice; the scene effects: FountainDevice, FireDevice) without isOptional: an unknown node type is a ' +
      'load error (with isOptional: true Choreonoid skips it with a warning, as it does in other WRS2018 models).',
  },
  {
    models: /Tank\/(AgxTank|PxTank)\.body$|misc\/PxCrawler\.body$|DoubleArmV7\/DoubleArmV7A\.body$/,
    reason:
      'Its tracks are devices of plugins this Choreonoid build lacks (AGXVehicleContinuousTrackDevice of AGX Dynamics, ' +
      'PxContinuousTrack of the PhysX plugin) without isOptional: an unknown node type is a load error (its message).',
  },
  {
    models: /AizuWheel\/AizuWheel\.body$/,
    reason:
      'Its drive wheels carry almost none of its weight in Choreonoid, so they slip. Its two casters and two drive ' +
      'wheels all touch the floor at z = 0 exactly, in a line along x (casters at x = 0.213 and −0.317 m, the axle at 0): a ' +
      'stand on four points the geometry does not share out, and the AIST simulator puts the weight on the casters. ' +
      'Rolling, the casters turn exactly as the base moves, and the drive wheels creep 3–6 % ahead of it (probe, 30 Nov ' +
      '2026). Shown by three runs of copies of the model (each ' +
      'through the sweep\'s own run): with the casters 1 mm higher, so that the drive wheels bear the body, it drives 0.581 m while its ' +
      'wheels turn as for 0.582 m (no creep; the 3 % short of 0.6 is the P-only velocity loop\'s lag), and with its ' +
      'JACO2 arm (the share\'s file) 0.575 m against 0.577; with Choreonoid itself turning the wheels (JointVelocity, ' +
      '`mode:=position`) exactly as for 0.601 m, the unchanged model went 0.564 m; with the contact solver\'s ' +
      'iterations raised from its 10 to 200 (max_num_iterations, error_criterion 1e-6), 0.501 m: the more exact the ' +
      'solution, the less the drive wheels bear. Not the wheels\' 20-sided collision polygons: with 200 sides it still ' +
      'went 0.557 m against 0.579.',
  },
  {
    models: /multicopter\/quadcopter\.body$/,
    reason:
      "Its rotors are RotorDevice nodes of Choreonoid's Multicopter plugin, which Choreonoid builds only with " +
      'BUILD_MULTICOPTER_PLUGIN (OFF by default, src/MulticopterPlugin/CMakeLists.txt) and this build leaves out: an ' +
      'unknown node type without isOptional is a load error (its message). Its propellers are `passive` for body_bridge ' +
      '(the RotorDevice beside each makes the thrust, and no ros2_control interface commands one).',
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
    models: /Labo1\/Labo1(v2)?\.body$/,
    reason:
      "Choreonoid loads its Labo1Customizer for every body named Labo1: each step it sets Valve1Handle's joint torque " +
      "itself (a presliding friction of at most 1 N·m), replacing the PD's, so the handle does not move: the final error is " +
      'the whole way to the goal.',
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
    models: /misc\/ragdoll\.body$/,
    reason:
      'Its feet reach 0.77 m below the floor at its model pose, so the generated project lifts it 0.771 m (in its row of ' +
      '10:47 UTC on 28 Nov 2026 it started inside the floor, and went NaN at 1.46 s). Held up by its joints\' PDs alone, ' +
      'it fell over from standing until its legs carried the body over their soles (docs/control.md, "A limb that ' +
      'stands on the ground", 30 Nov 2026); now it stands and every controller reaches its goal. What fails is the rest ' +
      'check by a fraction of a milliradian, and what it measures is not a drift but its arms ringing: the hands\' joints ' +
      '(HAND_L, HAND_R: no gravity load about their axes, so P from the bandwidth alone, 11.5 N·m/rad, and 0.1 mrad ' +
      'allowed) swing ±0.1–0.45 mrad from sample to sample with no trend (run of 30 Nov 2026, 13:04 UTC: HAND_R\'s mean ' +
      'offset 0.08 mrad over the first second, 0.14 over the second, standard deviation 0.13; HAND_L −0.02, −0.06, 0.11). ' +
      'The forearms they hang from turn up to ±0.9 mrad about the hands\' axes between samples 50 ms apart (the probe\'s ' +
      'link attitudes), the hands a little more, lagging on their soft loops. The arms\' own joints are nearly undamped ' +
      'at Choreonoid\'s 1 ms step: BodySystemInterface applies the PD from the last step\'s state, so D·T/I must stay ' +
      'below the step\'s bound for each joint\'s lightest inertia (2 g·m² for ARM_R about its axis), which holds their ' +
      'damping ratios to 0.014–0.05 (ARM_*, ARM_JOINT_TWIST_*; `body-bridge control`\'s README, "D lowered for ' +
      'stability"), and a body standing on such joints rings with its feet\'s contact.',
  },
  {
    models: /misc\/ContinuousTrackVehicle\.body$/,
    reason:
      "Its tracks are ContinuousTrack chains (40 shoes each from a free joint, FOOT_L0 and FOOT_R0), which Choreonoid closes " +
      "into a loop only in its AGX Dynamics simulator (AGXContinuousTrack::createTrackConstraint hinges FOOT_L39 back to " +
      "FOOT_L0; StdBodyLoader leaves the chain open, and only the AGX plugin reads its isContinuousTrack flag), which this " +
      "build does not have. In the AIST simulator the chain stays open: lifted 0.551 m onto the floor (self-collision on, " +
      "so that the wheels meet the shoes), the front loop unrolls onto the floor ahead of the vehicle within its first " +
      "second (FOOT_L0 from the top of the front idler to the floor 1.8–2.0 m ahead of BASE, before the drive), and the bottom run lies where it " +
      "fell while the wheels roll over its shoes (FOOT_L10 within 1 mm of where it fell, x ≈ 0.61 m, for the whole drive; " +
      "build/sweep/logs/…ContinuousTrackVehicle.body.probe.jsonl): there is no track to drive. Rolling over the shoes' " +
      "edges, the drive wheels turn about 0.7 rad of the 2.0 commanded in their velocity loops (velocity_pd: P alone, " +
      "1121 N·m·s/rad, at the 1 ms step's bound for the wheel's own 1.125 kg·m²). With the wheels in Choreonoid's " +
      "high-gain velocity mode instead (`mode:=position`, one run on 30 Nov 2026) they turn the full 2.0 rad, and the base " +
      "still drives 0.561 m, the shoes sliding under them. `body-bridge info` and `body-bridge control` (so " +
      "simulation.launch.py) warn of it, once per ContinuousTrack.",
  },
  {
    models: /WRS2018\/model\/HoseNozzle\.body$/,
    reason: HOSE_NOZZLE,
  },
  {
    models: /WRS2018\/model\/(FullFeaturedFireCabinet|FireCabinetReady)\.body$/,
    reason: `${CABINET_SELF_COLLISION} Its explosion watch: its hose nozzle's, as HoseNozzle.body's: ${HOSE_NOZZLE}`,
  },
  {
    models: /WRS2018\/model\/FireCabinetTest\.body$/,
    reason:
      `${CABINET_SELF_COLLISION} Its explosion watch: it places its hose nozzle and connector 4.2 m beside the cabinet ` +
      "and 0.227 m below the cabinet's origin (FireCabinetTest.body's HoseNozzle.body translation), under the floor's 0.2 m " +
      'when the cabinet stands at the origin as the generated project puts it, so they fall (HOSE_CONNECTOR 129 m down at ' +
      '5 s, build/sweep/logs/…FireCabinetTest.body.probe.jsonl).',
  },
  {
    models: /WRS2018\/model\/Victim[A-Z]*\.body$/,
    reason: VICTIM,
  },
];

/** The reason of the first entry whose pattern matches the model, or null. */
export function reasonFor(reasons: readonly Reason[], model: string): string | null {
  return reasons.find((r) => r.models.test(model))?.reason ?? null;
}
