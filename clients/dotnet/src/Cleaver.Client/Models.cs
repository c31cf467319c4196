// What the client reads from the service, typed for the fields a POS uses; every record keeps the
// whole answer in Json for the rest.
using System.Collections.Generic;

namespace Cleaver.Pos
{
    /// <summary>
    /// The event types of spec 3.1 and D6 this client was written with. Compare with these, but
    /// never assume an event is one of them: CleaverEvent.EventType is kept as the service wrote it.
    /// </summary>
    public static class EventTypes
    {
        public const string Created = "CREATED";
        public const string Confirmed = "CONFIRMED";
        public const string Preparing = "PREPARING";
        public const string ReadyForPickup = "READY_FOR_PICKUP";
        public const string Dispatched = "DISPATCHED";
        public const string PickupAreaAssigned = "PICKUP_AREA_ASSIGNED";
        public const string PickedUp = "PICKED_UP";
        public const string Delivered = "DELIVERED";
        public const string Concluded = "CONCLUDED";
        public const string CancellationRequested = "CANCELLATION_REQUESTED";
        public const string CancellationRequestDenied = "CANCELLATION_REQUEST_DENIED";
        public const string Cancelled = "CANCELLED";
        public const string OrderCancellationRequest = "ORDER_CANCELLATION_REQUEST";
        public const string CancelledDenied = "CANCELLED_DENIED";
        /// <summary>D42: only for a key that opted in (integration setting extraEventTypes).</summary>
        public const string WeighingDecided = "WEIGHING_DECIDED";
    }

    /// <summary>
    /// An event as polled or delivered. The type is a string, kept as written: a type added after
    /// this client stays that type and is acknowledged as that type, never mapped to another (D39).
    /// </summary>
    public sealed class CleaverEvent
    {
        /// <summary>Identifies the event TYPE of this order: the <c>id</c> to acknowledge (spec 4.13).</summary>
        public string EventId { get; set; }
        public string EventType { get; set; }
        public string OrderId { get; set; }
        public string OrderUrl { get; set; }
        public string CreatedAt { get; set; }
        public string SourceAppId { get; set; }
        /// <summary>The whole record, <c>metadata</c> included.</summary>
        public JsonValue Json { get; set; }

        public static CleaverEvent FromJson(JsonValue json)
        {
            return new CleaverEvent
            {
                EventId = json.Str("eventId"),
                EventType = json.Str("eventType"),
                OrderId = json.Str("orderId"),
                OrderUrl = json.Str("orderURL"),
                CreatedAt = json.Str("createdAt"),
                SourceAppId = json.Str("sourceAppId"),
                Json = json,
            };
        }
    }

    public sealed class Price
    {
        public double Value { get; set; }
        public string Currency { get; set; }

        public static Price FromJson(JsonValue json)
        {
            return json == null || json.Kind != JsonKind.Object ? null : new Price { Value = json.Num("value"), Currency = json.Str("currency") };
        }

        public override string ToString()
        {
            return Currency + " " + Cleaver.Pos.Json.Number(Value);
        }
    }

    public sealed class OrderItem
    {
        public int Index { get; set; }
        public string Id { get; set; }
        public string Name { get; set; }
        public string ExternalCode { get; set; }
        /// <summary>KG or UN.</summary>
        public string Unit { get; set; }
        /// <summary>The weighed kilograms once weighed (D38), else as ordered.</summary>
        public double Quantity { get; set; }
        /// <summary>Once weighed: the quantity the customer ordered.</summary>
        public double? OrderedQuantity { get; set; }
        public Price UnitPrice { get; set; }
        public Price TotalPrice { get; set; }
        /// <summary>The scale label the line was weighed with (D41), or null.</summary>
        public string ScaleLabel { get; set; }
        /// <summary>The chosen cut (D37): the first option's id and name, or null.</summary>
        public string CutId { get; set; }
        public string CutName { get; set; }
    }

    public sealed class Order
    {
        public string Id { get; set; }
        public string DisplayId { get; set; }
        public string Type { get; set; }
        public string LastEvent { get; set; }
        public string CreatedAt { get; set; }
        public string CustomerName { get; set; }
        public List<OrderItem> Items { get; set; }
        public Price ItemsPrice { get; set; }
        public Price OrderAmount { get; set; }
        /// <summary>D38: for a prepaid order once weighed, what the platform settles (+ charge, − refund).</summary>
        public Price WeighingAdjustment { get; set; }
        public JsonValue Json { get; set; }
    }

    /// <summary>One weighed line (D38, D41): a quantity in kg, or a 13-digit scale label.</summary>
    public sealed class WeighedLine
    {
        public int Index { get; private set; }
        public double? Quantity { get; private set; }
        public string Label { get; private set; }

        public static WeighedLine ByQuantity(int index, double quantity)
        {
            return new WeighedLine { Index = index, Quantity = quantity };
        }

        public static WeighedLine ByLabel(int index, string label)
        {
            return new WeighedLine { Index = index, Label = label };
        }
    }

    /// <summary>
    /// How the merchant's scale writes its EAN-13 labels (D41): prefix (1–2 digits), product code
    /// digits (4–6), value digits (5–7), the three adding up to 12; Value is WEIGHT (Decimals 3, kg)
    /// or PRICE (Decimals 2, BRL).
    /// </summary>
    public sealed class ScaleLabelLayout
    {
        public string Prefix { get; set; }
        public int CodeDigits { get; set; }
        public string Value { get; set; }
        public int ValueDigits { get; set; }
        public int Decimals { get; set; }

        public override string ToString()
        {
            return Prefix + "/" + CodeDigits + "/" + Value + "/" + ValueDigits + "/" + Decimals;
        }
    }

    public sealed class WeighingAnswer
    {
        /// <summary>Null when the weighing was applied; PENDING_APPROVAL when the customer is asked (D42).</summary>
        public string State { get; set; }
        public string WeighingId { get; set; }
        public string Deadline { get; set; }
    }

    public sealed class Cut
    {
        public string Id { get; set; }
        public string Name { get; set; }
        public string SpiceId { get; set; }
        public string SpiceName { get; set; }
    }

    public sealed class Product
    {
        public string Id { get; set; }
        public string PdvExternalId { get; set; }
        public string Name { get; set; }
        public double Price { get; set; }
        public string Unit { get; set; }
        public string Status { get; set; }
        public string ScaleCode { get; set; }
        public List<Cut> Cuts { get; set; }
    }

    public sealed class Merchant
    {
        public string Id { get; set; }
        public string Status { get; set; }
        public List<Product> Products { get; set; }
        public JsonValue Json { get; set; }
    }

    public sealed class RequestLogEntry
    {
        public string RequestId { get; set; }
        public string At { get; set; }
        public string Method { get; set; }
        public string Path { get; set; }
        public int Status { get; set; }
        public double DurationMs { get; set; }
        public string ErrorTitle { get; set; }
        /// <summary>Failed requests only: the body (secrets redacted), at most 2 KB.</summary>
        public string RequestBody { get; set; }
    }

    public sealed class RequestLogPage
    {
        public List<RequestLogEntry> Items { get; set; }
        /// <summary>The <c>before</c> of the next (older) page, or null.</summary>
        public string Next { get; set; }
    }
}
