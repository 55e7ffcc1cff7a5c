// The little dense linear algebra the gain design needs, over plain arrays: Cholesky factors and inverses of
// symmetric positive definite matrices (joint-space inertia), and the largest eigenpair of a symmetric
// matrix (cyclic Jacobi: exact to rounding, and n stays below ~60 degrees of freedom here).

export type Matrix = number[][];

export const zeros = (n: number, m = n): Matrix => Array.from({ length: n }, () => new Array<number>(m).fill(0));

/** Cholesky factor L (lower triangular, A = L·Lᵀ); null when A is not positive definite. */
export function cholesky(a: readonly (readonly number[])[]): Matrix | null {
  const n = a.length;
  const l = zeros(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (!(s > 0)) return null;
        l[i]![i] = Math.sqrt(s);
      } else l[i]![j] = s / l[j]![j]!;
    }
  }
  return l;
}

/** A⁻¹ of a symmetric positive definite A, through its Cholesky factor; null when A is not positive definite. */
export function inverseSpd(a: readonly (readonly number[])[]): Matrix | null {
  const l = cholesky(a);
  if (!l) return null;
  const n = a.length;
  // L⁻¹ by forward substitution, column by column; then A⁻¹ = L⁻ᵀ·L⁻¹.
  const li = zeros(n);
  for (let j = 0; j < n; j++) {
    for (let i = j; i < n; i++) {
      let s = i === j ? 1 : 0;
      for (let k = j; k < i; k++) s -= l[i]![k]! * li[k]![j]!;
      li[i]![j] = s / l[i]![i]!;
    }
  }
  const inv = zeros(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += li[k]![i]! * li[k]![j]!;
      inv[i]![j] = s;
      inv[j]![i] = s;
    }
  }
  return inv;
}

/** The rows and columns `keep` of a square matrix. */
export const submatrix = (a: readonly (readonly number[])[], keep: readonly number[]): Matrix => keep.map((i) => keep.map((j) => a[i]![j]!));

/** Every eigenvalue of a symmetric matrix with a unit eigenvector for each (`vectors[k]` for `values[k]`), by cyclic Jacobi rotations. */
export function symmetricEigen(a: readonly (readonly number[])[]): { values: number[]; vectors: number[][] } {
  const n = a.length;
  const m = a.map((r) => [...r]);
  const v = zeros(n);
  for (let i = 0; i < n; i++) v[i]![i] = 1;
  const scale = m.reduce((s, r) => s + r.reduce((t, x) => t + x * x, 0), 0);
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p]![q]! ** 2;
    if (off <= 1e-30 * scale) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p]![q]!;
        if (apq === 0) continue;
        const theta = (m[q]![q]! - m[p]![p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const kp = m[k]![p]!, kq = m[k]![q]!;
          m[k]![p] = c * kp - s * kq;
          m[k]![q] = s * kp + c * kq;
        }
        for (let k = 0; k < n; k++) {
          const pk = m[p]![k]!, qk = m[q]![k]!;
          m[p]![k] = c * pk - s * qk;
          m[q]![k] = s * pk + c * qk;
        }
        for (let k = 0; k < n; k++) {
          const kp = v[k]![p]!, kq = v[k]![q]!;
          v[k]![p] = c * kp - s * kq;
          v[k]![q] = s * kp + c * kq;
        }
      }
    }
  }
  return { values: m.map((r, i) => r[i]!), vectors: m.map((_, k) => v.map((r) => r[k]!)) };
}

/** The largest eigenvalue of a symmetric matrix and a unit eigenvector for it. */
export function largestEigenpair(a: readonly (readonly number[])[]): { value: number; vector: number[] } {
  if (a.length === 0) return { value: 0, vector: [] };
  const { values, vectors } = symmetricEigen(a);
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return { value: values[best]!, vector: vectors[best]! };
}

/**
 * The largest eigenvalue of a symmetric positive semi-definite matrix by power iteration (the Rayleigh
 * quotient, which converges twice as fast as the vector): O(n²) a step where Jacobi is O(n³), for screening
 * many matrices. Stops when it changes by less than `tolerance` (relative).
 */
export function largestEigenvalue(a: readonly (readonly number[])[], tolerance = 1e-10, maxSteps = 2000): number {
  const n = a.length;
  if (n === 0) return 0;
  // A start with a part along every eigenvector (not an eigenvector of a structured matrix).
  let x = Array.from({ length: n }, (_, i) => 1 + ((i * 0.618034) % 1));
  let previous = -Infinity;
  for (let step = 0; step < maxSteps; step++) {
    const y = a.map((r) => r.reduce((s, v, j) => s + v * x[j]!, 0));
    const xx = x.reduce((s, v) => s + v * v, 0);
    const rayleigh = x.reduce((s, v, i) => s + v * y[i]!, 0) / xx;
    const ny = Math.hypot(...y);
    if (!(ny > 0)) return 0;
    x = y.map((v) => v / ny);
    if (Math.abs(rayleigh - previous) <= tolerance * Math.abs(rayleigh)) return rayleigh;
    previous = rayleigh;
  }
  return previous;
}

/** diag(s)·A·diag(s): the symmetric form of A·diag(s²) (same eigenvalues). */
export const scaledSymmetric = (a: readonly (readonly number[])[], s: readonly number[]): Matrix => a.map((r, i) => r.map((x, j) => s[i]! * x * s[j]!));
