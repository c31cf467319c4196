// The merchant-side (POS) client of Cleaver for .NET Framework 4.6.1+ and .NET Standard 2.0, with
// no package dependencies. What it does for the integrator, as @cleaver/pos-client does for
// JavaScript:
// - one OAuth token (client credentials, spec 4.1) kept and reused until RenewBefore before it
//   expires, then renewed; a 401 gets one new token and one resend (spec 5.1.4);
// - 429 and 503 retried with backoff, honouring Retry-After; a connection that could not be made
//   is retried; one that broke mid-request is retried only for calls the spec makes safe to
//   repeat, and the "already done" refusal of such a repeat counts as success (D7);
// - events keep the type the service wrote, and are acknowledged as polled;
// - every POS order action, weighing by quantity or by scale label (D38, D41), the catalog's cuts
//   (D37), and the key's request log.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Cleaver.Pos
{
    public sealed class CleaverClient : IDisposable
    {
        /// <summary>D4: at most 100 elements per acknowledgment request.</summary>
        public const int AckBatchLimit = 100;
        /// <summary>D7: the refusal of an action the order already has (400; 422 with the opendelivery profile).</summary>
        public const string AlreadyDoneTitle = "Order has already same event type";
        /// <summary>D7: accept/deny when no customer request is open (any more).</summary>
        public const string NoRequestTitle = "No cancellation request to answer";

        private readonly HttpClient http;
        private readonly string clientSecret;
        private readonly Random random = new Random();
        private readonly SemaphoreSlim tokenLock = new SemaphoreSlim(1, 1);
        private string token;
        private long tokenExpiresAt;
        private int tokenRequests;

        public string BaseUrl { get; private set; }
        public string ClientId { get; private set; }
        /// <summary>Renew the token this long before it expires (default 5 minutes).</summary>
        public TimeSpan RenewBefore { get; set; }
        /// <summary>Attempts per request including the first (default 5).</summary>
        public int MaxAttempts { get; set; }
        /// <summary>First backoff delay (default 500 ms), doubled per attempt, at most 30 s.</summary>
        public TimeSpan BaseDelay { get; set; }
        /// <summary>Per-attempt timeout (default 30 s).</summary>
        public TimeSpan Timeout { get; set; }
        /// <summary>Milliseconds of a steady clock, for token expiry; replaceable to test renewal.</summary>
        public Func<long> Clock { get; set; }
        /// <summary>How many POST /oauth/token requests this client made.</summary>
        public int TokenRequestCount { get { return tokenRequests; } }

        public CleaverClient(string baseUrl, string clientId, string clientSecret, HttpMessageHandler handler = null)
        {
            BaseUrl = baseUrl.TrimEnd('/');
            ClientId = clientId;
            this.clientSecret = clientSecret;
            http = handler == null ? new HttpClient() : new HttpClient(handler);
            http.Timeout = System.Threading.Timeout.InfiniteTimeSpan;
            RenewBefore = TimeSpan.FromMinutes(5);
            MaxAttempts = 5;
            BaseDelay = TimeSpan.FromMilliseconds(500);
            Timeout = TimeSpan.FromSeconds(30);
            var steady = System.Diagnostics.Stopwatch.StartNew();
            Clock = () => steady.ElapsedMilliseconds;
        }

        public void Dispose()
        {
            http.Dispose();
            tokenLock.Dispose();
        }

        private sealed class Answer
        {
            public int Status;
            public string Body;
            public TimeSpan? RetryAfter;
            public bool Repeated;
        }

        private static bool NeverSent(Exception e)
        {
            for (var x = e; x != null; x = x.InnerException)
            {
                var web = x as WebException;
                if (web != null && (web.Status == WebExceptionStatus.ConnectFailure ||
                    web.Status == WebExceptionStatus.NameResolutionFailure)) return true;
                var socket = x as SocketException;
                if (socket != null && (socket.SocketErrorCode == SocketError.ConnectionRefused ||
                    socket.SocketErrorCode == SocketError.HostNotFound ||
                    socket.SocketErrorCode == SocketError.HostUnreachable ||
                    socket.SocketErrorCode == SocketError.NetworkUnreachable)) return true;
            }
            return false;
        }

        private TimeSpan Backoff(int attempt)
        {
            var ms = Math.Min(30000, BaseDelay.TotalMilliseconds * Math.Pow(2, attempt - 1));
            lock (random) return TimeSpan.FromMilliseconds(ms / 2 + random.NextDouble() * ms / 2);
        }

        private async Task<Answer> ExchangeAsync(string method, string path, string authorization, string body,
            bool idempotent, CancellationToken cancel)
        {
            var repeated = false;
            for (var attempt = 1; ; attempt++)
            {
                Answer answer;
                try
                {
                    answer = await AttemptAsync(method, path, authorization, body, cancel).ConfigureAwait(false);
                }
                catch (Exception e) when (!cancel.IsCancellationRequested && (e is HttpRequestException || e is OperationCanceledException))
                {
                    // Resend only what cannot do harm: a request that never left, or one safe to repeat.
                    var neverSent = NeverSent(e);
                    if (!(neverSent || idempotent) || attempt >= MaxAttempts)
                        throw new CleaverNetworkException(method + " " + BaseUrl + path + ": " + e.Message, neverSent, e);
                    if (!neverSent) repeated = true;
                    await Task.Delay(Backoff(attempt), cancel).ConfigureAwait(false);
                    continue;
                }
                answer.Repeated = repeated;
                if ((answer.Status != 429 && answer.Status != 503) || attempt >= MaxAttempts) return answer;
                // 429 and 503 mean the service did not act: anything may be sent again, after the
                // service's own estimate when it gave one.
                if (answer.RetryAfter.HasValue && answer.RetryAfter.Value > TimeSpan.FromMinutes(2)) return answer;
                TimeSpan delay;
                if (answer.RetryAfter.HasValue)
                    lock (random) delay = answer.RetryAfter.Value + TimeSpan.FromMilliseconds(random.NextDouble() * BaseDelay.TotalMilliseconds);
                else
                    delay = Backoff(attempt);
                await Task.Delay(delay, cancel).ConfigureAwait(false);
            }
        }

        private async Task<Answer> AttemptAsync(string method, string path, string authorization, string body,
            CancellationToken cancel)
        {
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancel))
            using (var request = new HttpRequestMessage(new HttpMethod(method), BaseUrl + path))
            {
                timeout.CancelAfter(Timeout);
                request.Headers.Accept.ParseAdd("application/json");
                request.Headers.UserAgent.ParseAdd("cleaver-dotnet-client/1.0");
                if (authorization != null) request.Headers.TryAddWithoutValidation("Authorization", authorization);
                if (body != null) request.Content = new StringContent(body, new UTF8Encoding(false), "application/json");
                using (var response = await http.SendAsync(request, timeout.Token).ConfigureAwait(false))
                {
                    var text = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                    TimeSpan? retryAfter = null;
                    if (response.Headers.RetryAfter != null)
                    {
                        if (response.Headers.RetryAfter.Delta.HasValue) retryAfter = response.Headers.RetryAfter.Delta;
                        else if (response.Headers.RetryAfter.Date.HasValue)
                        {
                            var until = response.Headers.RetryAfter.Date.Value - DateTimeOffset.UtcNow;
                            retryAfter = until < TimeSpan.Zero ? TimeSpan.Zero : until;
                        }
                    }
                    return new Answer { Status = (int)response.StatusCode, Body = text, RetryAfter = retryAfter };
                }
            }
        }

        private static string ErrorTitle(Answer answer)
        {
            if (!string.IsNullOrEmpty(answer.Body))
            {
                try
                {
                    var json = JsonValue.Parse(answer.Body);
                    var title = json.Str("title") ?? json.Str("message");
                    if (title != null) return title;
                }
                catch (FormatException)
                {
                    if (answer.Body.Length < 200) return answer.Body;
                }
            }
            return "HTTP " + answer.Status;
        }

        private static CleaverApiException Failure(string method, string path, Answer answer)
        {
            var title = ErrorTitle(answer);
            return answer.Status == 401 || answer.Status == 403
                ? new CleaverAuthException(answer.Status, title, method, path, answer.Body)
                : new CleaverApiException(answer.Status, title, method, path, answer.Body);
        }

        /// <summary>The access token in use: requested, or renewed when it nears expiry.</summary>
        public async Task<string> GetAccessTokenAsync(CancellationToken cancel = default(CancellationToken))
        {
            await tokenLock.WaitAsync(cancel).ConfigureAwait(false);
            try
            {
                if (token != null && Clock() < tokenExpiresAt - (long)RenewBefore.TotalMilliseconds) return token;
                Interlocked.Increment(ref tokenRequests);
                var started = Clock();
                var answer = await ExchangeAsync("POST", "/oauth/token", null,
                    "{\"client_id\":" + Json.Quote(ClientId) + ",\"client_secret\":" + Json.Quote(clientSecret) +
                    ",\"grant_type\":\"client_credentials\"}", true, cancel).ConfigureAwait(false);
                if (answer.Status != 200) throw Failure("POST", "/oauth/token", answer);
                var json = JsonValue.Parse(answer.Body);
                token = json.Str("access_token");
                // Counted from when we asked, so that the time the answer took never makes us late.
                tokenExpiresAt = started + (long)(json.Num("expires_in") * 1000);
                return token;
            }
            finally
            {
                tokenLock.Release();
            }
        }

        /// <summary>Forget the token: the next call requests a new one.</summary>
        public void DropToken()
        {
            token = null;
        }

        private async Task<Answer> AuthorizedAsync(string method, string path, string body, bool idempotent,
            Func<Answer, Task<bool>> repeatDone, CancellationToken cancel)
        {
            var first = await GetAccessTokenAsync(cancel).ConfigureAwait(false);
            var answer = await ExchangeAsync(method, path, "Bearer " + first, body, idempotent, cancel).ConfigureAwait(false);
            var repeated = answer.Repeated;
            if (answer.Status == 401)
            {
                // One new token and one resend (spec 5.1.4); never a retry with the same token.
                if (token == first) token = null;
                var renewed = await GetAccessTokenAsync(cancel).ConfigureAwait(false);
                answer = await ExchangeAsync(method, path, "Bearer " + renewed, body, idempotent, cancel).ConfigureAwait(false);
                repeated = repeated || answer.Repeated;
                if (answer.Status == 401) token = null;
            }
            if (answer.Status >= 200 && answer.Status < 300) return answer;
            // A repeat (the first attempt's connection broke after it went out) refused as already
            // done: the first attempt did the work.
            if (repeated && repeatDone != null && await repeatDone(answer).ConfigureAwait(false)) return answer;
            throw Failure(method, path, answer);
        }

        private static string OrderPath(string orderId, string action = null)
        {
            return "/v1/orders/" + Uri.EscapeDataString(orderId) + (action == null ? "" : "/" + action);
        }

        private static bool RefusedAs(Answer answer, string title)
        {
            return (answer.Status == 400 || answer.Status == 422) && ErrorTitle(answer) == title;
        }

        private Task<Answer> LifecycleAsync(string orderId, string action, string body, CancellationToken cancel)
        {
            return AuthorizedAsync("POST", OrderPath(orderId, action), body, true,
                a => Task.FromResult(RefusedAs(a, AlreadyDoneTitle)), cancel);
        }

        private Task<Answer> AnswerCancellationAsync(string orderId, string action, string outcome, string body,
            CancellationToken cancel)
        {
            // "No request to answer" alone cannot tell "my first attempt answered it" from "it was
            // answered otherwise": the order's last event can.
            return AuthorizedAsync("POST", OrderPath(orderId, action), body, true, async a =>
                RefusedAs(a, NoRequestTitle) && (await GetOrderAsync(orderId, cancel).ConfigureAwait(false)).LastEvent == outcome,
                cancel);
        }

        /// <summary>D3: this key's pending events, oldest first (at most 100); empty on 204.
        /// eventTypes filters (the others stay pending); none means all.</summary>
        public async Task<IList<CleaverEvent>> PollEventsAsync(IEnumerable<string> eventTypes = null,
            CancellationToken cancel = default(CancellationToken))
        {
            var types = (eventTypes ?? Enumerable.Empty<string>()).ToList();
            var path = "/v1/events:polling" + (types.Count == 0 ? "" :
                "?" + string.Join("&", types.Select(t => "eventType=" + Uri.EscapeDataString(t))));
            var answer = await AuthorizedAsync("GET", path, null, true, null, cancel).ConfigureAwait(false);
            if (answer.Status == 204 || string.IsNullOrEmpty(answer.Body)) return new List<CleaverEvent>();
            return JsonValue.Parse(answer.Body).Items.Select(CleaverEvent.FromJson).ToList();
        }

        /// <summary>Spec 4.13: acknowledge events already processed and persisted, as polled (their
        /// type unchanged), in batches of AckBatchLimit. Resent safely.</summary>
        public async Task AcknowledgeEventsAsync(IEnumerable<CleaverEvent> events, CancellationToken cancel = default(CancellationToken))
        {
            var all = events.ToList();
            for (var start = 0; start < all.Count; start += AckBatchLimit)
            {
                var body = "[" + string.Join(",", all.Skip(start).Take(AckBatchLimit).Select(e =>
                    "{\"id\":" + Json.Quote(e.EventId) + ",\"orderId\":" + Json.Quote(e.OrderId) +
                    ",\"eventType\":" + Json.Quote(e.EventType) + "}")) + "]";
                await AuthorizedAsync("POST", "/v1/events/acknowledgment", body, true, null, cancel).ConfigureAwait(false);
            }
        }

        /// <summary>Spec 4.6.</summary>
        public async Task<Order> GetOrderAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            var json = JsonValue.Parse((await AuthorizedAsync("GET", OrderPath(orderId), null, true, null, cancel).ConfigureAwait(false)).Body);
            var items = new List<OrderItem>();
            var index = 0;
            foreach (var item in (json["items"] ?? JsonValue.Parse("[]")).Items)
            {
                var options = item["options"];
                var cut = options != null && options.Count > 0 ? options[0] : null;
                var ordered = item["orderedQuantity"];
                items.Add(new OrderItem
                {
                    Index = index++,
                    Id = item.Str("id"),
                    Name = item.Str("name"),
                    ExternalCode = item.Str("externalCode"),
                    Unit = item.Str("unit"),
                    Quantity = item.Num("quantity"),
                    OrderedQuantity = ordered != null && ordered.Kind == JsonKind.Number ? ordered.AsDouble() : (double?)null,
                    UnitPrice = Price.FromJson(item["unitPrice"]),
                    TotalPrice = Price.FromJson(item["totalPrice"]),
                    ScaleLabel = item.Str("scaleLabel"),
                    CutId = cut == null ? null : cut.Str("id"),
                    CutName = cut == null ? null : cut.Str("name"),
                });
            }
            var total = json["total"];
            var customer = json["customer"];
            return new Order
            {
                Id = json.Str("id"),
                DisplayId = json.Str("displayId"),
                Type = json.Str("type"),
                LastEvent = json.Str("lastEvent"),
                CreatedAt = json.Str("createdAt"),
                CustomerName = customer == null ? null : customer.Str("name"),
                Items = items,
                ItemsPrice = total == null ? null : Price.FromJson(total["itemsPrice"]),
                OrderAmount = total == null ? null : Price.FromJson(total["orderAmount"]),
                WeighingAdjustment = Price.FromJson(json["weighingAdjustment"]),
                Json = json,
            };
        }

        /// <summary>Spec 4.7. createdAt null means now (UTC).</summary>
        public Task ConfirmAsync(string orderId, string orderExternalCode, int? preparationTime = null, string createdAt = null,
            CancellationToken cancel = default(CancellationToken))
        {
            var at = createdAt ?? DateTime.UtcNow.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
            var body = "{\"createdAt\":" + Json.Quote(at) + ",\"orderExternalCode\":" + Json.Quote(orderExternalCode) +
                (preparationTime.HasValue ? ",\"preparationTime\":" + preparationTime.Value.ToString(CultureInfo.InvariantCulture) : "") + "}";
            return LifecycleAsync(orderId, "confirm", body, cancel);
        }

        /// <summary>Open Delivery's "preparation started".</summary>
        public Task PreparingAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "preparing", null, cancel);
        }

        /// <summary>D6.</summary>
        public Task ReadyForPickupAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "readyForPickup", null, cancel);
        }

        /// <summary>D6; trackingJson is an optional deliveryTrackingInfo object as JSON (spec 4.12).</summary>
        public Task DispatchAsync(string orderId, string trackingJson = null, CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "dispatch", trackingJson == null ? null : "{\"deliveryTrackingInfo\":" + trackingJson + "}", cancel);
        }

        /// <summary>Open Delivery's "customer picked up" on a TAKEOUT order.</summary>
        public Task PickedUpAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "pickedUp", null, cancel);
        }

        /// <summary>D6.</summary>
        public Task DeliveredAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "delivered", null, cancel);
        }

        /// <summary>Spec 4.8: code is one of spec 4.10's codes; mode AUTO or MANUAL. Watch for CANCELLED.</summary>
        public Task RequestCancellationAsync(string orderId, string reason, string code, string mode = "MANUAL",
            CancellationToken cancel = default(CancellationToken))
        {
            return LifecycleAsync(orderId, "requestCancellation",
                "{\"reason\":" + Json.Quote(reason) + ",\"code\":" + Json.Quote(code) + ",\"mode\":" + Json.Quote(mode) + "}", cancel);
        }

        /// <summary>Spec 4.9: the answer to ORDER_CANCELLATION_REQUEST.</summary>
        public Task AcceptCancellationAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            return AnswerCancellationAsync(orderId, "acceptCancellation", EventTypes.Cancelled, null, cancel);
        }

        /// <summary>Spec 4.10: the order stays active.</summary>
        public Task DenyCancellationAsync(string orderId, string reason, string code, CancellationToken cancel = default(CancellationToken))
        {
            return AnswerCancellationAsync(orderId, "denyCancellation", EventTypes.CancelledDenied,
                "{\"reason\":" + Json.Quote(reason) + ",\"code\":" + Json.Quote(code) + "}", cancel);
        }

        /// <summary>Spec 4.12: trackingJson is the deliveryTrackingInfo object as JSON.</summary>
        public Task TrackingAsync(string orderId, string trackingJson, CancellationToken cancel = default(CancellationToken))
        {
            return AuthorizedAsync("POST", OrderPath(orderId, "tracking"), "{\"deliveryTrackingInfo\":" + trackingJson + "}", true, null, cancel);
        }

        /// <summary>Spec 4.11: true when the code is the order's; false on 400 "Invalid code provided"
        /// (do not hand the order over).</summary>
        public async Task<bool> ValidateCodeAsync(string orderId, string deliveryCode, CancellationToken cancel = default(CancellationToken))
        {
            try
            {
                await AuthorizedAsync("POST", OrderPath(orderId, "validateCode"), "{\"deliveryCode\":" + Json.Quote(deliveryCode) + "}",
                    true, null, cancel).ConfigureAwait(false);
                return true;
            }
            catch (CleaverApiException e) when (e.Status == 400 && e.Title == "Invalid code provided")
            {
                return false;
            }
        }

        /// <summary>Open Delivery's PATCH …/details: when preparation should start (ISO time).</summary>
        public Task UpdateDetailsAsync(string orderId, string preparationStartDateTime, CancellationToken cancel = default(CancellationToken))
        {
            return AuthorizedAsync("PATCH", OrderPath(orderId, "details"),
                "{\"preparationStartDateTime\":" + Json.Quote(preparationStartDateTime) + "}", true, null, cancel);
        }

        /// <summary>D38, D41: weighed lines by index, each with a quantity or a scale label. A 400 names
        /// the line's field (items[0].label…) and nothing is applied. Resent freely: weighing the same
        /// lines again replaces the earlier weights.</summary>
        public async Task<WeighingAnswer> WeighAsync(string orderId, IEnumerable<WeighedLine> lines,
            CancellationToken cancel = default(CancellationToken))
        {
            var body = "{\"items\":[" + string.Join(",", lines.Select(l =>
                "{\"index\":" + l.Index.ToString(CultureInfo.InvariantCulture) +
                (l.Label != null ? ",\"label\":" + Json.Quote(l.Label) : ",\"quantity\":" + Json.Number(l.Quantity ?? 0)) + "}")) + "]}";
            var answer = await AuthorizedAsync("POST", OrderPath(orderId, "weighing"), body, true, null, cancel).ConfigureAwait(false);
            var result = new WeighingAnswer();
            if (!string.IsNullOrEmpty(answer.Body))
            {
                var json = JsonValue.Parse(answer.Body);
                result.State = json.Str("state");
                result.WeighingId = json.Str("weighingId");
                result.Deadline = json.Str("deadline");
            }
            return result;
        }

        /// <summary>D41: the merchant's label layouts, tried in order (the first whose prefix matches is
        /// used). Setting the same layouts again changes nothing: resent freely.</summary>
        public async Task<IList<ScaleLabelLayout>> SetScaleLabelLayoutsAsync(IEnumerable<ScaleLabelLayout> layouts,
            CancellationToken cancel = default(CancellationToken))
        {
            var body = "[" + string.Join(",", layouts.Select(l =>
                "{\"prefix\":" + Json.Quote(l.Prefix) + ",\"codeDigits\":" + l.CodeDigits.ToString(CultureInfo.InvariantCulture) +
                ",\"value\":" + Json.Quote(l.Value) + ",\"valueDigits\":" + l.ValueDigits.ToString(CultureInfo.InvariantCulture) +
                ",\"decimals\":" + l.Decimals.ToString(CultureInfo.InvariantCulture) + "}")) + "]";
            var answer = await AuthorizedAsync("PUT", "/v1/merchant/scaleLabelLayouts", body, true, null, cancel).ConfigureAwait(false);
            return Layouts(JsonValue.Parse(answer.Body));
        }

        public async Task<IList<ScaleLabelLayout>> GetScaleLabelLayoutsAsync(CancellationToken cancel = default(CancellationToken))
        {
            var answer = await AuthorizedAsync("GET", "/v1/merchant/scaleLabelLayouts", null, true, null, cancel).ConfigureAwait(false);
            return Layouts(JsonValue.Parse(answer.Body));
        }

        private static IList<ScaleLabelLayout> Layouts(JsonValue json)
        {
            return json.Items.Select(l => new ScaleLabelLayout
            {
                Prefix = l.Str("prefix"),
                CodeDigits = (int)l.Num("codeDigits"),
                Value = l.Str("value"),
                ValueDigits = (int)l.Num("valueDigits"),
                Decimals = (int)l.Num("decimals"),
            }).ToList();
        }

        /// <summary>Spec 4.5: the merchant's catalog as published, products with their cuts (D37).</summary>
        public async Task<Merchant> GetMerchantAsync(CancellationToken cancel = default(CancellationToken))
        {
            var json = JsonValue.Parse((await AuthorizedAsync("GET", "/v1/merchant", null, true, null, cancel).ConfigureAwait(false)).Body);
            var products = new List<Product>();
            foreach (var p in (json["products"] ?? JsonValue.Parse("[]")).Items)
            {
                products.Add(new Product
                {
                    Id = p.Str("id"),
                    PdvExternalId = p.Str("pdv_external_id"),
                    Name = p.Str("name"),
                    Price = p.Num("price"),
                    Unit = p.Str("unit"),
                    Status = p.Str("status"),
                    ScaleCode = p.Str("scaleCode"),
                    Cuts = (p["cuts"] ?? JsonValue.Parse("[]")).Items.Select(c =>
                    {
                        var spice = c["spice"];
                        var hasSpice = spice != null && spice.Kind == JsonKind.Object;
                        return new Cut
                        {
                            Id = c.Str("id"),
                            Name = c.Str("name"),
                            SpiceId = hasSpice ? spice.Str("id") : null,
                            SpiceName = hasSpice ? spice.Str("name") : null,
                        };
                    }).ToList(),
                });
            }
            return new Merchant { Id = json.Str("id"), Status = json.Str("status"), Products = products, Json = json };
        }

        /// <summary>This key's request log, newest first (limit 1–1000; status null = any; before = Next of
        /// the previous page).</summary>
        public async Task<RequestLogPage> ListRequestsAsync(int limit = 50, bool failedOnly = false, int? status = null,
            string before = null, CancellationToken cancel = default(CancellationToken))
        {
            var path = "/v1/developer/requests?limit=" + limit.ToString(CultureInfo.InvariantCulture) +
                (failedOnly ? "&failed=true" : "") +
                (status.HasValue ? "&status=" + status.Value.ToString(CultureInfo.InvariantCulture) : "") +
                (before != null ? "&before=" + Uri.EscapeDataString(before) : "");
            var json = JsonValue.Parse((await AuthorizedAsync("GET", path, null, true, null, cancel).ConfigureAwait(false)).Body);
            return new RequestLogPage
            {
                Next = json.Str("next"),
                Items = (json["items"] ?? JsonValue.Parse("[]")).Items.Select(e => new RequestLogEntry
                {
                    RequestId = e.Str("requestId"),
                    At = e.Str("at"),
                    Method = e.Str("method"),
                    Path = e.Str("path"),
                    Status = (int)e.Num("status"),
                    DurationMs = e.Num("durationMs"),
                    ErrorTitle = e.Str("errorTitle"),
                    RequestBody = e.Str("requestBody"),
                }).ToList(),
            };
        }

        /// <summary>Sandbox only: the code the sandbox's customer tells the courier, for ValidateCodeAsync.</summary>
        public async Task<string> SandboxCustomerDeliveryCodeAsync(string orderId, CancellationToken cancel = default(CancellationToken))
        {
            var answer = await AuthorizedAsync("GET", "/v1/sandbox/orders/" + Uri.EscapeDataString(orderId) + "/customerDeliveryCode",
                null, true, null, cancel).ConfigureAwait(false);
            return JsonValue.Parse(answer.Body).Str("customerDeliveryCode");
        }
    }
}
