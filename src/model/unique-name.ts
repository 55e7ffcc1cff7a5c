// The one naming rule for everything that must be unique among its kind (URDF links and joints, device
// frames, topics, shape names, repeated VRML joint names): the name itself when it is free, then
// `name_2`, `name_3`, …

/**
 * The first of `base`, `base_2`, `base_3`, … that is not in `used` and whose `derived` names (an optical
 * frame that will hang off a device frame, say) are not in `used` either.
 */
export function firstFreeName(used: ReadonlySet<string>, base: string, derived?: (name: string) => readonly string[]): string {
  const free = (name: string): boolean => !used.has(name) && (derived === undefined || derived(name).every((d) => !used.has(d)));
  let name = base;
  for (let k = 2; !free(name); k++) name = `${base}_${k}`;
  return name;
}

/** A namer that hands out free names (see firstFreeName) and remembers them; `taken` are names already in use. */
export function uniqueNamer(taken: Iterable<string> = []): (base: string, derived?: (name: string) => readonly string[]) => string {
  const used = new Set(taken);
  // The next suffix to try per base for plain calls: names are never released, so the ones below it
  // stay taken (without it, N shapes of one name cost N² lookups: JungleGymM3's URDF).
  const next = new Map<string, number>();
  return (base, derived) => {
    let name: string;
    if (derived === undefined) {
      name = base;
      if (used.has(name)) {
        let k = next.get(base) ?? 2;
        while (used.has((name = `${base}_${k}`))) k++;
        next.set(base, k + 1);
      }
    } else {
      name = firstFreeName(used, base, derived);
    }
    used.add(name);
    return name;
  };
}
