// body-bridge view, in the browser: the served URDF through urdf-loader on three.js (a reader no one
// here wrote), plus the frames, camera frustums, range sensor fans and centres of mass of scene.json.
// The world is ROS's: z up, metres; the robot's root link sits at the origin.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DObject, CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { MTLLoader } from 'three/examples/jsm/loaders/MTLLoader.js';
import URDFLoader from 'urdf-loader';

// Three decimals, and no "-0.000" for a value that rounds to zero.
const jointText = (value) => (Math.abs(Number(value)) < 5e-4 ? 0 : Number(value)).toFixed(3);

const container = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
container.appendChild(renderer.domElement);
const labels = new CSS2DRenderer();
labels.domElement.style.position = 'absolute';
labels.domElement.style.top = '0';
labels.domElement.style.pointerEvents = 'none';
container.appendChild(labels.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x20242a);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
camera.up.set(0, 0, 1);
camera.position.set(2, 2, 1.5);
const controls = new OrbitControls(camera, renderer.domElement);
scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(3, 2, 5);
scene.add(sun);
const grid = new THREE.GridHelper(10, 20, 0x666666, 0x3a3f47);
grid.rotation.x = Math.PI / 2;
scene.add(grid);
scene.add(new THREE.AxesHelper(0.5));

const state = { robot: null, scene: null, version: 0, error: null, ready: false, overlays: [], showCollision: false };
const kinds = { link: false, track: false, device: true, optical: true, scan: true };

function resize() {
  const w = container.clientWidth || 1;
  const h = container.clientHeight || 1;
  renderer.setSize(w, h);
  labels.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);
resize();

let frames = 0;
function animate() {
  requestAnimationFrame(animate);
  controls.update();
  renderer.render(scene, camera);
  labels.render(scene, camera);
  frames++;
}
animate();

// urdf-loader reads STL and COLLADA itself; OBJ (HRP4C's visuals) goes through three's OBJ and MTL loaders.
function loadMesh(path, manager, material, done) {
  if (!/\.obj$/i.test(path)) return stlAndCollada.defaultMeshLoader(path, manager, material, done);
  // The OBJ text comes by fetch, which the manager does not see: counted as one of its items, so that onLoad (the
  // robot complete) waits for it, as it waits for the STL and COLLADA loaders' own.
  manager.itemStart(path);
  fetch(path)
    .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${path}: ${r.status}`))))
    .then(async (text) => {
      const obj = new OBJLoader(manager);
      const lib = /^mtllib\s+(.+)$/m.exec(text);
      if (lib && !material) {
        const base = path.slice(0, path.lastIndexOf('/') + 1);
        const mtl = new MTLLoader(manager).setResourcePath(base);
        const materials = await mtl.loadAsync(base + lib[1].trim()).catch(() => null);
        if (materials) {
          materials.preload();
          obj.setMaterials(materials);
        }
      }
      const group = obj.parse(text);
      if (material) group.traverse((c) => { if (c.isMesh) c.material = material; });
      done(group);
    })
    .catch((err) => {
      manager.itemError(path);
      done(null, err);
    })
    .finally(() => manager.itemEnd(path));
}
const stlAndCollada = new URDFLoader();

function axes(size, name) {
  const g = new THREE.AxesHelper(size);
  g.material.depthTest = false;
  g.renderOrder = 2;
  const div = document.createElement('div');
  div.className = 'frame-label';
  div.textContent = name;
  const label = new CSS2DObject(div);
  label.position.set(size * 0.3, size * 0.3, size * 0.3);
  g.add(label);
  return g;
}

function frustum(f) {
  // In the optical frame: z forward, x right, y down; the image corners at depth d are ((u − cx)/fx·d, (v − cy)/fy·d, d).
  const corner = (u, v, d) => new THREE.Vector3(((u - f.cx) / f.fx) * d, ((v - f.cy) / f.fy) * d, d);
  const far = Math.min(f.far, 2);
  const near = Math.max(f.near, 0.01);
  const pts = [];
  const cs = [[-0.5, -0.5], [f.width - 0.5, -0.5], [f.width - 0.5, f.height - 0.5], [-0.5, f.height - 0.5]];
  for (let i = 0; i < 4; i++) {
    const [u, v] = cs[i];
    const [u2, v2] = cs[(i + 1) % 4];
    pts.push(new THREE.Vector3(), corner(u, v, far));
    pts.push(corner(u, v, near), corner(u2, v2, near), corner(u, v, far), corner(u2, v2, far));
  }
  pts.push(new THREE.Vector3(), new THREE.Vector3(0, 0, far)); // the optical axis
  const lines = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(pts), new THREE.LineBasicMaterial({ color: 0xffd24a }));
  lines.name = `frustum:${f.device}`;
  return lines;
}

function fan(s) {
  // In the scan frame a sample at yaw y, pitch p points along (cos p·cos y, cos p·sin y, sin p).
  const pts = [];
  const dir = (y, p, d) => new THREE.Vector3(Math.cos(p) * Math.cos(y) * d, Math.cos(p) * Math.sin(y) * d, Math.sin(p) * d);
  const far = Math.min(s.maxDistance, 3);
  const pitches = s.maxPitch > s.minPitch ? [s.minPitch, 0, s.maxPitch] : [s.minPitch];
  const steps = 32;
  for (const p of pitches) {
    for (let i = 0; i < steps; i++) {
      const a = s.minYaw + ((s.maxYaw - s.minYaw) * i) / steps;
      const b = s.minYaw + ((s.maxYaw - s.minYaw) * (i + 1)) / steps;
      pts.push(dir(a, p, far), dir(b, p, far));
    }
    pts.push(new THREE.Vector3(), dir(s.minYaw, p, far), new THREE.Vector3(), dir(s.maxYaw, p, far));
  }
  const lines = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(pts), new THREE.LineBasicMaterial({ color: 0x4ad2ff }));
  lines.name = `fan:${s.device}`;
  return lines;
}

function decorate(robot, desc) {
  const overlays = [];
  const size = 0.08;
  for (const f of desc.frames) {
    const link = robot.links[f.name];
    if (!link) continue;
    const a = axes(f.kind === 'link' ? size : size * 0.7, f.name);
    a.userData.kind = f.kind;
    a.visible = kinds[f.kind];
    a.children[0].visible = kinds[f.kind];
    link.add(a);
    overlays.push(a);
  }
  for (const f of desc.frustums) {
    const link = robot.links[f.frame];
    if (!link) continue;
    const o = frustum(f);
    o.userData.kind = 'sensor';
    link.add(o);
    overlays.push(o);
  }
  for (const s of desc.fans) {
    const link = robot.links[s.frame];
    if (!link) continue;
    const o = fan(s);
    o.userData.kind = 'sensor';
    link.add(o);
    overlays.push(o);
  }
  for (const m of desc.masses) {
    const link = robot.links[m.link];
    if (!link) continue;
    const ball = new THREE.Mesh(new THREE.SphereGeometry(0.02 * Math.cbrt(m.mass), 16, 12), new THREE.MeshBasicMaterial({ color: 0xff4080, depthTest: false, transparent: true, opacity: 0.8 }));
    ball.position.set(...m.centerOfMass);
    ball.renderOrder = 3;
    ball.userData.kind = 'com';
    link.add(ball);
    overlays.push(ball);
  }
  return overlays;
}

function applyVisibility() {
  const visual = document.getElementById('show-visual').checked;
  state.showCollision = document.getElementById('show-collision').checked;
  const com = document.getElementById('show-com').checked;
  const sensors = document.getElementById('show-sensors').checked;
  if (!state.robot) return;
  state.robot.traverse((c) => {
    if (c.isURDFVisual) c.visible = visual && !c.userData.hidden;
    if (c.isURDFCollider) c.visible = state.showCollision && !c.userData.hidden;
  });
  for (const o of state.overlays) {
    const k = o.userData.kind;
    const on = k === 'com' ? com : k === 'sensor' ? sensors : kinds[k];
    o.visible = on;
    o.traverse((c) => { if (c.isCSS2DObject) c.visible = on; });
  }
}
for (const id of ['show-visual', 'show-collision', 'show-com', 'show-sensors']) document.getElementById(id).addEventListener('change', applyVisibility);
for (const box of document.querySelectorAll('#frame-kinds input')) {
  box.checked = kinds[box.dataset.kind];
  box.addEventListener('change', () => {
    kinds[box.dataset.kind] = box.checked;
    applyVisibility();
  });
}

function jointPanel(desc, values) {
  const host = document.getElementById('joints');
  host.replaceChildren();
  for (const j of desc.joints) {
    const row = document.createElement('div');
    row.className = 'joint';
    const name = document.createElement('span');
    name.textContent = j.name;
    name.title = `${j.type} [${j.lower}, ${j.upper}]`;
    const slider = document.createElement('input');
    Object.assign(slider, { type: 'range', min: j.lower, max: j.upper, step: (j.upper - j.lower) / 1000 || 0.001, value: values.get(j.name) ?? j.initial });
    slider.dataset.joint = j.name;
    const out = document.createElement('span');
    const show = () => { out.textContent = jointText(slider.value); };
    slider.addEventListener('input', () => {
      state.robot?.setJointValue(j.name, Number(slider.value));
      show();
    });
    show();
    row.append(name, slider, out);
    host.append(row);
  }
}

function tree(desc) {
  const children = new Map();
  for (const f of desc.frames) {
    if (!children.has(f.parent)) children.set(f.parent, []);
    children.get(f.parent).push(f);
  }
  const lines = [];
  const walk = (parent, depth) => {
    for (const f of children.get(parent) ?? []) {
      lines.push(`${'  '.repeat(depth)}${f.name}${f.kind === 'link' ? '' : ` (${f.kind})`}`);
      walk(f.name, depth + 1);
    }
  };
  walk(null, 0);
  return lines.join('\n');
}

function showError(message) {
  const box = document.getElementById('error');
  box.hidden = message === null;
  box.textContent = message ?? '';
  state.error = message;
}

async function load() {
  const res = await fetch('/view/scene.json');
  const { version, error, scene: desc } = await res.json();
  showError(error);
  if (version === state.version) return;
  const values = new Map();
  if (state.robot) for (const [n, j] of Object.entries(state.robot.joints)) values.set(n, j.angle);
  // The manager tracks the URDF and every mesh it asks for: onLoad fires when the robot is complete.
  const robot = await new Promise((resolve, reject) => {
    const manager = new THREE.LoadingManager();
    let model = null;
    manager.onLoad = () => resolve(model);
    manager.onError = (url) => console.warn(`could not load ${url}`);
    const urdf = new URDFLoader(manager);
    urdf.parseCollision = true;
    urdf.loadMeshCb = loadMesh;
    urdf.load(`/view/robot.urdf?v=${version}`, (m) => { model = m; }, undefined, reject);
  });
  if (state.robot) scene.remove(state.robot);
  state.robot = robot;
  state.scene = desc;
  for (const j of desc.joints) robot.setJointValue(j.name, values.get(j.name) ?? j.initial);
  scene.add(robot);
  robot.updateMatrixWorld(true);
  // Framed on the robot's own geometry, before the sensor fans and frustums (metres long) are added.
  if (state.version === 0) frameCamera(robot);
  state.overlays = decorate(robot, desc);
  state.version = version;
  document.getElementById('title').textContent = `${desc.name} — ${desc.sourceFile}`;
  document.getElementById('tree').textContent = tree(desc);
  document.getElementById('warnings').textContent = desc.warnings.join('\n') || 'none';
  jointPanel(desc, values);
  applyVisibility();
  state.ready = true;
}

function frameCamera(robot) {
  const box = new THREE.Box3().setFromObject(robot);
  if (box.isEmpty()) return;
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  const centre = box.getCenter(new THREE.Vector3());
  controls.target.copy(centre);
  camera.position.copy(centre).add(new THREE.Vector3(size, size, size * 0.6));
  camera.near = size / 1000;
  camera.far = size * 100;
  camera.updateProjectionMatrix();
}

document.getElementById('reset').addEventListener('click', () => {
  if (!state.robot || !state.scene) return;
  for (const j of state.scene.joints) state.robot.setJointValue(j.name, j.initial);
  jointPanel(state.scene, new Map());
});

const events = new EventSource('/events');
events.addEventListener('model', () => load().catch((e) => showError(String(e))));
events.addEventListener('error', (e) => {
  if (e.data) showError(JSON.parse(e.data).message);
});
events.addEventListener('hello', (e) => {
  const { error } = JSON.parse(e.data);
  if (error) showError(error);
});

// For tests and scripting: read what the page shows, in the robot root's frame.
window.bodyBridgeView = {
  get ready() { return state.ready; },
  get version() { return state.version; },
  get error() { return state.error; },
  get frames() { return frames; },
  joints: () => (state.scene ? state.scene.joints.map((j) => j.name) : []),
  setJoint(name, value) {
    // The exact value on the robot; the slider only shows it (its step would round it).
    state.robot.setJointValue(name, value);
    const slider = document.querySelector(`#joints input[data-joint="${CSS.escape(name)}"]`);
    if (slider) {
      slider.value = String(value);
      slider.nextElementSibling.textContent = jointText(value);
    }
    state.robot.updateMatrixWorld(true);
  },
  framePose(name) {
    const link = state.robot?.links[name];
    if (!link) return null;
    state.robot.updateMatrixWorld(true);
    const m = new THREE.Matrix4().copy(state.robot.matrixWorld).invert().multiply(link.matrixWorld).elements;
    return { translation: [m[12], m[13], m[14]], rotation: [[m[0], m[4], m[8]], [m[1], m[5], m[9]], [m[2], m[6], m[10]]] };
  },
  setLinkVisible(name, visible) {
    const link = state.robot?.links[name];
    if (!link) return false;
    for (const c of link.children) if (c.isURDFVisual || c.isURDFCollider) c.userData.hidden = !visible;
    applyVisibility();
    return true;
  },
  /** URDF visuals, and how many of them drew at least one triangle (a mesh the loader could not read draws none). */
  meshStats() {
    let visuals = 0;
    let drawn = 0;
    state.robot?.traverse((c) => {
      if (!c.isURDFVisual) return;
      visuals++;
      let triangles = 0;
      c.traverse((m) => { if (m.isMesh && m.geometry?.attributes?.position) triangles += m.geometry.attributes.position.count; });
      if (triangles > 0) drawn++;
    });
    return { visuals, drawn };
  },
  overlay: (name) => {
    let found = null;
    state.robot?.traverse((c) => { if (c.name === name) found = c; });
    return found !== null;
  },
};

load().catch((e) => showError(String(e)));
