// Open Delivery v1.7.0, the smaller shapes around orders and merchants (D28, D29): error bodies,
// the token answer, the API versions, merchantStatus and merchantOnboarding. Written from the
// standard's descriptions. Open Delivery has no nullable field: a value it lacks is left out.
import { Type } from 'typebox';

/** Every error of Open Delivery, served as `application/problem+json`. */
export const OdError = Type.Object({
  title: Type.String({ description: 'Short description of the problem' }),
  status: Type.Integer({ description: 'The HTTP status' }),
});

/** 422 of requestCancellation: the outcome of an earlier request, once it has one. */
export const OdCancellationError = Type.Object({
  title: Type.String({ description: 'What went wrong, naming the field.' }),
  status: Type.Integer({ description: 'Its current status.' }),
  cancellationStatus: Type.Optional(
    Type.Enum(['CANCELLED', 'CANCELLATION_REQUEST_DENIED'], {
      description: 'Open Delivery: how an earlier request ended (cancelled, or denied by the platform).',
    }),
  ),
});

export const OD_PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const OdTokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Optional(Type.Number()),
});

/** The versions the standard has published for each group of routes. */
const VERSIONS = ['1.0.0', '1.0.1', '1.1.0', '1.1.1', '1.2.0', '1.2.1', '1.3.0', '1.3.1', '1.4.0', '1.5.0', '1.6.0'];

/** `GET /v1/versions/orderingApp`: what the ordering application (the platform) implements. */
export const OdVersionOrderingApp = Type.Object({
  merchant: Type.Optional(
    Type.Object(
      { version: Type.Optional(Type.Enum(VERSIONS, { description: 'A version string.' })) },
      { description: 'The Open Delivery merchant API versions implemented.' },
    ),
  ),
  order: Type.Optional(
    Type.Object(
      {
        version: Type.Optional(Type.Enum(VERSIONS, { description: 'A version string.' })),
        availableEventsMethods: Type.Optional(
          Type.Array(Type.Enum(['POLLING', 'WEBHOOK']), {
            description: 'Which optional actions the platform accepts for this order.',
          }),
        ),
      },
      { description: 'The Open Delivery order API versions implemented.' },
    ),
  ),
});

/** `GET /v1/merchantStatus`: moreInfo only when there is something to say. */
export const OdMerchantStatus = Type.Object({
  lastRead: Type.String({ description: 'When the platform last read this status.', format: 'date-time' }),
  status: Type.Enum(['SUCCESS', 'PROCESSING', 'FAIL'], {
    description: 'PROCESSING until the sync ends, then SUCCESS or FAIL (FAIL can be a partial success).',
  }),
  moreInfo: Type.Optional(
    Type.String({
      description:
        'In words: per kind, how many objects were created, updated (a value really changed), unchanged and removed; what was dropped and why (null when there is nothing to add).',
    }),
  ),
});

/**
 * `GET /v1/merchant/{id}/status` of Open Delivery 1.7 (D35): whether the merchant receives orders,
 * its services with their hours, and its id on the ordering application's side.
 */
export const OdMerchantAvailability = Type.Object({
  status: Type.Enum(['AVAILABLE', 'UNAVAILABLE'], { description: 'Whether the merchant receives orders' }),
  services: Type.Array(
    Type.Object({
      id: Type.Optional(Type.String({ description: 'The service’s id' })),
      serviceType: Type.Optional(Type.String({ description: 'DELIVERY, TAKEOUT, INDOOR…' })),
      serviceHours: Type.Optional(
        Type.Array(Type.Object({}, { additionalProperties: true }), {
          description: 'Week hours and holiday hours, in Open Delivery’s shape',
        }),
      ),
    }),
    { description: 'The merchant’s services and their hours; empty: the platform keeps them, not this service' },
  ),
  orderingAppMerchantId: Type.String({ description: 'The merchant’s id on the platform' }),
});

/** `PUT /v1/merchantOnboarding` body and its 201 answer (MerchantAPIInfo). */
export const OdMerchantApiInfo = Type.Object({
  getMerchantURL: Type.Optional(
    Type.Object(
      {
        baseURL: Type.String({
          description: 'Base URL of the POS catalog endpoint; the platform calls GET {baseURL}/v1/merchant.',
          format: 'uri',
        }),
        apiKey: Type.Optional(
          Type.String({ description: 'The key sent as X-API-KEY on catalog pulls; write-only, never shown back.' }),
        ),
      },
      { description: 'The POS endpoint the platform reads the catalog from (catalog pull), or null.' },
    ),
  ),
  ordersWebhookURL: Type.Optional(
    Type.String({
      description:
        'Sent: the POS’s webhook receiver, either its endpoint (a path ending in /v1/newEvent: events go to it as it is) or a base (no path, or a path prefix) to which /v1/newEvent is appended (https://pos.example.com/od → https://pos.example.com/od/v1/newEvent). No query, fragment or trailing slash; https only in production. Answered: the address events go to.',
      format: 'uri',
    }),
  ),
  orderingAppMerchantId: Type.Optional(
    Type.String({ description: 'Open Delivery: the merchant’s id at the ordering application (this service).' }),
  ),
});
