// The one naming rule for everything that must be unique among its kind (URDF links and joints, device
// frames, topics, shape names): the name itself when it is free, then `name_2`, `name_3`, …

/** A namer that hands out free names and remembers them; `taken` are names already in use. */
export function uniqueNamer(taken: Iterable<string> = []): (base: string) => string {
  const used = new Set(taken);
  // The next suffix to try per base: names are never released, so the ones below it stay taken
  // (without it, N shapes of one name cost N² lookups: JungleGymM3's URDF).
  const next = new Map<string, number>();
  return (base: string): string => {
    let name = base;
    if (used.has(name)) {
      let k = next.get(base) ?? 2;
      while (used.has((name = `${base}_${k}`))) k++;
      next.set(base, k + 1);
    }
    used.add(name);
    return name;
  };
}
