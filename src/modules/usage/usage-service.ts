// POS presence and usage per integration key (what support needs to tell an integrator what it
// is doing wrong), and the optional switch that takes a silent merchant off the marketplace.
import { Gauge, type Registry } from 'prom-client';
import type { Static } from 'typebox';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import type { RouteGroup } from './route-groups.js';
import * as repo from './usage-repository.js';
import type { KeyPresence, KeyUsage, PresenceState } from './usage-schemas.js';

export interface PresenceConfig {
  /** Seen within this: online. */
  lateAfterSec: number;
  /** Not seen for this long: offline. */
  offlineAfterSec: number;
  /** 0: off. Otherwise a merchant whose keys are all offline this long is switched UNAVAILABLE. */
  autoUnavailableAfterSec: number;
}

/** online / late / offline from the last request, by the configured thresholds. */
export function presenceState(lastRequestAt: Date | null, now: Date, config: PresenceConfig): PresenceState {
  if (!lastRequestAt) return 'never';
  const silentSec = (now.getTime() - lastRequestAt.getTime()) / 1000;
  if (silentSec < config.lateAfterSec) return 'online';
  if (silentSec < config.offlineAfterSec) return 'late';
  return 'offline';
}

export function createUsageService(deps: {
  db: Db;
  clock: Clock;
  presence: PresenceConfig;
  /** The merchants module's switch; presence only asks it (spec 3.3). */
  merchants: {
    switchOffSilent(merchantId: string, silentSince: Date): Promise<boolean>;
    switchBackOn(merchantIds: string[]): Promise<string[]>;
    autoUnavailableMerchants(): Promise<string[]>;
  };
  /** Last token per key: the auth module's integration_keys.last_used_at. */
  lastTokenAt(keyIds: string[]): Promise<Map<string, Date | null>>;
  /** Where the presence gauge goes (/metrics). */
  registry?: Registry;
  /** D36: the platform feed's recorder (`merchant PRESENCE_CHANGED`). */
  feed?: FeedRecorder;
}) {
  const { db, clock } = deps;
  const feed = deps.feed ?? noFeed;
  if (deps.registry) {
    const config = deps.presence;
    new Gauge({
      name: 'cleaver_pos_keys',
      help: 'Integration keys by the presence of their POS (keys seen at least once): online, late, offline',
      labelNames: ['state'] as const,
      registers: [deps.registry],
      async collect() {
        const now = clock.now().getTime();
        try {
          const counts = await repo.countByPresence(
            db,
            new Date(now - config.lateAfterSec * 1000),
            new Date(now - config.offlineAfterSec * 1000),
          );
          for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
        } catch {
          // database unreachable: keep the last values
        }
      },
    });
  }
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

  async function presenceOf(keyIds: string[]): Promise<Map<string, Static<typeof KeyPresence>>> {
    const [rows, tokens] = await Promise.all([repo.presenceOfKeys(db, keyIds), deps.lastTokenAt(keyIds)]);
    const byKey = new Map(rows.map((r) => [r.key_id, r]));
    const now = clock.now();
    return new Map(
      keyIds.map((keyId) => {
        const r = byKey.get(keyId);
        const lastTokenAt = tokens.get(keyId) ?? null;
        // A token request is the POS at work too, and the only sign of a POS that never polled.
        const last = [r?.last_request_at, lastTokenAt]
          .filter((d): d is Date => d instanceof Date)
          .sort((a, b) => b.getTime() - a.getTime())[0];
        return [
          keyId,
          {
            state: presenceState(last ?? null, now, deps.presence),
            lastSeenAt: iso(last),
            lastTokenAt: iso(lastTokenAt),
            lastPollAt: iso(r?.last_poll_at),
            lastAcknowledgmentAt: iso(r?.last_ack_at),
          },
        ];
      }),
    );
  }

  return {
    presenceOf,

    /** GET …/integrationKeys/{keyId}/usage: totals per route group and an hourly series. */
    async usageOf(keyId: string, hours: number): Promise<Static<typeof KeyUsage>> {
      const now = clock.now();
      const since = new Date(now.getTime() - hours * 3_600_000);
      const rows = await repo.usageOfKey(db, keyId, since);
      const groups = new Map<
        RouteGroup,
        {
          requests: number;
          errors4xx: number;
          throttled: number;
          errors5xx: number;
          latencySum: number;
          latencyMax: number;
        }
      >();
      for (const r of rows) {
        const g = groups.get(r.route_group) ?? {
          requests: 0,
          errors4xx: 0,
          throttled: 0,
          errors5xx: 0,
          latencySum: 0,
          latencyMax: 0,
        };
        g.requests += r.requests;
        g.errors4xx += r.errors_4xx;
        g.throttled += r.throttled;
        g.errors5xx += r.errors_5xx;
        g.latencySum += Number(r.latency_ms_sum);
        g.latencyMax = Math.max(g.latencyMax, r.latency_ms_max);
        groups.set(r.route_group, g);
      }
      const presence = (await presenceOf([keyId])).get(keyId) as Static<typeof KeyPresence>;
      return {
        keyId,
        since: since.toISOString(),
        presence,
        groups: [...groups.entries()].map(([group, g]) => ({
          group,
          requests: g.requests,
          errors4xx: g.errors4xx,
          throttled: g.throttled,
          errors5xx: g.errors5xx,
          meanLatencyMs: g.requests ? Math.round(g.latencySum / g.requests) : 0,
          maxLatencyMs: g.latencyMax,
        })),
        hourly: rows.map((r) => ({
          hour: r.hour.toISOString(),
          group: r.route_group,
          requests: r.requests,
          errors4xx: r.errors_4xx,
          throttled: r.throttled,
          errors5xx: r.errors_5xx,
        })),
      };
    },

    /**
     * The optional switch (off by default): merchants whose POS has been offline longer than the
     * setting go UNAVAILABLE; those it switched off come back when a key is seen again. Both
     * are written in the merchant's history by the merchants module.
     */
    async applyPresenceSwitch(): Promise<{ off: string[]; on: string[] }> {
      const after = deps.presence.autoUnavailableAfterSec;
      if (!after) return { off: [], on: [] };
      const now = clock.now();
      const silentSince = new Date(now.getTime() - after * 1000);
      const off: string[] = [];
      for (const merchantId of await repo.silentMerchants(db, silentSince)) {
        if (await deps.merchants.switchOffSilent(merchantId, silentSince)) off.push(merchantId);
      }
      const switchedOff = await deps.merchants.autoUnavailableMerchants();
      const back = await repo.activeMerchants(db, switchedOff, silentSince);
      const on = await deps.merchants.switchBackOn(back);
      return { off, on };
    },

    /**
     * D36: the worker's presence check. Each key whose presence (online / late / offline by its
     * last request, as /metrics and the switch read it) differs from the state last announced
     * gets a `merchant PRESENCE_CHANGED {keyId, state}` item, written in the transaction that
     * records the new announced state (compare-and-set: several workers announce a change once).
     * A key is announced from its first request on; one that only ever took tokens is not.
     */
    async announcePresenceChanges(limit = 1000): Promise<Array<{ keyId: string; state: string }>> {
      const now = clock.now();
      const config = deps.presence;
      const changes = await repo.presenceChanges(
        db,
        new Date(now.getTime() - config.lateAfterSec * 1000),
        new Date(now.getTime() - config.offlineAfterSec * 1000),
        limit,
      );
      if (changes.length === 0) return [];
      const moved = await db.transaction(async (tx) => {
        const done = await repo.announcePresence(tx, changes);
        for (const c of done) {
          await feed(tx, {
            kind: 'merchant',
            type: 'PRESENCE_CHANGED',
            merchantId: c.merchant_id,
            occurredAt: now,
            data: { keyId: c.key_id, state: c.state },
          });
        }
        return done;
      });
      return moved.map((c) => ({ keyId: c.key_id, state: c.state }));
    },

    pruneUsage: (before: Date, limit: number) => repo.pruneUsage(db, before, limit),
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
