// Notices: what operators should look at, raised by the modules that notice it (a webhook
// endpoint that starts or stops failing or gets disabled), listed newest first.
import type { Static } from 'typebox';
import type { Db } from '../../db/db.js';
import * as repo from './notices-repository.js';
import type { Notice } from './notices-schemas.js';

export type { NoticeInput } from './notices-repository.js';

export function createNoticesService(deps: { db: Db }) {
  const { db } = deps;
  return {
    raise: (notices: repo.NoticeInput[]) => repo.insertNotices(db, notices),
    /** D39: at most one notice of this kind about an integration key since `since`. */
    async raiseUnlessRaisedSince(notice: repo.NoticeInput, keyId: string, since: Date): Promise<void> {
      await repo.insertNoticeUnlessSince(db, notice, keyId, since);
    },

    /** GET /admin/v1/notices: a page, and the cursor of the next one when there is more. */
    async list(filter: { merchantId?: string; kind?: string; cursor?: string; limit?: number }) {
      const limit = filter.limit ?? 100;
      const beforeId = filter.cursor ? Number(filter.cursor) : undefined;
      const rows = await repo.listNotices(db, { ...filter, beforeId, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const items: Array<Static<typeof Notice>> = page.map((n) => ({
        id: String(n.id),
        at: n.at.toISOString(),
        kind: n.kind,
        merchantId: n.merchant_id,
        message: n.message,
        detail: n.detail,
      }));
      const last = page.at(-1);
      return { items, next: rows.length > limit && last ? String(last.id) : null };
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
