// Events as the service hands them over (spec 3.1, D3): polled or in a webhook body. The type is
// kept as the service wrote it, as a string: a type this client does not know (one added after
// it was written) stays that type, and is acknowledged as that type, never mapped to another
// (D39: a client that turned unknown types into CREATED lost events).
unit CleaverEvents;

{$IFDEF FPC}{$mode delphi}{$ENDIF}

interface

uses
  SysUtils, CleaverTypes;

const
  // The types of spec 3.1 and D6 this client was written with. Compare with these; never assume
  // an event is one of them.
  EVENT_CREATED = 'CREATED';
  EVENT_CONFIRMED = 'CONFIRMED';
  EVENT_PREPARING = 'PREPARING';
  EVENT_READY_FOR_PICKUP = 'READY_FOR_PICKUP';
  EVENT_DISPATCHED = 'DISPATCHED';
  EVENT_PICKUP_AREA_ASSIGNED = 'PICKUP_AREA_ASSIGNED';
  EVENT_PICKED_UP = 'PICKED_UP';
  EVENT_DELIVERED = 'DELIVERED';
  EVENT_CONCLUDED = 'CONCLUDED';
  EVENT_CANCELLATION_REQUESTED = 'CANCELLATION_REQUESTED';
  EVENT_ORDER_CANCELLATION_REQUEST = 'ORDER_CANCELLATION_REQUEST';
  EVENT_CANCELLED = 'CANCELLED';
  EVENT_CANCELLED_DENIED = 'CANCELLED_DENIED';
  EVENT_CANCELLATION_REQUEST_DENIED = 'CANCELLATION_REQUEST_DENIED';
  // D42: only for a key that opted in (integration setting extraEventTypes).
  EVENT_WEIGHING_DECIDED = 'WEIGHING_DECIDED';

type
  TCleaverEvent = record
    /// Identifies the event TYPE of this order (spec 4.13: the `id` to acknowledge).
    EventId: string;
    /// As the service wrote it; may be a type added after this client.
    EventType: string;
    OrderId: string;
    OrderURL: string;
    CreatedAt: string;
    SourceAppId: string;
    /// The whole record as JSON, `metadata` included.
    Raw: string;
  end;
  TCleaverEventArray = array of TCleaverEvent;

function EventFromJson(const Json: ICleaverJson): TCleaverEvent;

implementation

function EventFromJson(const Json: ICleaverJson): TCleaverEvent;
begin
  Result.EventId := Json.Str('eventId');
  Result.EventType := Json.Str('eventType');
  Result.OrderId := Json.Str('orderId');
  Result.OrderURL := Json.Str('orderURL');
  Result.CreatedAt := Json.Str('createdAt');
  Result.SourceAppId := Json.Str('sourceAppId');
  Result.Raw := Json.ToJson;
end;

end.
