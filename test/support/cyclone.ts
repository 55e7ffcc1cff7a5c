// Cyclone DDS's socket receive buffer for the large best-effort messages of the live graph (docs/ros.md, "Large
// best-effort messages on loopback"): with the kernel's default (208 kB here) a best-effort reader loses most
// messages that do not fit it whole. In a Jazzy run of the Choreonoid suite (30 Nov 2026) the test's subscriber got
// 29 clouds (1.2 MB) and 27 depth images (0.3 MB) of a 320×240 range camera, while 316 of the CameraInfo messages
// body_bridge publishes right after each pair arrived (on a quieter machine 271 and 260 of 291); with this buffer, 416
// and 411 of 422. Every process of the graph needs it (a receive buffer is the reader's); rmw implementations other
// than Cyclone ignore the variable.

/** As much as the kernel grants up to 8 MB (net.core.rmem_max caps it; 4 MB on this machine). */
export const RECEIVE_BUFFER = '<Internal><SocketReceiveBufferSize min="default" max="8MB"/></Internal>';

/** `uri` (a CYCLONEDDS_URI, possibly empty) with `add` in its Domain element, or beside it as a configuration of its own. */
export function withCycloneSettings(uri: string | undefined, add: string): string {
  const base = uri ?? '';
  if (add === '') return base;
  if (base.includes('</Domain>')) return base.replace('</Domain>', `${add}</Domain>`);
  // A URI naming a file (or a bare element list) stays in force beside ours: Cyclone reads a comma-separated list.
  return base.trim() === '' ? `<CycloneDDS><Domain>${add}</Domain></CycloneDDS>` : `${base},<CycloneDDS><Domain>${add}</Domain></CycloneDDS>`;
}

/** The live graph's CYCLONEDDS_URI: the receive buffer added, unless the environment already sizes it. */
export const liveCycloneUri = (uri: string | undefined): string =>
  uri?.includes('SocketReceiveBufferSize') ? uri : withCycloneSettings(uri, RECEIVE_BUFFER);
