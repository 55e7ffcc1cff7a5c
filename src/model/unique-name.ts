// The one naming rule for everything that must be unique among its kind (URDF links and joints, device
// frames, topics, shape names): the name itself when it is free, then `name_2`, `name_3`, …

/** A namer that hands out free names and remembers them; `taken` are names already in use. */
export function uniqueNamer(taken: Iterable<string> = []): (base: string) => string {
  const used = new Set(taken);
  return (base: string): string => {
    let name = base;
    for (let k = 2; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    return name;
  };
}
