// D46: the feed's JetStream stream and its replication. The relay creates the stream when it is
// missing with CLEAVER_NATS_REPLICAS replicas (by default 3 when three servers or more are known,
// else 1): with one replica, the server that holds it killed stalls the relay and every consumer
// until it returns. An existing stream is used as its operator made it (D36), but one replicated
// less than asked is reported at start: a warning line and the relay's health say so.
import { type JetStreamManager, type NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';

export interface StreamReplication {
  /** The replicas asked for (CLEAVER_NATS_REPLICAS, or the default). */
  asked: number;
  /** The replicas the stream has. */
  actual: number;
  /** Whether this relay created the stream now. */
  created: boolean;
  /** Set when the stream is replicated less than asked: what to do about it. */
  warning: string | null;
}

/** The default of CLEAVER_NATS_REPLICAS: 3 with three servers or more, else 1 (D46). */
export function defaultReplicas(knownServers: number): number {
  return knownServers >= 3 ? 3 : 1;
}

/**
 * Servers of the cluster this connection knows: those listed in CLEAVER_NATS_URL, or those the
 * server announced (`connect_urls`), whichever is more.
 */
export function knownServers(nc: NatsConnection, listed: number): number {
  return Math.max(listed, nc.info?.connect_urls?.length ?? 0);
}

export async function ensureFeedStream(
  jsm: JetStreamManager,
  stream: { name: string; subjects: string[]; duplicateWindowMs: number; replicas: number },
): Promise<StreamReplication> {
  let info = await jsm.streams.info(stream.name).catch(() => null);
  let created = false;
  if (info === null) {
    info = await jsm.streams
      .add({
        name: stream.name,
        subjects: stream.subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: nanos(stream.duplicateWindowMs),
        num_replicas: stream.replicas,
      })
      .then(
        (added) => {
          created = true;
          return added;
        },
        // Another relay created it meanwhile.
        (error) =>
          jsm.streams.info(stream.name).catch(() => {
            throw error;
          }),
      );
  }
  const actual = info.config.num_replicas || 1;
  return {
    asked: stream.replicas,
    actual,
    created,
    warning:
      actual < stream.replicas
        ? `the NATS stream ${stream.name} has ${actual} replica${actual === 1 ? '' : 's'}, fewer than the ${stream.replicas} asked ` +
          `(CLEAVER_NATS_REPLICAS): losing the server that holds it stops the feed's publication; raise it with ` +
          `"nats stream edit ${stream.name} --replicas ${stream.replicas}"`
        : null,
  };
}

/**
 * A publication's failure in words an operator can act on: JetStream answers a bare "503" when
 * no server of the stream answers (its only replica is down, or the cluster has no quorum).
 */
export function publishProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  if (code === '503' || message === '503') {
    return 'no JetStream server of the stream answered (503): its replicas are down or the cluster has no leader';
  }
  return message;
}
