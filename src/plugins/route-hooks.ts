// Hooks attached to each route when it is declared (an `onRoute` hook), for work that runs on
// every request and depends only on the route: the route's facts are read once, at start,
// instead of through `request.routeOptions`, a getter that builds a new object on every call.

/** A route option that holds hooks: absent, one function or a list. */
export function hooksOf<T>(option: T | T[] | undefined): T[] {
  if (option === undefined) return [];
  return Array.isArray(option) ? option : [option];
}
