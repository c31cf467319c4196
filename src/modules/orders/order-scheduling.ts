// D44: encomendas. A SCHEDULED intake names a time in the store's hours, within the horizon and
// far enough ahead for every item's lead time; it takes a place in that slot in the intake's
// transaction (400 naming `schedule` when the slot is full), and carries its preparation start
// (the slot's start minus the longest lead time of its items) and a confirmation deadline. The
// slots route shows each slot's places left; a cancelled order gives its place back.
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import type { ProductRow } from '../catalog/index.js';
import {
  type MerchantRow,
  type Scheduling,
  type Slot,
  schedulingOf,
  slotAt,
  slotsBetween,
} from '../merchants/index.js';
import type { OrderDocument } from './order-intake.js';
import type { OrderRow } from './orders-repository.js';
import * as slotsRepo from './schedule-slots-repository.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
const RANGE_MAX_DAYS = 31;
const EXPIRE_BATCH = 100;

/** What a scheduled intake holds: its slot, preparation start and confirmation deadline. */
export interface SchedulePlan {
  slot: Slot;
  capacity: number;
  preparationStartAt: Date;
  confirmBy: Date;
}

export interface SlotView {
  start: string;
  end: string;
  capacity: number;
  left: number;
}

/** The merchant's store pause, while it holds (slots before its end have no place left). */
const pausedUntil = (m: Pick<MerchantRow, 'paused_until'>, now: Date) =>
  m.paused_until && m.paused_until > now ? m.paused_until : null;

export function createOrderScheduling(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    settingsOf: (merchant: Pick<MerchantRow, 'scheduling'>): Scheduling => schedulingOf(merchant.scheduling),

    /**
     * The checks of a SCHEDULED intake (400 naming `schedule` or `items[i]`, the reason in the
     * title), before anything is written. `products` are the rows the items resolved to.
     */
    plan(merchant: MerchantRow, document: OrderDocument, products: ProductRow[]): SchedulePlan | undefined {
      if (!document.schedule) return undefined;
      const s = schedulingOf(merchant.scheduling);
      const now = clock.now();
      const wanted = new Date(document.schedule.scheduledDateTimeStart);
      const slot = slotAt(s, wanted);
      if (!slot) throw badRequest('schedule.scheduledDateTimeStart is outside the store’s hours');
      if (slot.start <= now) throw badRequest('schedule.scheduledDateTimeStart is in a slot that has already started');
      if (slot.start.getTime() > now.getTime() + s.horizonDays * DAY) {
        throw badRequest(`schedule.scheduledDateTimeStart is beyond the ${s.horizonDays}-day horizon`);
      }
      const byId = new Map(products.map((p) => [p.id, p]));
      let longest = 0;
      document.items.forEach((item, i) => {
        const lead = Number(byId.get(item.productId ?? '')?.lead_time_hours ?? 0);
        if (slot.start.getTime() - now.getTime() < lead * HOUR) {
          throw badRequest(
            `items[${i}] needs ${lead} hours’ notice: too soon for the slot at ${slot.start.toISOString()}`,
          );
        }
        longest = Math.max(longest, lead);
      });
      return {
        slot,
        capacity: s.capacityPerSlot,
        preparationStartAt: new Date(slot.start.getTime() - longest * HOUR),
        confirmBy: new Date(now.getTime() + s.confirmWithinMinutes * MINUTE),
      };
    },

    /** In the intake's transaction: a place in the slot, or 400 naming `schedule` when it is full. */
    async takePlace(tx: Queryable, merchantId: string, plan: SchedulePlan): Promise<void> {
      if (!(await slotsRepo.takePlace(tx, merchantId, plan.slot.start, plan.capacity))) {
        throw badRequest(
          `schedule: the slot at ${plan.slot.start.toISOString()} is full (${plan.capacity} orders per slot)`,
        );
      }
    },

    /** A cancelled scheduled order gives its place back (order-changes.ts, in the change's transaction). */
    async onCancelled(tx: Queryable, order: OrderRow): Promise<void> {
      if (order.slot_start) await slotsRepo.releasePlace(tx, order.merchant_id, order.slot_start);
    },

    /**
     * GET /admin/v1/merchants/{merchantId}/slots: the slots from `from` (default now) to `to`
     * (default the horizon's end), at most 31 days, never before now nor beyond the horizon; a
     * slot before the end of a store pause has no place left.
     */
    async listSlots(merchant: MerchantRow, range: { from?: string; to?: string }): Promise<SlotView[]> {
      const s = schedulingOf(merchant.scheduling);
      const now = clock.now();
      const from = range.from ? new Date(range.from) : now;
      const to = range.to ? new Date(range.to) : new Date(now.getTime() + s.horizonDays * DAY);
      if (Number.isNaN(from.getTime())) throw badRequest('from must be an ISO date-time');
      if (Number.isNaN(to.getTime())) throw badRequest('to must be an ISO date-time');
      if (to <= from) throw badRequest('to must be after from');
      if (to.getTime() - from.getTime() > RANGE_MAX_DAYS * DAY)
        throw badRequest(`to must be at most ${RANGE_MAX_DAYS} days after from`);
      const start = new Date(Math.max(from.getTime(), now.getTime()));
      const end = new Date(Math.min(to.getTime(), now.getTime() + s.horizonDays * DAY));
      if (end <= start) return [];
      const slots = slotsBetween(s, start, end);
      const taken = await slotsRepo.takenBetween(db, merchant.id, start, end);
      const paused = pausedUntil(merchant, now);
      return slots.map((slot) => ({
        start: slot.start.toISOString(),
        end: slot.end.toISOString(),
        capacity: s.capacityPerSlot,
        left:
          paused && slot.start < paused ? 0 : Math.max(0, s.capacityPerSlot - (taken.get(slot.start.getTime()) ?? 0)),
      }));
    },

    /** Scheduled orders not confirmed by their deadline (the sweep cancels them). */
    unconfirmedPastDeadline: () => slotsRepo.unconfirmedPastDeadline(db, clock.now(), EXPIRE_BATCH),
  };
}

export type OrderScheduling = ReturnType<typeof createOrderScheduling>;
