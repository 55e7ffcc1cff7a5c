// The bytes of a message taken raw are the callback's only for the call (Transport.subscribeRaw), but rclnodejs
// takes each message into a new Buffer that stays allocated until V8 collects it, and V8 counts those Buffers as
// external memory: past its limit they start a full collection of the heap. An rclnodejs relay of 640×480 images
// at 30 Hz ran 44–46 full collections in 30 s; with each image's ArrayBuffer detached once relayed (its memory
// freed there and then, and taken off V8's count) 2–3, and its CPU fell by a third, to about topic_tools' C++
// relay (BENCHMARKS.md, 30 Nov 2026).

/**
 * Node 20's V8 (11.3) has ArrayBuffer.prototype.transfer (ES2024), the one way to free an ArrayBuffer's memory
 * before the collector does, behind this flag; later Node has it without. The installed launcher
 * (cmake/body_bridge.in) passes it where the node accepts it.
 */
export const TRANSFER_FLAG = '--harmony-rab-gsab-transfer';

/**
 * Smaller messages are left to the collector: a joint_states message's few hundred bytes add little to V8's count,
 * and the detach (a native call and an empty ArrayBuffer) would be paid at 1 kHz.
 */
export const RELEASE_FROM_BYTES = 64 * 1024;

type Transfer = (this: ArrayBuffer, newLength?: number) => ArrayBuffer;

const nativeTransfer = (ArrayBuffer.prototype as { transfer?: Transfer }).transfer;

/** Whether this process can release bytes (ArrayBuffer.prototype.transfer is there). */
export const canReleaseBytes = (): boolean => typeof nativeTransfer === 'function';

/**
 * Frees the memory of a message's bytes now, once nothing will read them again: their ArrayBuffer is detached, and
 * every view of it reads as empty from then on. Only bytes that are the whole of an ArrayBuffer of their own are
 * released (a Buffer from Node's pool shares its ArrayBuffer with others), and only from RELEASE_FROM_BYTES up.
 * Returns whether it released them.
 */
export function releaseBytes(bytes: Uint8Array, transfer: Transfer | null = nativeTransfer ?? null): boolean {
  if (typeof transfer !== 'function' || bytes.byteLength < RELEASE_FROM_BYTES) return false;
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return false;
  transfer.call(buffer, 0);
  return true;
}
