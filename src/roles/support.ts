// What a body stands on, in the floor's plane: the convex hull of its contact points (its support polygon) and how
// far a point (its centre of mass) lies inside it. Used where a standing body's balance is judged: how it comes to
// rest (resting.ts) and the sweep's squats (sweep/goals.ts).

/** Convex hull (counter-clockwise) of points in the plane. */
export function convexHull(points: readonly [number, number][]): [number, number][] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [];
  for (const x of p) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, x) <= 0) lower.pop();
    lower.push(x);
  }
  const upper: [number, number][] = [];
  for (const x of [...p].reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, x) <= 0) upper.pop();
    upper.push(x);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Signed distance of a point inside a counter-clockwise convex polygon to its nearest edge (negative outside). */
export function insideMargin(hull: readonly [number, number][], x: number, y: number): number {
  if (hull.length < 3) return -Infinity;
  let margin = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const [ax, ay] = hull[i]!;
    const [bx, by] = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    margin = Math.min(margin, ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / len);
  }
  return margin;
}
