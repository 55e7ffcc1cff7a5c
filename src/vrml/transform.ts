// The affine transform of a VRML Transform node: T · C · R · SR · S · SR⁻¹ · C⁻¹ (VRML97 6.52),
// the composition Choreonoid's VRMLTransform::toAffine3d uses.
import { add, diag, identity3, mulMat, mulVec, sub, transpose } from '../model/math.js';
import type { Affine, Vec3 } from '../model/types.js';
import type { VrmlNode } from './ast.js';
import { getField, getVec3, locate, rotationOf } from './fields.js';

export const identityAffine = (): Affine => ({ linear: identity3(), translation: [0, 0, 0] });

export function transformAffine(node: VrmlNode, path: string): Affine {
  const t = getVec3(node, path, 'translation', [0, 0, 0]);
  const c = getVec3(node, path, 'center', [0, 0, 0]);
  const s = getVec3(node, path, 'scale', [1, 1, 1]);
  const r = rotationOf((getField(node, 'rotation')?.value as number[]) ?? [0, 0, 1, 0], () => locate(node, path, 'rotation'));
  let linear = r;
  if (s[0] !== 1 || s[1] !== 1 || s[2] !== 1) {
    const sr = rotationOf(
      (getField(node, 'scaleOrientation')?.value as number[]) ?? [0, 0, 1, 0],
      () => locate(node, path, 'scaleOrientation'),
    );
    linear = mulMat(mulMat(mulMat(r, sr), diag(s[0], s[1], s[2])), transpose(sr));
  }
  const translation: Vec3 = add(t, sub(c, mulVec(linear, c)));
  return { linear, translation };
}

export function isIdentityAffine(a: Affine, eps = 1e-12): boolean {
  const l = a.linear;
  for (let i = 0; i < 3; i++) {
    if (Math.abs(a.translation[i]!) > eps) return false;
    for (let j = 0; j < 3; j++) if (Math.abs(l[i]![j]! - (i === j ? 1 : 0)) > eps) return false;
  }
  return true;
}
