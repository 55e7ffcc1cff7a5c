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
  return (base, derived) => {
    const name = firstFreeName(used, base, derived);
    used.add(name);
    return name;
  };
}
