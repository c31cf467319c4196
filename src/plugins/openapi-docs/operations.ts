// What each operation of /openapi.json means, in plain words: the rule, the errors it gives.
// Keyed by operationId; a route file's own description is kept when this map has none (every
// /admin/v1 operation has its words in its declaration, src/lib/route-declaration.ts), and
// decision numbers are taken out of every text (openapi-docs/complete.ts), since a reader of
// the reference cannot open them.

export interface OperationDoc {
  summary?: string;
  description: string;
}

const REFUSED =
  'An action the order’s state does not allow is refused with 400 `{title, status}` for a `cleaver` key and 422 ' +
  'for an `opendelivery` key (application/problem+json); 404 when the order is not one of the merchant’s; 409 when ' +
  'another action on the same order is being applied at that moment (retry).';

export const OPERATION_DOCS: Record<string, OperationDoc> = {
  postOauthToken: {
    description:
      'Exchanges an integration key (client_id = the merchant id, client_secret) for a bearer access token ' +
      '(client credentials grant, spec 4.1). Reuse the token until shortly before `expires_in` runs out: asking for a ' +
      'new one on every call is rate limited per IP. Errors: 400 for a missing field or a grant_type other than ' +
      'client_credentials; 401 for an unknown client or a wrong secret.',
  },
  postOauthRevoke: {
    description:
      'Revokes an access token at once (RFC 7009), authenticated with the client credentials that own it. Answers ' +
      '200 even when the token was unknown or already revoked, as RFC 7009 requires. Errors: 400 for a missing ' +
      'field; 401 for wrong client credentials.',
  },
  postOauthRefresh: {
    description:
      'Gives a new access token for a token that is still valid (sent as the bearer token) and revokes the old one, so ' +
      'a long-running POS never has to handle its secret again. Errors: 401 when the token is expired, revoked or ' +
      'invalid: ask /oauth/token then.',
  },
  getV1VersionsOrderingApp: {
    description:
      'The Open Delivery API versions this service implements, asked by an Open Delivery POS before it has a ' +
      'token. No authentication; rate limited per IP.',
  },
  postV1OrdersByOrderIdConfirm: {
    description:
      'Confirms a CREATED order after the POS reviewed it (spec 4.7): the order becomes CONFIRMED and a CONFIRMED ' +
      `event is raised. Optional orderExternalCode (the POS’s own code) and preparationTime. ${REFUSED}`,
  },
  postV1OrdersByOrderIdRequestCancellation: {
    description:
      'The POS asks to cancel an order it cannot fulfil (spec 4.8), with a reason, a code and a mode; records ' +
      'CANCELLATION_REQUESTED. The platform decides: CANCELLED ends the order, CANCELLATION_REQUEST_DENIED means it ' +
      `goes on. Asking twice is refused. For an opendelivery key the 422 adds cancellationStatus once an earlier request was answered. ${REFUSED}`,
  },
  postV1OrdersByOrderIdAcceptCancellation: {
    description:
      'Accepts the customer’s cancellation request (spec 4.9): allowed only while the order’s last event is ' +
      `ORDER_CANCELLATION_REQUEST; the order becomes CANCELLED. ${REFUSED}`,
  },
  postV1OrdersByOrderIdDenyCancellation: {
    description:
      'Denies the customer’s cancellation request with a reason and a code (spec 4.10); the order stays active and ' +
      'continues. Polling gets CANCELLED_DENIED; a `cleaver` webhook URL gets two notifications (CANCELLED_DENIED, ' +
      'then CANCELLATION_REQUEST_DENIED) and an `opendelivery` one only the first. An opendelivery key may also use ' +
      `Open Delivery’s codes DISH_ALREADY_DONE and OUT_FOR_DELIVERY. ${REFUSED}`,
  },
  postV1OrdersByOrderIdReadyForPickup: {
    summary: 'The order is ready for pickup; raises READY_FOR_PICKUP',
    description: `Tells the platform the order is ready to be picked up by the courier or the customer. ${REFUSED}`,
  },
  postV1OrdersByOrderIdDispatch: {
    summary: 'The order left the store; raises DISPATCHED, optionally with tracking',
    description:
      'The order is out for delivery. An optional deliveryTrackingInfo body is recorded as a first tracking update ' +
      `(as POST …/tracking, spec 4.12). ${REFUSED}`,
  },
  postV1OrdersByOrderIdDelivered: {
    summary: 'The order was delivered; raises DELIVERED',
    description: `The order reached the customer. Check the customer’s delivery code first with POST …/validateCode. ${REFUSED}`,
  },
  postV1OrdersByOrderIdPreparing: {
    summary: 'Preparation has started (Open Delivery); raises PREPARING',
    description:
      'Open Delivery’s optional progress event, for both profiles. Allowed on a CONFIRMED order; the status stays ' +
      `CONFIRMED and lastEvent becomes PREPARING. ${REFUSED}`,
  },
  postV1OrdersByOrderIdPickedUp: {
    summary: 'The customer picked up a TAKEOUT order (Open Delivery); raises PICKED_UP',
    description:
      'For both profiles. Allowed on a TAKEOUT order that is CONFIRMED or READY_FOR_PICKUP; the status stays and ' +
      `lastEvent becomes PICKED_UP. ${REFUSED}`,
  },
  patchV1OrdersByOrderIdDetails: {
    summary: 'Change when preparation should start (Open Delivery); no event',
    description:
      'Sets the order’s preparationStartDateTime, for both profiles; the order view shows the new value. Refused once ' +
      `the order is CANCELLED or CONCLUDED. ${REFUSED}`,
  },
  postV1OrdersByOrderIdValidateCode: {
    description:
      'Checks the delivery code the customer gives at the door against the order’s (spec 4.11). 200 with the order id ' +
      'when it matches. Errors: 400 "Invalid code provided" when it does not (do not hand the order over); 404 when ' +
      'the order is not the merchant’s.',
  },
  postV1OrdersByOrderIdTracking: {
    description:
      'A delivery tracking update from the POS’s own courier (spec 4.12): the courier, the vehicle, the position ' +
      'and the expected times; recorded for the order’s timeline, no event. Distances (distanceToPickup, ' +
      `distanceToDelivery) may be numbers or decimal strings, as Open Delivery sends them. ${REFUSED}`,
  },
  postV1OrdersByOrderIdWeighing: {
    summary: 'The weighed kilograms of KG lines; the prices follow the real weight',
    description:
      'A product sold by KG is ordered by an estimated weight; the butcher weighs the cut and sends the real weight ' +
      '(kilograms, more than 0, at most 3 decimals) of each line by its index in the order’s items. Allowed once the ' +
      'order is CONFIRMED and until it is READY_FOR_PICKUP or DISPATCHED; it may be repeated until then, the last ' +
      'weighing of a line counting. The order then shows the weight as the line’s `quantity` and the ordered one as ' +
      '`orderedQuantity`; the line’s `totalPrice` is its unit price × the weight rounded half up to cents (plus its ' +
      'options); `itemsPrice` and `orderAmount` (itemsPrice + otherFees − discount) are recomputed; a PENDING payment ' +
      'follows the new amount, and what no PENDING payment takes (a prepaid order) shows as `weighingAdjustment` ' +
      '(positive: the platform charges it; negative: it refunds it). No event is raised. Errors: 400 naming ' +
      '`items[i].quantity`, with the allowed range, for a UN line, an index that is not a line of the order or a ' +
      'weight outside the merchant’s tolerance (±20 % of the ordered quantity unless the platform set another); ' +
      `nothing of the request is applied then. ${REFUSED}`,
  },
  getV1EventsPolling: {
    summary: 'Pending events of the calling integration key, oldest first; 204 when none',
    description:
      'Every event not yet acknowledged by this integration key, oldest first, at most 1000 (spec 6). An event comes ' +
      'back in every poll until it is acknowledged, so handling must be idempotent. `eventType` filters by type: ' +
      'repeat it, separate the types with commas, or both. For a ' +
      '`cleaver` key `eventId` names the event type (shared by every order); for an `opendelivery` key one ' +
      'occurrence, equal to the webhook-id of its webhook. The event catalog says what each type ' +
      'asks of the POS. Errors: 400 for an unknown eventType; 403 when x-polling-merchants names another merchant than the token’s.',
  },
  postV1EventsAcknowledgment: {
    summary: 'Acknowledge polled events for the calling integration key (spec 4.13)',
    description:
      'Marks events as processed so they stop coming back in polls. Acknowledge only what you processed and stored. At ' +
      'most 100 per request; repeating an acknowledgment is harmless; a batch that fails midway keeps the ' +
      'acknowledgments before the failure. `id` is the eventId as polled, in either form whatever the key’s profile: ' +
      'the type’s id acknowledges the event’s current occurrence, an occurrence id only that occurrence. Acknowledging ' +
      'never affects another key. Each element’s eventType must be the type its id names: otherwise 400 ' +
      '`{title: "eventType"}`, with the elements before it acknowledged (D32). Errors: 400 for a malformed list ' +
      '(`{title: "orderId"}` for an unknown order, `{title: "id"}` for an unknown id); 404 when an order is not the ' +
      'merchant’s.',
  },
  putV1MerchantUpdate: {
    summary: 'Upload the catalog; 204 = stored and queued (spec 4.3)',
    description:
      'Replaces or updates the merchant’s catalog from the POS. The body depends on entityType: MERCHANT (the whole ' +
      'store: categories, offers, items), ITEM (existing products, flat) or ITEM_OFFER (prices and availability of ' +
      'existing products, flat). 204 only means stored and queued: processing is asynchronous; follow GET ' +
      '/v1/merchantStatus until SUCCESS or FAIL and do not upload again meanwhile. A FAIL can be a partial success; ' +
      'moreInfo gives per kind how many objects were created, updated (a value really changed), unchanged and ' +
      'removed, and lists what was dropped. Errors: 400 for a bad envelope (missing entityType or updatedObjects, ' +
      'merchantStatus missing for MERCHANT, or a top-level key other than entityType, merchantStatus, ' +
      'onlyAddProducts and updatedObjects, D34); 413 when the body is too large.',
  },
  getV1MerchantByMerchantIdStatus: {
    summary: 'Whether the merchant receives orders (Open Delivery 1.7’s merchant status)',
    description:
      'Open Delivery 1.7’s `GET /v1/merchant/{id}/status`, for both profiles: `status` is AVAILABLE or UNAVAILABLE ' +
      '(the order-receiving switch), `services` is empty (service hours are kept by the platform) and ' +
      '`orderingAppMerchantId` is the merchant’s id here. Only the token’s own merchant: any other id is 404 ' +
      '`Merchant not found`.',
  },
  getV1Merchant: {
    description:
      'The merchant as the marketplace shows it: status, categories and products with prices, stock, units and ' +
      'links to the POS (pdv_external_id) (spec 2.3–2.5). Use it to check what an upload produced. Errors: 404 when ' +
      'the merchant no longer exists.',
  },
  postV1LogisticsDeliveryUpdate: {
    description:
      'A delivery event from the logistics partner (spec 4.14), signed with X-App-Signature (hex HMAC-SHA256 of the ' +
      'body with the app’s secret) and identified by X-App-Id and X-App-MerchantId. DELIVERY_ONGOING marks the order ' +
      'dispatched, DELIVERY_FINISHED delivered; other types are recorded for tracking only. The same update sent ' +
      'twice changes nothing. Errors: 401 for a bad signature or an unknown app; 404 when the order is not the ' +
      'merchant’s or the app does not serve it; 409 when the update conflicts with the order’s state.',
  },
  postV1LogisticsConfirmationCode: {
    description:
      'The logistics partner checks the customer’s delivery code (spec 4.15), with the same check as the POS’s ' +
      'validateCode. Signed like deliveryUpdate. Errors: 400 "Invalid code provided"; 401 for a bad signature; 404 ' +
      'for an order the app does not serve.',
  },
};
