// A recording stand-in for the part of rclnodejs's API that src/ros/rclnodejs-transport.ts uses, with
// the semantics of rclnodejs 2.2's lib/node.js: a declared parameter takes its override unless told not
// to; a set is refused when the descriptor is read-only, then by the on-set callbacks in order.
export interface Param {
  name: string;
  type: number;
  value: unknown;
}

export function fakeRclnodejs() {
  const calls: string[] = [];
  const state = {
    initArgv: null as string[] | null,
    publishers: [] as { type: string; topic: string; qos: FakeQoS; published: unknown[] }[],
    subscriptions: [] as { type: string; topic: string; options: Record<string, unknown>; callback: (m: unknown) => void; destroyed: boolean }[],
    timers: [] as { period: bigint; callback: () => void; clock: FakeClock | null; cancelled: boolean; destroyed: boolean }[],
    logs: [] as string[],
    node: null as FakeNode | null,
    /** The rest of the graph: other nodes (rcl_get_node_names' name and namespace), and publishers per expanded topic. */
    graph: { nodes: [] as { name: string; namespace: string }[], publishers: new Map<string, number>() },
  };
  class Parameter {
    constructor(
      readonly name: string,
      readonly type: number,
      public value?: unknown,
    ) {}
  }
  class ParameterDescriptor {
    private readonly _readOnly: boolean;
    constructor(
      readonly name: string,
      readonly type: number,
      readonly description = '',
      readOnly = false,
    ) {
      this._readOnly = readOnly;
    }
    get readOnly(): boolean {
      return this._readOnly;
    }
  }
  class NodeOptions {
    parameterOverrides: Param[] = [];
    enableRosout = true;
  }
  const ClockType = { SYSTEM_TIME: 2, STEADY_TIME: 3 };
  class Clock {
    constructor(readonly clockType = ClockType.SYSTEM_TIME) {}
  }
  class FakeQoS {
    static HistoryPolicy = { RMW_QOS_POLICY_HISTORY_KEEP_LAST: 1 };
    static ReliabilityPolicy = { RMW_QOS_POLICY_RELIABILITY_RELIABLE: 1, RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: 2 };
    static DurabilityPolicy = { RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: 1, RMW_QOS_POLICY_DURABILITY_VOLATILE: 2 };
    constructor(
      readonly history: number,
      readonly depth: number,
      readonly reliability: number,
      readonly durability: number,
    ) {}
  }
  class FakeNode {
    readonly parameters = new Map<string, Param>();
    readonly descriptors = new Map<string, ParameterDescriptor>();
    readonly overrides: Map<string, Param>;
    readonly callbacks: ((ps: Param[]) => { successful: boolean; reason: string })[] = [];
    constructor(
      readonly nodeName: string,
      readonly ns: string,
      _context: unknown,
      readonly options: NodeOptions,
    ) {
      this.overrides = new Map(options.parameterOverrides.map((p) => [p.name, p]));
      state.node = this;
    }
    getLogger() {
      const rec = (level: string) => (m: string) => {
        state.logs.push(`${level}: ${m}`);
        return true;
      };
      return { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
    }
    namespace(): string {
      // rcl applies __ns from the command line.
      const argv = state.initArgv ?? [];
      return argv.find((a) => a.startsWith('__ns:='))?.slice(6) ?? '/';
    }
    getFullyQualifiedName(): string {
      const ns = this.namespace();
      return ns === '/' ? `/${this.nodeName}` : `${ns}/${this.nodeName}`;
    }
    getNodeNamesAndNamespaces(): { name: string; namespace: string }[] {
      return [{ name: this.nodeName, namespace: this.namespace() }, ...state.graph.nodes];
    }
    /** rclnodejs expands a relative name in the node's namespace first. */
    countPublishers(topic: string): number {
      const ns = this.namespace();
      const expanded = topic.startsWith('/') ? topic : `${ns === '/' ? '' : ns}/${topic}`;
      return (state.graph.publishers.get(expanded) ?? 0) + state.publishers.filter((p) => p.topic === expanded).length;
    }
    declareParameter(p: Param, d: ParameterDescriptor, ignoreOverride = false): Param {
      const chosen = !ignoreOverride && this.overrides.has(p.name) ? this.overrides.get(p.name)! : p;
      if (chosen.type !== d.type) throw new Error(`type mismatch for ${p.name}`);
      this.descriptors.set(p.name, d);
      this.parameters.set(p.name, chosen);
      return chosen;
    }
    setParameter(p: Param): { successful: boolean; reason: string } {
      const d = this.descriptors.get(p.name);
      if (!d) return { successful: false, reason: `Parameter ${p.name} has not been declared` };
      if (d.readOnly) return { successful: false, reason: `Parameter ${p.name} is readonly` };
      for (const cb of this.callbacks) {
        const r = cb([p]);
        if (!r.successful) return r;
      }
      this.parameters.set(p.name, p);
      return { successful: true, reason: '' };
    }
    addOnSetParametersCallback(cb: (ps: Param[]) => { successful: boolean; reason: string }): void {
      this.callbacks.push(cb);
    }
    createPublisher(type: string, topic: string, options: { qos: FakeQoS }) {
      const pub = { type, topic, qos: options.qos, published: [] as unknown[] };
      state.publishers.push(pub);
      // As rclnodejs 2.2 has it: a getter (its declarations say a method).
      return {
        topic,
        publish: (m: unknown) => pub.published.push(m),
        get subscriptionCount() {
          return state.subscriptions.filter((s) => s.topic === topic && !s.destroyed).length;
        },
      };
    }
    /** What rclnodejs's executor waits on, read by syncHandles() as rclnodejs 2.2's HandleManager reads it. */
    _subscriptions: unknown[] = [];
    syncHandles(): void {
      calls.push(`syncHandles ${this._subscriptions.length}`);
    }
    createSubscription(type: string, topic: string, options: Record<string, unknown>, callback: (m: unknown) => void) {
      calls.push(`createSubscription ${topic}`);
      const sub = { type, topic, options, callback, destroyed: false, isDestroyed: () => sub.destroyed };
      state.subscriptions.push(sub);
      this._subscriptions.push(sub);
      return sub;
    }
    destroySubscription(sub: { destroyed: boolean }): void {
      calls.push('destroySubscription');
      this._subscriptions = this._subscriptions.filter((s) => s !== sub);
      sub.destroyed = true;
    }
    createTimer(period: bigint, callback: () => void, clock: FakeClock | null = null) {
      // Without a clock rclnodejs times it on the node clock (ROS time, /clock under use_sim_time).
      calls.push('createTimer');
      const timer = { period, callback, clock, cancelled: false, destroyed: false, cancel: () => (timer.cancelled = true) };
      state.timers.push(timer);
      return timer;
    }
    destroyTimer(timer: { destroyed: boolean }): void {
      calls.push('destroyTimer');
      timer.destroyed = true;
    }
    now() {
      return { nanoseconds: 5_000_000_007n, secondsAndNanoseconds: { seconds: 5n, nanoseconds: 7n } };
    }
    /** A clock without rclnodejs's native handle: the transport then reads time through now(). */
    getClock() {
      return new Clock();
    }
    destroy(): void {
      calls.push('destroy');
    }
    /** rclnodejs's guard condition: its trigger ends the executor's wait. */
    createGuardCondition(callback: () => void) {
      calls.push('createGuardCondition');
      return { callback, trigger: () => calls.push('trigger') };
    }
    spin(timeout?: number): void {
      calls.push(`spin ${timeout}`);
    }
  }
  const rcl = {
    init: async (_ctx: unknown, argv: string[]) => {
      state.initArgv = argv;
    },
    removeSignalHandlers: () => calls.push('removeSignalHandlers'),
    isShutdown: () => calls.includes('shutdown'),
    shutdown: () => calls.push('shutdown'),
    Node: FakeNode,
    NodeOptions,
    Clock,
    ClockType,
    Parameter,
    ParameterDescriptor,
    QoS: FakeQoS,
  };
  return { rcl, state, calls };
}
type FakeClock = { clockType: number };
type FakeQoS = { history: number; depth: number; reliability: number; durability: number };

