// Answers that follow a rule of their own, written once so that every route they fit answers
// alike: a change with nothing to say (204), and a credential whose secret is shown only once.

// What these helpers need of Fastify's reply (methods, so any route's typed reply fits). Each
// returns what `send` returns, the reply: an async handler must resolve with it, since one that
// resolves undefined while the onSend hooks still run makes Fastify send again, without the body.
interface NoContentReply {
  // Typed void, as a 204 route's handler must be; what it returns at run time is the reply.
  code(statusCode: 204): { send(payload: null): void };
}
export interface CreatedReply<Sent> {
  code(statusCode: 201): { header(name: string, value: string): { send(payload: unknown): Sent } };
}

/** The handler of a route that changes something and has nothing to answer: the change, then 204. */
export function answerNoContent<R>(change: (request: R) => Promise<unknown>) {
  return async (request: R, reply: NoContentReply): Promise<void> => {
    await change(request);
    return reply.code(204).send(null);
  };
}

/**
 * A created credential with its secret (an integration key, a personal token, a logistics app):
 * 201, and never kept by a cache, since the secret is shown only in this answer.
 */
export function sendCreatedSecret<Sent>(reply: CreatedReply<Sent>, created: unknown): Sent {
  return reply.code(201).header('cache-control', 'no-store').send(created);
}
