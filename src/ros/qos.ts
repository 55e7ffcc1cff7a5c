// DDS request/offered matching for the two policies body_bridge sets (reliability, durability), as
// rmw implementations apply it: a subscription gets nothing from a publisher that offers less than it
// requests. The memory transport uses it, so tests see what a real graph would connect.
import type { QoS } from './transport.js';

/** Why `publisher` cannot serve `subscription`, or null when they match. */
export function qosMismatch(publisher: QoS, subscription: QoS): string | null {
  if (subscription.reliability === 'reliable' && publisher.reliability === 'best_effort') {
    return 'the subscription requests reliable delivery and the publisher offers best effort';
  }
  if (subscription.durability === 'transient_local' && publisher.durability === 'volatile') {
    return 'the subscription requests transient local durability and the publisher offers volatile';
  }
  return null;
}
