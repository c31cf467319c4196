// The handler of a route that changes something and has nothing to answer: it runs the change,
// then answers 204 with no body. Written once so that every such route answers alike.

/** What the handler needs of Fastify's reply (a method, so any route's typed reply fits). */
interface NoContentReply {
  code(statusCode: 204): { send(payload: null): unknown };
}

export function answerNoContent<R>(change: (request: R) => Promise<unknown>) {
  return async (request: R, reply: NoContentReply): Promise<void> => {
    await change(request);
    reply.code(204).send(null);
  };
}
