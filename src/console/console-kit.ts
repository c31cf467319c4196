// What every console route file gets: the services, the page context of a request, and how to
// answer with a page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { Html } from './html.js';
import type { BaseContext, PageContext, Section } from './layout.js';
import type { Session } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator's console session; set by the console's auth hook. */
    consoleSession?: Session;
    /** Webhook endpoints in trouble, read once per page for the banner (console-app.ts). */
    consoleAttention?: import('./layout.js').Attention;
  }
}

export interface ConsoleKit {
  services: Services;
  sections: Section[];
  ctx(request: FastifyRequest): PageContext;
  /** Language, catalog and environment: all a page without a session needs. */
  base(request: FastifyRequest): BaseContext;
  send(reply: FastifyReply, page: Html, status?: number): FastifyReply;
}

/** Parsed fields as flat strings: a repeated name gives an array, and the last one wins. */
function flatStrings(fields: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((fields ?? {}) as Record<string, unknown>)) {
    const value = Array.isArray(v) ? v.at(-1) : v;
    if (typeof value === 'string') out[k] = value;
  }
  return out;
}

/** A form body as flat strings (formbody gives arrays for repeated names). */
export const formOf = (request: FastifyRequest): Record<string, string> => flatStrings(request.body);

/** A query string as flat strings. */
export const queryOf = (request: FastifyRequest): Record<string, string> => flatStrings(request.query);
